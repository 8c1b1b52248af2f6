#!/usr/bin/env python3
"""Checks that the .deb depends on every QML module the app loads.

dpkg-shlibdeps finds the shared libraries the binaries link, but a QML module
is loaded by name at run time: one missing from Depends shows only as a blank
window on a user's machine. This follows every `import` in qml/**/*.qml, then
what those modules import in turn (their qmldir's import and depends lines
and their own QML files), finds the Debian package that installed each one
(dpkg-query -S on its qmldir) and fails if that package is not in Depends.

usage: check-qml-depends.py --qml DIR --qtpaths QTPATHS --depends 'a, b (>= 1), c | d'
"""
import argparse
import os
import re
import subprocess
import sys

IMPORT = re.compile(r"^\s*import\s+([A-Za-z_][\w.]*)", re.MULTILINE)

# Modules built into a Qt library, with no qmldir on disk, and what they
# import: QtQml brings in QtQml.WorkerScript (a module of its own package)
# and QtQml.Models.
BUILTIN = {"QtQml": ["QtQml.Models", "QtQml.WorkerScript"], "QtQml.Models": []}

# Our own modules are compiled into the app.
OWN_PREFIX = "Watchword."


def imports_in(text):
    return set(IMPORT.findall(text))


def package_names(depends):
    names = set()
    for relation in depends.split(","):
        for alternative in relation.split("|"):
            name = alternative.split("(")[0].strip()
            if name:
                names.add(name)
    return names


def owners(paths):
    """The package that installed each path (one dpkg-query: each run reads
    every package's file list)."""
    result = subprocess.run(["dpkg-query", "-S", *paths], capture_output=True, text=True)
    found = {}
    for line in result.stdout.splitlines():
        packages, _, path = line.partition(": ")
        if path in paths and "," not in packages:
            found[path] = packages.split(":", 1)[0].strip()
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qml", required=True, help="the app's QML sources")
    parser.add_argument("--qtpaths", required=True, help="Qt's qtpaths tool")
    parser.add_argument("--depends", required=True, help="the package's Depends field")
    options = parser.parse_args()

    qt_qml = subprocess.run([options.qtpaths, "--query", "QT_INSTALL_QML"], capture_output=True,
                            text=True, check=True).stdout.strip()
    depends = package_names(options.depends)

    direct = set()
    for folder, _, names in sorted(os.walk(options.qml)):
        for name in sorted(names):
            if name.endswith(".qml"):
                with open(os.path.join(folder, name), encoding="utf-8") as source:
                    direct |= {m for m in imports_in(source.read())
                               if not m.startswith(OWN_PREFIX)}
    if not direct:
        print(f"no QML import found in {options.qml}", file=sys.stderr)
        return 1

    problems = []
    seen = {}
    todo = [(module, "qml/") for module in sorted(direct)]
    while todo:
        module, importer = todo.pop()
        if module in seen or module.startswith(OWN_PREFIX):
            continue
        directory = os.path.join(qt_qml, *module.split("."))
        qmldir = os.path.join(directory, "qmldir")
        if module in BUILTIN:
            seen[module] = "(built into Qt's libraries)"
            todo += [(m, module) for m in BUILTIN[module]]
            continue
        if not os.path.isfile(qmldir):
            seen[module] = None
            if module in direct:
                problems.append(f"{module} (imported in qml/) is not installed: no {qmldir}")
            else:
                # A file of another module names it, for a type we do not use
                # (or it would fail in the tests): noted, not required.
                print(f"note: {module}, imported by {importer}, is not installed here")
            continue
        seen[module] = (qmldir, importer)
        with open(qmldir, encoding="utf-8") as text:
            for line in text:
                words = line.split()
                if len(words) >= 2 and words[0] in ("import", "depends"):
                    todo.append((words[1], module))
        for root, dirs, files in os.walk(directory):
            # Qt Design Studio's property sheets: not loaded by an app.
            # A folder with a qmldir of its own is another module (QtQuick/
            # Dialogs under QtQuick): walked only if something imports it.
            dirs[:] = [d for d in dirs if d != "designer"
                       and not os.path.isfile(os.path.join(root, d, "qmldir"))]
            for name in files:
                if name.endswith(".qml"):
                    with open(os.path.join(root, name), encoding="utf-8",
                              errors="replace") as source:
                        todo += [(m, module) for m in imports_in(source.read())]

    installed = {m: where for m, where in seen.items() if isinstance(where, tuple)}
    found = owners([qmldir for qmldir, _ in installed.values()])
    for module in sorted(seen):
        if module not in installed:
            if seen[module] is not None:
                print(f"{module}: {seen[module]}")
            continue
        qmldir, importer = installed[module]
        package = found.get(qmldir)
        print(f"{module}: {package}")
        if package is None:
            problems.append(f"{module}: no Debian package owns {qmldir}")
        elif package not in depends:
            problems.append(f"{module} (imported by {importer}) comes from {package}, "
                            "which the package's Depends does not list")
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}", file=sys.stderr)
        print("add the package to watchword_qml_packages in packaging/CMakeLists.txt",
              file=sys.stderr)
        return 1
    print(f"every QML module the app loads ({len(seen)}) is in the package's Depends")
    return 0


if __name__ == "__main__":
    sys.exit(main())
