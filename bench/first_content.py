#!/usr/bin/python3
"""How fast the app shows its first content, against KeePassXC in the same batch.

    bench/first_content.py BUILD_DIR [--rounds 7] [--hold 4] [--accounts 1000]
                           [--reference 'keepassxc'] [--json [FILE]]

Under a private Xvfb server (no GPU: the machine's own renderer choice
applies), it starts each program in turn, ROUNDS times, alternating them
so that a slow patch of a shared machine hits all alike:

  reference     the reference program (KeePassXC by default; skipped if it
                is not installed)
  demo          watchword --demo (the sample vault, unlocked at once)
  vault         watchword on a vault of ACCOUNTS accounts, unlocked with the
                password on stdin once its first frame is drawn
                (--unlock-stdin): its first content is the unlock page, and
                its memory at HOLD seconds holds the unlocked accounts; then
                the same start once more with --timing, for "launch -> codes
                drawn, KDF excluded" as bench/app_performance.py defines it

Each start is measured from outside by bench/firstwin.c (built here with
gcc; needs libx11-dev and libxdamage-dev): milliseconds from exec to the
window being mapped and to its first drawn content (16 colours or more in
the window), and the resident set (VmRSS) HOLD seconds after exec. It
prints the medians, each program's ratio to the reference, and whether the
targets hold: first content no later than the reference's and VmRSS no
more than the reference's.

Builds nothing of the app: BUILD_DIR must hold src/app/watchword and
bench/watchword-make-vault.
"""

import argparse
import json
import os
import platform
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile

FIELDS = ["label", "map_ms", "content_ms", "x", "y", "w", "h", "override", "name", "vmrss_kb",
          "vmhwm_kb", "rssanon_kb", "rssfile_kb", "pss_kb", "threads", "nkids", "kids_rss_kb",
          "final_colors", "mesa_kb"]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import appbench  # noqa: E402


def fail(message):
    appbench.fail("first_content.py", message)


def build_firstwin(work):
    binary = os.path.join(work, "firstwin")
    result = subprocess.run(["gcc", "-O2", "-Wall", "-o", binary, os.path.join(HERE, "firstwin.c"),
                             "-lX11", "-lXdamage"], capture_output=True, text=True)
    if result.returncode != 0:
        fail("could not build bench/firstwin.c (apt-get install libx11-dev libxdamage-dev):\n"
             + result.stderr)
    return binary


def start_xvfb():
    if shutil.which("Xvfb") is None:
        fail("Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        fail("Xvfb did not start")
    return server, ":" + number


def measure(firstwin, label, hold, command, environment, stdin_text=None):
    result = subprocess.run([firstwin, label, str(hold), "-", "--"] + command,
                            input=stdin_text, capture_output=True, text=True, env=environment,
                            timeout=hold + 60)
    line = result.stdout.strip().splitlines()
    if not line:
        fail(f"{label}: firstwin printed nothing: {result.stderr.strip()}")
    values = dict(zip(FIELDS, line[-1].split("\t")))
    for key in ("map_ms", "content_ms"):
        values[key] = float(values[key])
    for key in ("vmrss_kb", "vmhwm_kb", "pss_kb"):
        values[key] = int(values[key])
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hold", type=float, default=4.0)
    parser.add_argument("--accounts", type=int, default=1000)
    parser.add_argument("--reference", default="keepassxc")
    parser.add_argument("--json", nargs="?", const="-", default=None)
    options = parser.parse_args()

    app, tool = appbench.app_binaries("first_content.py", options.build_dir)
    reference = options.reference.split()
    have_reference = shutil.which(reference[0]) is not None

    with tempfile.TemporaryDirectory() as work:
        firstwin = build_firstwin(work)
        password = secrets.token_urlsafe(24)
        vault = os.path.join(work, "vault.wwv")
        appbench.make_vault("first_content.py", tool, vault, options.accounts, password)
        runtime = os.path.join(work, "runtime")
        os.mkdir(runtime, 0o700)
        environment = dict(os.environ)
        for variable in ("QT_QPA_PLATFORM", "QT_QUICK_BACKEND", "QSG_RHI_BACKEND", "WAYLAND_DISPLAY"):
            environment.pop(variable, None)
        environment.update({"XDG_RUNTIME_DIR": runtime,
                            "XDG_CONFIG_HOME": os.path.join(work, "config"),
                            "XDG_DATA_HOME": os.path.join(work, "data"),
                            "HOME": work})
        server, display = start_xvfb()
        environment["DISPLAY"] = display
        runs = {"reference": [], "demo": [], "vault": [], "codes": []}
        try:
            for round_number in range(options.rounds):
                if have_reference:
                    runs["reference"].append(measure(firstwin, "reference", options.hold,
                                                     reference, environment))
                runs["demo"].append(measure(firstwin, "demo", options.hold,
                                            [app, "--demo"], environment))
                runs["vault"].append(measure(firstwin, "vault", options.hold,
                                             [app, "--vault", vault, "--new-instance",
                                              "--unlock-stdin"], environment, password + "\n"))
                # The same vault once more, timed from inside: launch -> codes
                # drawn, KDF excluded (as bench/app_performance.py reports it).
                timing = os.path.join(work, f"timing-{round_number}.json")
                subprocess.run([app, "--vault", vault, "--new-instance", "--unlock-stdin",
                                "--timing", timing, "--quit-after", "2"],
                               input=password + "\n", capture_output=True, text=True,
                               env=environment, timeout=120)
                if os.path.exists(timing):
                    with open(timing, encoding="utf-8") as file:
                        data = json.load(file)
                    if data.get("codes_frame_ms") is not None and data.get("kdf"):
                        runs["codes"].append({"codes_minus_kdf_ms": data["codes_frame_ms"] +
                                              data.get("process_start_to_main_ms", 0) -
                                              data["kdf"]["ms"]})
        finally:
            server.terminate()
            server.wait()

    def median(which, key):
        values = [run[key] for run in runs[which] if key in run and run[key] >= 0]
        return statistics.median(values) if values else None

    summary = {}
    for which in ("reference", "demo", "vault"):
        if runs[which]:
            summary[which] = {key: median(which, key) for key in
                              ("map_ms", "content_ms", "vmrss_kb", "pss_kb")
                              if median(which, key) is not None}
    report = {"machine": platform.platform(), "processor": platform.processor(),
              "cpus": os.cpu_count(), "rounds": options.rounds, "hold_s": options.hold,
              "accounts": options.accounts, "reference": options.reference if have_reference else None,
              "summary": summary, "runs": runs}
    if options.json == "-":
        json.dump(report, sys.stdout, indent=1)
        print()
        return 0
    if options.json:
        with open(options.json, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=1)

    print(f"first content under Xvfb, medians of {options.rounds} alternating rounds "
          f"({os.cpu_count()} CPUs)")
    print(f"{'':28} {'map ms':>8} {'content ms':>11} {'VmRSS MiB':>10} {'PSS MiB':>8} {'vs ref':>8}")
    names = {"reference": options.reference, "demo": "watchword --demo",
             "vault": f"watchword, {options.accounts} accounts"}
    ok = True
    ref = summary.get("reference")
    for which, figures in summary.items():
        ratio = ""
        if ref and which != "reference":
            ratio = f"{figures['content_ms'] / ref['content_ms']:.2f}x"
        print(f"{names[which]:28} {figures['map_ms']:8.0f} {figures['content_ms']:11.0f} "
              f"{figures['vmrss_kb'] / 1024:10.1f} {figures['pss_kb'] / 1024:8.1f} {ratio:>8}")
    codes = median("codes", "codes_minus_kdf_ms")
    if codes is not None:
        summary["codes_minus_kdf_ms"] = codes
        print(f"watchword, {options.accounts} accounts: launch -> codes drawn, KDF excluded: "
              f"{codes:.0f} ms")
    if ref:
        for which in ("demo", "vault"):
            if which not in summary:
                continue
            sooner = summary[which]["content_ms"] <= ref["content_ms"]
            smaller = summary[which]["vmrss_kb"] <= ref["vmrss_kb"]
            ok = ok and sooner and smaller
            print(f"{names[which]}: first content {'no later than' if sooner else 'LATER than'} "
                  f"the reference, VmRSS {'no more than' if smaller else 'MORE than'} the reference")
    else:
        print(f"no reference: {reference[0]} is not installed (apt-get install keepassxc)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
