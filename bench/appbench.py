"""What the app's benchmark scripts share: the binaries they run and the
vaults they make (bench/app_performance.py, bench/first_content.py)."""

import os
import subprocess
import sys


def fail(script, message):
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(1)


def app_binaries(script, build_dir):
    """The app and watchword-make-vault in BUILD_DIR; exits if either is not built."""
    app = os.path.join(build_dir, "src", "app", "watchword")
    tool = os.path.join(build_dir, "bench", "watchword-make-vault")
    for binary in (app, tool):
        if not os.access(binary, os.X_OK):
            fail(script, f"{binary} is not built (cmake --build {build_dir} "
                 "--target watchword watchword-make-vault)")
    return app, tool


def make_vault(script, tool, path, accounts, password):
    """A vault of ACCOUNTS accounts at PATH under PASSWORD (given on stdin)."""
    result = subprocess.run([tool, path, "--accounts", str(accounts)], input=password + "\n",
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        fail(script, f"watchword-make-vault failed: {result.stderr.strip()}")
