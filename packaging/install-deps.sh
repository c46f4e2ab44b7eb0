#!/usr/bin/env bash
# Installs what NB2Lite Studio needs to build, run and test, from Debian 12's packages.
# Idempotent and quick when everything is already there (one dpkg query, no network).
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config ccache git
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-image-formats-plugins libgl-dev
    libcpp-httplib-dev nlohmann-json3-dev libssl-dev
    qtkeychain-qt6-dev libarchive-dev
    fonts-dejavu-core xvfb xauth
    nodejs npm
    chromium   # the HTML export test loads exported pages in headless chromium
    desktop-file-utils appstream   # the packaging test validates the desktop entry and metainfo
    zsh   # the completion test checks that nb2lite's zsh completion parses and loads
    qt6-l10n-tools qt6-tools-dev   # lupdate/lrelease and their CMake package (qt_add_translations)
    python3   # tests/i18n/check_tr.py: user-visible strings that bypass tr()
)
# Desktop integration (issue 9): man pages are made with help2man at build time; the
# installed-package test runs lintian, asks xdg-mime (which uses `mimetype` from
# libfile-mimeinfo-perl) for our bundle type, and checks the key store against a real
# Secret Service (gnome-keyring on a private D-Bus; QtKeychain loads libsecret at run time).
packages+=(
    help2man lintian xdg-utils libfile-mimeinfo-perl shared-mime-info man-db x11-utils file
    dbus dbus-daemon gnome-keyring libsecret-1-0 libsecret-tools
)
# Extra groups, asked for by the scripts that need them (e.g. the browser for export tests):
# tests/fuzz/run-fuzzers.sh asks for clang-14 libclang-rt-14-dev (libFuzzer, clang's ASan/UBSan
# runtimes), tests/sanitizers/valgrind-cli.sh for valgrind; gcc's sanitizer runtimes come with
# build-essential.
if [[ "${NB2_EXTRA_PACKAGES:-}" != "" ]]; then
    read -r -a extra <<<"${NB2_EXTRA_PACKAGES}"
    packages+=("${extra[@]}")
fi

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
# A machine may already have a newer Node.js from elsewhere; that one is fine.
if command -v node >/dev/null && command -v npm >/dev/null; then
    filtered=()
    for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
    missing=("${filtered[@]+"${filtered[@]}"}")
fi

if (( ${#missing[@]} == 0 )); then
    exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
