#!/usr/bin/env bash
# The one list of what Watchword needs from Debian 12, and the step that
# installs whatever of it is missing. Every other script calls this one.
#
#   scripts/deps.sh list      print the package names
#   scripts/deps.sh install   apt-get install the missing ones (root or sudo)
set -euo pipefail

packages=(
  # toolchain (clang-format keeps the house style: CI checks it; ccache lets a
  # fresh clone of the same sources, as CI makes, compile only what changed)
  g++ cmake ninja-build pkg-config clang-format ccache
  # crypto core; JSON for the watch's device profiles and payloads
  # (header-only, strict, exceptions we turn into errors that name the field)
  libssl-dev libsecp256k1-dev nlohmann-json3-dev
  # importers and exporters: other apps' Android SharedPreferences XML,
  # the Argon2id backups of Authenticator Pro, Proton and Ente, Ente's
  # XChaCha20-Poly1305 secretstream (libsodium), the SQLite databases of
  # Authenticator Pro and Google Authenticator; QR codes read (ZXing) and made
  # (libqrencode), and the PNG files the CLI reads them from; WinAuth's
  # password-encrypted ZIP exports (libzip: deflate, PKWARE and AES encryption)
  libpugixml-dev libargon2-dev libsodium-dev libsqlite3-dev libzxing-dev libqrencode-dev
  libpng-dev libzip-dev
  # Qt 6.4: core, QML, Quick Controls, tests
  qt6-base-dev qt6-base-dev-tools qt6-declarative-dev qt6-declarative-dev-tools
  qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-window
  qml6-module-qtquick-layouts qml6-module-qtquick-templates
  # the issuer icons: SVG paths drawn by Qt Quick Shapes
  qml6-module-qtquick-shapes
  qml6-module-qtqml-workerscript qml6-module-qttest libgl-dev
  # the file picker (qml/interop/FilePicker.qml) lists folders with Qt.labs.folderlistmodel
  qml6-module-qt-labs-folderlistmodel
  # the Diagnostics view's bar chart (Qt Charts' QML module)
  qml6-module-qtcharts
  # benchmarks
  libbenchmark-dev
  # tests: independent implementations (codes; a vault reader from docs/FORMAT.md)
  oathtool python3-pyotp python3-cryptography
  # tests: a real sync engine, two instances on loopback, for a vault edited
  # on two machines (tests/sync)
  syncthing
  # tests: a private D-Bus for the session-lock and suspend signals and the
  # desktop portal's file chooser (fakes of them on it)
  dbus-daemon
  # packaging (scripts/dev package): CPack's DEB generator finds the shared
  # libraries' packages with dpkg-shlibdeps, which needs file; tests check the
  # desktop file, the AppStream metainfo and the man pages as desktops, software
  # centres and man read them (groff from groff-base, man from man-db)
  dpkg-dev file desktop-file-utils appstream groff-base man-db
  # fuzzing: clang's libFuzzer and sanitizer runtimes
  clang libclang-rt-14-dev
)

missing() {
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

case "${1:-install}" in
  list)
    printf '%s\n' "${packages[@]}"
    ;;
  install)
    mapfile -t todo < <(missing)
    if [ "${#todo[@]}" -eq 0 ]; then
      exit 0
    fi
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${todo[*]}" >&2; exit 1; }
      sudo=(sudo)
    fi
    echo "deps: installing ${todo[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${todo[@]}" >/dev/null
    ;;
  *)
    echo "usage: scripts/deps.sh [list|install]" >&2
    exit 2
    ;;
esac
