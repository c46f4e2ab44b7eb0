#!/usr/bin/env bash
# Builds the .deb with CPack into a temporary directory and checks its control data and
# contents: name, version, section, computed dependencies, stripped binaries, no run path.
# Then lintian, Debian's package checker: no error may remain, and every warning is either fixed
# or explained by an override shipped in the package (packaging/debian/lintian-overrides).
# Usage: check_deb.sh CPACK BUILD_DIR PROJECT_VERSION SOURCE_DIR
set -euo pipefail

cpack_bin=$1 build=$2 version=$3 source_dir=$4
app_id=io.github.nb2lite.Studio
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

for tool in dpkg-deb lintian; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found; run packaging/install-deps.sh" >&2; exit 1; }
done

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
needed=(hicolor-icon-theme libarchive13) # libarchive: loaded on first use, so named by hand
# Computed by dpkg-shlibdeps when it is present; otherwise the fallback list names them.
needed+=(libqt6widgets6 libqt6gui6 libqt6core6 libqt6svg6 libqt6keychain1 libssl3)
for d in "${needed[@]}"; do
    [[ "$depends" == *"$d"* ]] || err "Depends lacks $d: $depends"
done

contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | LC_ALL=C sort)
for f in ./usr/bin/nb2lite ./usr/bin/nb2lite-fakeapi ./usr/bin/nb2lite-studio ./usr/bin/nb2lite-thumbnailer \
         ./usr/share/applications/$app_id.desktop ./usr/share/metainfo/$app_id.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/$app_id.svg ./usr/share/icons/hicolor/48x48/apps/$app_id.png \
         ./usr/share/mime/packages/$app_id.xml ./usr/share/thumbnailers/$app_id.thumbnailer \
         ./usr/share/man/man1/nb2lite.1.gz ./usr/share/man/man1/nb2lite-studio.1.gz \
         ./usr/share/doc/nb2lite-studio/copyright ./usr/share/doc/nb2lite-studio/changelog.gz \
         ./usr/lib/nb2lite-studio/modules/libnb2net.so; do
    grep -qxF "$f" <<<"$contents" || err "$f missing from the .deb"
done

mkdir "$tmp/x"
dpkg-deb -x "$deb" "$tmp/x"
# The studio's HTTP module is stripped and has no run path either.
for b in nb2lite nb2lite-fakeapi nb2lite-studio nb2lite-thumbnailer ../lib/nb2lite-studio/modules/libnb2net.so; do
    exe=$tmp/x/usr/bin/$b
    [[ -f "$exe" ]] || continue
    if readelf -S "$exe" | grep -q '\.debug_info'; then err "$b is not stripped"; fi
    if readelf -d "$exe" | grep -qE 'R(UN)?PATH'; then err "$b has a run path"; fi
done

recommends=$(field Recommends)
[[ "$recommends" == *libsecret-1-0* ]] || err "Recommends lacks libsecret-1-0 (QtKeychain's Secret Service backend): $recommends"

# lintian: errors fail; warnings must be fixed or carry an override with its reason.
lintian --no-cfg --display-info --tag-display-limit 0 "$deb" >"$tmp/lintian.log" 2>&1 || true
if grep -q '^E: ' "$tmp/lintian.log" || grep -q '^W: ' "$tmp/lintian.log"; then
    cat "$tmp/lintian.log" >&2
    err "lintian reports errors or warnings (fix them, or explain one in packaging/debian/lintian-overrides)"
fi
lintian_summary=$(grep -c '^[IPX]: ' "$tmp/lintian.log" || true)

if (( fail )); then exit 1; fi
echo "packaging_deb: lintian clean (errors 0, warnings 0, ${lintian_summary} info/pedantic notes)"
echo "packaging_deb: $(basename "$deb") ($(stat -c %s "$deb") bytes), Depends: $depends"
