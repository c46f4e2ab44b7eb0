#!/usr/bin/env bash
# Builds the .deb with CPack into a temporary directory and checks its control data and
# contents: name, version, section, computed dependencies, stripped binaries, no run path.
# Usage: check_deb.sh CPACK BUILD_DIR PROJECT_VERSION
set -euo pipefail

cpack_bin=$1 build=$2 version=$3
app_id=io.github.nb2lite.Studio
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

command -v dpkg-deb >/dev/null || { echo "FAIL: dpkg-deb not found" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$cpack_bin" --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log" >&2
    echo "FAIL: cpack -G DEB failed" >&2
    exit 1
fi
deb=$tmp/out/nb2lite-studio_${version}_$(dpkg --print-architecture).deb
[[ -f "$deb" ]] || { ls -l "$tmp/out" >&2; echo "FAIL: $deb not produced" >&2; exit 1; }

field() { dpkg-deb -f "$deb" "$1"; }
[[ "$(field Package)" == nb2lite-studio ]] || err "Package: $(field Package)"
[[ "$(field Version)" == "$version" ]] || err "Version: $(field Version), expected $version"
[[ "$(field Section)" == graphics ]] || err "Section: $(field Section)"
[[ -n "$(field Maintainer)" ]] || err "no Maintainer"
depends=$(field Depends)
needed=(hicolor-icon-theme)
# Computed by dpkg-shlibdeps when it is present; otherwise the fallback list names them.
needed+=(libqt6widgets6 libqt6gui6 libqt6core6 libqt6svg6 libqt6keychain1 libssl3)
for d in "${needed[@]}"; do
    [[ "$depends" == *"$d"* ]] || err "Depends lacks $d: $depends"
done

contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | LC_ALL=C sort)
for f in ./usr/bin/nb2lite ./usr/bin/nb2lite-fakeapi ./usr/bin/nb2lite-studio \
         ./usr/share/applications/$app_id.desktop ./usr/share/metainfo/$app_id.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/$app_id.svg; do
    grep -qxF "$f" <<<"$contents" || err "$f missing from the .deb"
done

mkdir "$tmp/x"
dpkg-deb -x "$deb" "$tmp/x"
for b in nb2lite nb2lite-fakeapi nb2lite-studio; do
    exe=$tmp/x/usr/bin/$b
    [[ -f "$exe" ]] || continue
    if readelf -S "$exe" | grep -q '\.debug_info'; then err "$b is not stripped"; fi
    if readelf -d "$exe" | grep -qE 'R(UN)?PATH'; then err "$b has a run path"; fi
done

if (( fail )); then exit 1; fi
echo "packaging_deb: $(basename "$deb") ($(stat -c %s "$deb") bytes), Depends: $depends"
