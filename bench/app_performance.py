#!/usr/bin/python3
"""The app's performance targets (issue 4), measured on the real binary.

    bench/app_performance.py BUILD_DIR [--runs 5] [--seconds 35] [--accounts 1000]
                             [--json [FILE]]

Builds nothing: BUILD_DIR must hold src/app/watchword and
bench/watchword-make-vault (cmake --build BUILD_DIR --target watchword
watchword-make-vault). In a temporary directory it makes two vaults with
watchword-make-vault, one of ACCOUNTS accounts and an empty one (the
reference), and starts the app on each in turn, RUNS times, offscreen
(QT_QPA_PLATFORM=offscreen, Basic style), with

    watchword --vault V --unlock-stdin --timing T.json --quit-after SECONDS

The app unlocks once its first frame is on screen (the password comes on
stdin) and writes what it measured from inside when it quits
(src/app/shell/LaunchTiming.h). SECONDS must cover a 30-s rollover of the codes:
35 s always holds one. From each run this script takes:

  launch -> first frame      from just before the process was started (this
                             script's CLOCK_MONOTONIC) to the first frame
                             swapped: the unlock page
  launch -> codes - KDF      to the first frame after the vault showed
                             unlocked, minus the password KDF (run again by
                             the app at exit at the vault's iteration count,
                             the fastest of three, since the unlock runs it
                             where it cannot be timed apart)
  tick                       GUI-thread time in the receivers of the clock's
                             second: the median second, the slowest, the
                             second a 30-s period rolls over, and the second
                             the next codes appear (5 s before)
  VmHWM                      the peak resident set, read when the app quits

and prints the medians over the runs beside the targets, and beside the
same figures for the empty vault measured in the same runs (so that what
1,000 accounts cost shows as a ratio, whatever the machine's speed today).
Runs alternate between the two vaults so that a slow patch of a shared
machine hits both. --json prints every figure of every run as JSON instead
of the table; --json FILE writes that to FILE and prints the table too.
"""

import argparse
import json
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import appbench  # noqa: E402

TARGETS = {
    # metric: (target, unit, what)
    "codes_minus_kdf_ms": (400.0, "ms", "launch -> codes, KDF excluded"),
    "tick_max_ms": (2.0, "ms", "slowest tick"),
    "vmhwm_mb": (150.0, "MB", "VmHWM"),
}

ROWS = [
    # key, label, unit, digits
    ("launch_to_main_ms", "launch -> main()", "ms", 1),
    ("first_frame_ms", "launch -> first frame (unlock page)", "ms", 1),
    ("codes_minus_kdf_ms", "launch -> codes first frame - KDF", "ms", 1),
    ("kdf_ms", "KDF (PBKDF2-SHA256, 600,000 iterations)", "ms", 1),
    ("unlock_rest_ms", "unlock job - KDF (read, open records)", "ms", 1),
    ("show_codes_ms", "unlock done -> codes first frame", "ms", 1),
    ("tick_median_ms", "tick, median second", "ms", 3),
    ("tick_max_ms", "tick, slowest second", "ms", 3),
    ("tick_rollover_ms", "tick, 30-s rollover (:00 / :30)", "ms", 3),
    ("tick_next_code_ms", "tick, next codes appear (:25 / :55)", "ms", 3),
    ("gui_cpu_ms_per_s", "GUI-thread CPU per second, codes shown", "ms", 2),
    ("vmhwm_mb", "VmHWM at exit", "MB", 1),
    ("vmrss_mb", "VmRSS at exit", "MB", 1),
]


def fail(message):
    appbench.fail("app_performance.py", message)


def machine():
    """CPU model, cores, SHA-NI/AES-NI, OS, kernel, load."""
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    system = platform.system()
    try:
        with open("/etc/os-release", encoding="utf-8") as release:
            for line in release:
                if line.startswith("PRETTY_NAME="):
                    system = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": len(os.sched_getaffinity(0)),
        "sha_ni": "sha_ni" in flags,
        "aes_ni": "aes" in flags,
        "avx512": "avx512f" in flags,
        "os": system,
        "kernel": platform.release(),
        "load_average": list(os.getloadavg()),
    }


def make_vault(tool, path, accounts, password):
    appbench.make_vault("app_performance.py", tool, path, accounts, password)


def run_app(app, vault, password, seconds, work, index):
    timing = os.path.join(work, f"timing-{index}.json")
    environment = dict(os.environ)
    environment.update({
        "QT_QPA_PLATFORM": "offscreen",
        "QT_QUICK_CONTROLS_STYLE": "Basic",
        # The app's own runtime, settings and data directories: no socket of
        # a running app, no preference (auto-lock, theme) of the user's.
        "XDG_RUNTIME_DIR": os.path.join(work, "runtime"),
        "XDG_CONFIG_HOME": os.path.join(work, "config"),
        "XDG_DATA_HOME": os.path.join(work, "data"),
    })
    command = [app, "--vault", vault, "--unlock-stdin", "--timing", timing,
               "--quit-after", str(seconds)]
    started = time.monotonic_ns()
    process = subprocess.Popen(command, env=environment, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, errors = process.communicate(password + "\n", timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        fail(f"the app did not quit within {seconds + 60} s")
    if process.returncode != 0:
        fail(f"the app exited with {process.returncode}: {errors.strip()}")
    with open(timing, encoding="utf-8") as file:
        data = json.load(file)
    data["launch_to_main_ms"] = (data["main_monotonic_ns"] - started) / 1e6
    data["stderr"] = errors
    return data


def figures(data):
    """The reported figures of one run, from the app's JSON."""
    if not data.get("unlock_succeeded"):
        fail("the vault did not unlock")
    main = data["launch_to_main_ms"]
    kdf = data["kdf"]["ms"]
    codes_at = data["codes_frame_ms"]
    ticks = [t for t in data["ticks"] if t["unlocked"] and t["at_ms"] > codes_at]
    if not ticks:
        fail("no tick was measured with the codes shown: raise --seconds")
    walls = [t["wall_us"] / 1000 for t in ticks]
    rollover = [t["wall_us"] / 1000 for t in ticks if t["second"] % 30 == 0]
    next_code = [t["wall_us"] / 1000 for t in ticks if t["second"] % 30 == 25]
    # Rows may change only where a period rolls over or its next code
    # appears (30-s and 60-s periods here).
    stray = [t["second"] for t in ticks
             if t["rows_signalled"] and t["second"] % 30 not in (0, 25)]
    return {
        "launch_to_main_ms": main,
        "first_frame_ms": main + data["first_frame_ms"],
        "codes_minus_kdf_ms": main + codes_at - kdf,
        "kdf_ms": kdf,
        "unlock_rest_ms": data["unlock_finished_ms"] - data["unlock_requested_ms"] - kdf,
        "show_codes_ms": codes_at - data["unlock_finished_ms"],
        "tick_median_ms": statistics.median(walls),
        "tick_max_ms": max(walls),
        "tick_rollover_ms": max(rollover) if rollover else None,
        "tick_next_code_ms": max(next_code) if next_code else None,
        "gui_cpu_ms_per_s": 1000 * data["after_codes_gui_cpu_ms"] / data["after_codes_wall_ms"],
        "vmhwm_mb": data["memory_at_end"]["vmhwm_kb"] / 1024,
        "vmrss_mb": data["memory_at_end"]["vmrss_kb"] / 1024,
        "accounts": data["accounts"],
        "ticks_measured": len(ticks),
        "rows_signalled_max": max(t["rows_signalled"] for t in ticks),
        "stray_row_ticks": stray,
    }


def summary(runs, key):
    values = [run[key] for run in runs if run.get(key) is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("build_dir")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=35.0,
                        help="how long each launch runs (at least 31 to hold a rollover)")
    parser.add_argument("--accounts", type=int, default=1000)
    parser.add_argument("--json", nargs="?", const="-", metavar="FILE",
                        help="JSON of every run: on stdout instead of the table, or into FILE")
    options = parser.parse_args()
    app, tool = appbench.app_binaries("app_performance.py", options.build_dir)
    if options.runs < 1 or options.seconds < 2:
        fail("--runs must be at least 1 and --seconds at least 2")

    before = machine()
    results = {"full": [], "empty": []}
    stderr_lines = set()
    qt_version = None
    with tempfile.TemporaryDirectory(prefix="watchword-perf-") as work:
        os.mkdir(os.path.join(work, "runtime"), 0o700)
        password = secrets.token_urlsafe(24)
        vaults = {"full": os.path.join(work, "full.wwv"), "empty": os.path.join(work, "empty.wwv")}
        make_vault(tool, vaults["full"], options.accounts, password)
        make_vault(tool, vaults["empty"], 0, password)
        for index in range(options.runs):
            order = ("empty", "full") if index % 2 == 0 else ("full", "empty")
            for which in order:
                if options.json != "-":
                    print(f"run {index + 1}/{options.runs}: {which} vault ...", file=sys.stderr,
                          flush=True)
                data = run_app(app, vaults[which], password, options.seconds, work,
                               f"{which}-{index}")
                qt_version = data.get("qt_version")
                stderr_lines.update(line for line in data["stderr"].splitlines() if line)
                run = figures(data)
                run["raw"] = data
                results[which].append(run)

    host = before
    host["qt"] = qt_version
    host["load_average_after"] = list(os.getloadavg())
    report = {"machine": host, "runs": options.runs, "seconds": options.seconds,
              "accounts": options.accounts, "figures": {}, "app_stderr": sorted(stderr_lines)}
    for key, _, _, _ in ROWS:
        full = summary(results["full"], key)
        empty = summary(results["empty"], key)
        entry = {"full": full, "empty": empty}
        if full and empty and full["median"] > 0 and empty["median"] > 0:
            entry["ratio_to_empty"] = full["median"] / empty["median"]
        if key in TARGETS and full:
            target = TARGETS[key][0]
            entry["target"] = target
            entry["ratio_to_target"] = full["median"] / target
            entry["worst_ratio_to_target"] = full["max"] / target
            entry["met"] = full["max"] <= target
        report["figures"][key] = entry
    report["stray_row_ticks"] = sorted({s for run in results["full"]
                                        for s in run["stray_row_ticks"]})
    report["rows_signalled_max"] = max(run["rows_signalled_max"] for run in results["full"])

    if options.json:
        for which in results:
            for run in results[which]:
                run["raw"].pop("stderr", None)
        report["per_run"] = results
        if options.json == "-":
            json.dump(report, sys.stdout, indent=2)
            print()
            return 0
        with open(options.json, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=2)
            file.write("\n")

    print(f"Machine: {host['cpu']}, {host['cores']} cores, "
          f"SHA-NI {'yes' if host['sha_ni'] else 'no'}, AES-NI {'yes' if host['aes_ni'] else 'no'}, "
          f"{host['os']} (Linux {host['kernel']}), Qt {qt_version}; load average "
          f"{host['load_average'][0]:.2f} before, {host['load_average_after'][0]:.2f} after")
    print(f"{options.runs} runs of {options.seconds:g} s each on a vault of {options.accounts} "
          "accounts and on an empty one (the reference), alternating; medians (min-max)")
    print()
    header = (f"{'':42} {str(options.accounts) + ' accounts':>24} {'empty vault':>12} "
              f"{'ratio':>7} {'target':>8} {'/target':>8}")
    print(header)
    print("-" * len(header))
    for key, label, unit, digits in ROWS:
        entry = report["figures"][key]
        full, empty = entry["full"], entry["empty"]
        if full is None:
            continue
        cell = (f"{full['median']:.{digits}f} ({full['min']:.{digits}f}-"
                f"{full['max']:.{digits}f}) {unit}")
        empty_cell = f"{empty['median']:.{digits}f} {unit}" if empty else "-"
        ratio = f"{entry['ratio_to_empty']:.2f}x" if "ratio_to_empty" in entry else ""
        target = f"<= {entry['target']:g}" if "target" in entry else ""
        versus = ""
        if "ratio_to_target" in entry:
            versus = f"{entry['ratio_to_target']:.2f}" + (" ok" if entry["met"] else " MISS")
        print(f"{label:42} {cell:>24} {empty_cell:>12} {ratio:>7} {target:>8} {versus:>8}")
    print()
    print("/target: the median over the target; 'ok' when the slowest run met it as well.")
    print(f"Rows signalled by one tick: at most {report['rows_signalled_max']}; ticks that "
          "signalled rows away from a rollover or next-code second: "
          f"{report['stray_row_ticks'] or 'none'}.")
    if stderr_lines:
        print("The app wrote to stderr:")
        for line in sorted(stderr_lines):
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
