#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png: every page of the app, drawn by the
# real binary under the offscreen platform at a fixed window size, in the
# light theme, and the daily pages again in the dark one (*-dark.png).
#
#   scripts/screenshots.sh [BUILD_DIR]     (default: build/release)
#
# Builds nothing: BUILD_DIR must hold src/app/watchword. The pages of an open
# vault come from the demo vault (`--demo`: sample accounts and notes); the
# first run from a vault path where no vault exists yet. Each picture is one
# launch with `--screenshot FILE --page NAME`. A page this build does not
# have yet is skipped with a message (the app exits with 3). Anything the app
# writes on stderr (a QML warning) fails the script after the last page.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build/release}"
app="$build/src/app/watchword"
out=docs/screenshots
size=900x640

if [[ ! -x "$app" ]]; then
  echo "screenshots: $app is not built (cmake --build $build --target watchword)" >&2
  exit 1
fi
mkdir -p "$out"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/runtime"
# No preference of the user's (theme, settings), no session, one locale.
export QT_QPA_PLATFORM=offscreen QT_QUICK_CONTROLS_STYLE=Basic LC_ALL=C.UTF-8 \
  XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
unset DBUS_SESSION_BUS_ADDRESS

failed=0
# shot FILE PAGE ARGS...: one launch, one picture.
shot() {
  local file="$1" page="$2" status=0
  shift 2
  # From the work directory with a relative vault path, so the first-run
  # page shows "vault.wwv" rather than a temporary directory.
  (cd "$work" && "$OLDPWD/$app" "$@" --window-size "${SHOT_SIZE:-$size}" --page "$page" \
    --screenshot "$OLDPWD/$out/$file.png" 2>"$work/stderr") || status=$?
  if [[ $status -eq 3 ]]; then
    echo "screenshots: skipped $file: this build has no page \"$page\""
    return
  fi
  if [[ $status -ne 0 ]]; then
    echo "screenshots: $file failed (exit $status):" >&2
    cat "$work/stderr" >&2
    failed=1
    return
  fi
  if [[ -s "$work/stderr" ]]; then
    echo "screenshots: $file: the app wrote to stderr:" >&2
    cat "$work/stderr" >&2
    failed=1
  fi
  echo "screenshots: $out/$file.png"
}

shot codes codes --demo
shot add-account add --demo
shot notes notes --demo
shot contacts contacts --demo
shot settings settings --demo
shot diagnostics diagnostics --demo
# The same page after a quick run of the TOTP and key-agreement benchmarks
# beside their references, tall enough to show the table, the chart and the
# targets.
SHOT_SIZE=900x1500 shot diagnostics-run diagnostics --demo \
  --diagnostics-run '^(totp/|ref/openssl_hmac_oneshot_totp|shared_secret_key/|ref/secp256k1)'
# The watch simulator on three screen shapes, each with the demo vault's
# accounts exported under the worked example's PIN and opened on the watch:
# round MIP, the Instinct 2's semi-octagon with its subscreen, a rectangle.
SHOT_SIZE=1440x1000 shot watch-fenix7 watch-fenix7 --demo
SHOT_SIZE=1440x1000 shot watch-instinct2 watch-instinct2 --demo
SHOT_SIZE=1440x1000 shot watch-venusq2 watch-venusq2 --demo
# Import, export and QR codes: the preview of a sample list made from the
# demo vault (duplicates, a same-name account, new ones), the export dialog
# on a plaintext format with its warning, an account's code and the Google
# Authenticator transfer.
shot import-preview import-preview --demo
shot export export --demo
shot qr qr --demo
shot qr-transfer qr-transfer --demo
# Sharing: an account sealed to the verified contact, ready to send; and a
# share from that contact opened, a duplicate marked.
shot share share --demo
shot receive receive --demo
shot unlock unlock --demo
shot first-run first-run --vault vault.wwv
shot recovery-phrase recovery --vault vault.wwv
shot recovery-confirm recovery-confirm --vault vault.wwv

# The same daily pages in the dark theme (the setting, as a user sets it).
mkdir -p "$work/config/Watchword"
printf '[appearance]\ntheme=dark\n' >"$work/config/Watchword/Watchword.conf"
shot codes-dark codes --demo
shot add-account-dark add --demo
shot notes-dark notes --demo
shot settings-dark settings --demo
SHOT_SIZE=900x1500 shot diagnostics-run-dark diagnostics --demo \
  --diagnostics-run '^(totp/|ref/openssl_hmac_oneshot_totp|shared_secret_key/|ref/secp256k1)'
SHOT_SIZE=1440x1000 shot watch-fenix7-dark watch-fenix7 --demo
shot import-preview-dark import-preview --demo
shot export-dark export --demo
shot receive-dark receive --demo
shot unlock-dark unlock --demo
shot first-run-dark first-run --vault vault.wwv

if [[ -e "$work/vault.wwv" ]]; then
  echo "screenshots: a vault was created, which no screenshot should do" >&2
  failed=1
fi
exit "$failed"
