#!/usr/bin/env bash
# Installs the .deb with apt, as a user would, checks the installed files and
# runs them, then removes the package and every package its installation
# brought in: the machine is left as it was found. Root (or sudo) needed.
#
#   packaging/test-installed.sh DEB [BUILD_DIR]
#
# With BUILD_DIR (a build with tests, such as build/ci), the app's offscreen
# smoke test (tests/app/TestAppSmoke) runs against /usr/bin/watchword too.
set -euo pipefail

deb="${1:-}"
build="${2:-}"
if [[ -z "$deb" || ! -f "$deb" ]]; then
  echo "usage: packaging/test-installed.sh DEB [BUILD_DIR]" >&2
  exit 2
fi
deb="$(realpath "$deb")"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "package: need root or sudo to install $deb" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

work="$(mktemp -d)"
installed_before="$work/before"
dpkg-query -W -f='${Package}\n' | sort >"$installed_before"
if dpkg-query -W -f='${Status}' watchword 2>/dev/null | grep -q 'install ok installed'; then
  echo "package: watchword is installed already; remove it first (apt-get remove watchword)" >&2
  exit 1
fi

# On any exit: purge the package and what apt added for it.
cleanup() {
  local status=$?
  local added
  added="$(dpkg-query -W -f='${Package}\n' | sort | comm -13 "$installed_before" - | tr '\n' ' ')"
  if [ -n "$added" ]; then
    echo "package: removing $added"
    # shellcheck disable=SC2086 # one word per package
    "${sudo[@]}" apt-get purge -y -qq $added >/dev/null
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

fail() {
  echo "package: FAILED: $*" >&2
  exit 1
}

echo "package: apt-get install $deb"
"${sudo[@]}" apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1 || {
  cat "$work/apt.log" >&2
  fail "apt-get could not install the package"
}
version="$(dpkg-deb -f "$deb" Version)"

# Every file where Debian's tools look for it.
expected=(
  /usr/bin/watchword /usr/bin/watchword-cli /usr/bin/watchword-bench
  /usr/share/applications/org.watchword.Watchword.desktop
  /usr/share/metainfo/org.watchword.Watchword.metainfo.xml
  /usr/share/icons/hicolor/scalable/apps/org.watchword.Watchword.svg
  /usr/share/man/man1/watchword.1 /usr/share/man/man1/watchword-cli.1
  /usr/share/man/man1/watchword-bench.1
  /usr/share/watchword/devices/fenix7.json
)
for size in 16 22 24 32 48 64 128 256; do
  expected+=("/usr/share/icons/hicolor/${size}x${size}/apps/org.watchword.Watchword.png")
done
dpkg -L watchword >"$work/files"
for file in "${expected[@]}"; do
  grep -qxF "$file" "$work/files" || fail "the package does not install $file"
  [ -e "$file" ] || fail "$file is not there after installing"
done
echo "package: ${#expected[@]} files in place"

# The command line: its version and the self-test of every primitive.
[ "$(/usr/bin/watchword-cli --version)" = "watchword-cli $version" ] ||
  fail "watchword-cli --version does not say $version"
/usr/bin/watchword-cli selftest >"$work/selftest" || {
  cat "$work/selftest" >&2
  fail "watchword-cli selftest"
}
echo "package: watchword-cli selftest: $(grep -c '^PASS' "$work/selftest") known-answer tests pass"

# The device profiles as installed, and the path the binaries look in.
profiles="$(/usr/bin/watchword-cli watch devices --devices-dir /usr/share/watchword/devices --json)" ||
  fail "watchword-cli watch devices on the installed profiles"
grep -qF '"id":"fenix7"' <<<"$profiles" || fail "the installed profiles lack fenix7"
grep -qaF /usr/share/watchword/devices /usr/bin/watchword-cli ||
  fail "watchword-cli does not look for profiles in /usr/share/watchword/devices"

# The app, offscreen: it must draw its first frame, save it and quit with
# nothing on stderr (no missing QML module or plugin).
mkdir -m 700 "$work/runtime"
run_app() {
  env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work/runtime" \
    XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" "$@"
}
[ "$(run_app /usr/bin/watchword --version)" = "Watchword $version" ] ||
  fail "watchword --version does not say $version"
if ! run_app timeout 120 /usr/bin/watchword --demo --screenshot "$work/demo.png" \
  2>"$work/app.err"; then
  cat "$work/app.err" >&2
  fail "watchword --demo --screenshot"
fi
[ ! -s "$work/app.err" ] || { cat "$work/app.err" >&2; fail "the app wrote to stderr"; }
file "$work/demo.png" | grep -q 'PNG image data' || fail "the app saved no picture of its window"
echo "package: watchword drew its window offscreen ($(file -b "$work/demo.png" | cut -d, -f2 | xargs))"
if [ -n "$build" ]; then
  smoke="$build/tests/app/TestAppSmoke"
  [ -x "$smoke" ] || fail "$smoke is not built"
  run_app env WATCHWORD_APP=/usr/bin/watchword "$smoke" >"$work/smoke.log" 2>&1 || {
    cat "$work/smoke.log" >&2
    fail "TestAppSmoke on /usr/bin/watchword"
  }
  echo "package: TestAppSmoke on /usr/bin/watchword: $(grep '^Totals' "$work/smoke.log")"
fi

# Desktop integration: the files as their tools read them, and otpauth://
# links registered (the desktop-file-utils trigger updates the cache).
desktop-file-validate /usr/share/applications/org.watchword.Watchword.desktop ||
  fail "desktop-file-validate"
appstreamcli validate --no-net /usr/share/metainfo/org.watchword.Watchword.metainfo.xml \
  >"$work/appstream" || { cat "$work/appstream" >&2; fail "appstreamcli validate"; }
if command -v update-desktop-database >/dev/null; then
  grep -q '^x-scheme-handler/otpauth=.*org\.watchword\.Watchword\.desktop' \
    /usr/share/applications/mimeinfo.cache || fail "otpauth:// links are not registered"
fi

# The man pages, found by name and set without a warning.
for page in watchword watchword-cli watchword-bench; do
  [ "$(man -w "$page")" = "/usr/share/man/man1/$page.1" ] || fail "man does not find $page(1)"
  warnings="$(MANWIDTH=80 man --warnings -l "/usr/share/man/man1/$page.1" 2>&1 >/dev/null)"
  [ -z "$warnings" ] || fail "man $page: $warnings"
done
echo "package: man pages found and set without warnings"
echo "package: watchword $version installs and runs"
