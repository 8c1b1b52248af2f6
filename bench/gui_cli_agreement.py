#!/usr/bin/python3
"""The Diagnostics view and watchword-cli bench measure alike, and a run
does not freeze the app: both checked on the real binaries.

    bench/gui_cli_agreement.py BUILD_DIR [--rounds 2] [--filter REGEX]

Builds nothing: BUILD_DIR must hold src/app/watchword and
src/cli/watchword-cli. Each round runs the same benchmarks (the quick
profile) in both front ends, one after the other, alternating which goes
first:

  watchword-cli bench --filter REGEX --format json
  watchword --demo --page diagnostics --diagnostics-run REGEX
            --diagnostics-export GUI.json --timing T.json --screenshot S.png

(offscreen, with settings and data of its own). For every benchmark it
prints the CLI's and the app's point estimates with their 95 % intervals,
the ratio of the points, and whether the intervals overlap; then, from the
app's --timing file, how late the clock's second was handled on the GUI
thread while the benchmarks ran on the worker (the whole run: a frozen GUI
thread shows as a late second).

As a control, each round also runs the CLI a second time: how often two
runs of the same front end have overlapping intervals says how much of any
disagreement is the machine drifting between runs rather than the front
ends differing.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

DEFAULT_FILTER = (
    "^(keychain/new_os_random|keychain/new_mnemonic|shared_secret_key/sender_dh|"
    "encryption/encrypt|encryption/decrypt|totp/sha1|totp/sha256|totp/sha512|"
    "pbkdf2/sha256_1000|record/seal_open|selftest/startup|"
    "ref/secp256k1_raw_sender_dh|ref/openssl_hmac_oneshot_totp_sha1)$"
)


def typical(benchmark):
    # The report's own choice: the slope for linear sampling, else the mean.
    return benchmark["estimates"]["typical"]


def run_cli(build, regex, env):
    out = subprocess.run(
        [os.path.join(build, "src/cli/watchword-cli"), "bench", "--filter", regex,
         "--format", "json"],
        check=True, capture_output=True, env=env, timeout=1800).stdout
    return json.loads(out)


def run_gui(build, regex, env, work, round_number):
    report = os.path.join(work, f"gui-{round_number}.json")
    timing = os.path.join(work, f"timing-{round_number}.json")
    subprocess.run(
        [os.path.join(build, "src/app/watchword"), "--demo", "--page", "diagnostics",
         "--diagnostics-run", regex, "--diagnostics-export", report, "--timing", timing,
         "--screenshot", os.path.join(work, f"gui-{round_number}.png"),
         "--window-size", "900x640"],
        check=True, env=env, timeout=1800, capture_output=True)
    with open(report, encoding="utf-8") as f, open(timing, encoding="utf-8") as t:
        return json.load(f), json.load(t)


def late_seconds(timing):
    """How late each second's handler started, in ms after the one before
    plus 1000 (the clock's timer fires on the second)."""
    # From the first frame on: the run starts there (before it, a second
    # waits for the app's own start-up, which bench/app_performance.py measures).
    first_frame = timing.get("first_frame_ms", 0)
    starts = [tick["at_ms"] for tick in timing.get("ticks", []) if tick["at_ms"] > first_frame]
    return [b - a - 1000.0 for a, b in zip(starts, starts[1:])]


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--filter", default=DEFAULT_FILTER)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_QUICK_CONTROLS_STYLE="Basic",
                   XDG_CONFIG_HOME=os.path.join(work, "config"),
                   XDG_DATA_HOME=os.path.join(work, "data"),
                   XDG_RUNTIME_DIR=os.path.join(work, "runtime"))
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        overlaps = total = control_overlaps = control_total = 0
        lateness = []
        for round_number in range(args.rounds):
            if round_number % 2 == 0:
                cli = run_cli(args.build, args.filter, env)
                gui, timing = run_gui(args.build, args.filter, env, work, round_number)
                control = run_cli(args.build, args.filter, env)
            else:
                control = run_cli(args.build, args.filter, env)
                gui, timing = run_gui(args.build, args.filter, env, work, round_number)
                cli = run_cli(args.build, args.filter, env)
            control_by_name = {b["name"]: b for b in control["benchmarks"]}
            lateness += late_seconds(timing)
            by_name = {b["name"]: b for b in gui["benchmarks"]}
            print(f"round {round_number + 1}: CLI and app, quick profile")
            print(f"  {'operation':36} {'CLI [low point high]':>30} {'app [low point high]':>30}"
                  f" {'app/CLI':>8}  intervals")
            for benchmark in cli["benchmarks"]:
                other = by_name.get(benchmark["name"])
                if other is None or benchmark["status"] != "measured" or \
                        other["status"] != "measured":
                    print(f"  {benchmark['name']:36} not measured by both")
                    continue
                a, b = typical(benchmark), typical(other)
                overlap = a["low"] <= b["high"] and b["low"] <= a["high"]
                overlaps += overlap
                total += 1
                c = control_by_name.get(benchmark["name"])
                if c is not None and c["status"] == "measured":
                    c = typical(c)
                    control_overlaps += a["low"] <= c["high"] and c["low"] <= a["high"]
                    control_total += 1
                print(f"  {benchmark['name']:36} "
                      f"{fmt(a['low']):>9} {fmt(a['point']):>9} {fmt(a['high']):>9}  "
                      f"{fmt(b['low']):>9} {fmt(b['point']):>9} {fmt(b['high']):>9}  "
                      f"{b['point'] / a['point']:7.2f}x  {'overlap' if overlap else 'APART'}")
        print(f"\nintervals overlapping, CLI and app: {overlaps} of {total}; "
              f"two CLI runs (the control): {control_overlaps} of {control_total}")
        if lateness:
            lateness.sort()
            print(f"GUI thread during the runs: {len(lateness)} seconds handled, the latest "
                  f"{max(lateness):.1f} ms late, the median {lateness[len(lateness) // 2]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
