#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and checks what a distribution would ship:
# exactly the expected files, binaries that run from the prefix, a valid desktop entry, valid
# AppStream metadata, and that the three agree with each other (ids, icon, binaries, version).
# Usage: check_install.sh CMAKE BUILD_DIR PROJECT_VERSION SOURCE_DIR
set -euo pipefail

cmake_bin=$1 build=$2 version=$3 source_dir=$4
app_id=io.github.nb2lite.Studio
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

for tool in desktop-file-validate appstreamcli update-mime-database mimetype man col file; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found; run packaging/install-deps.sh" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

if ! "$cmake_bin" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log" >&2
    echo "FAIL: cmake --install failed (are all three apps built?)" >&2
    exit 1
fi

# The complete list: a stray install rule (a test binary, a static library, a header) fails
# here. If you add something meant to ship, add it to this list.
programs=(nb2lite nb2lite-fakeapi nb2lite-studio nb2lite-thumbnailer)
icon_sizes=(16 22 24 32 48 64 128 256)
expected=(
    share/applications/$app_id.desktop
    share/bash-completion/completions/nb2lite
    share/doc/nb2lite-studio/README.md
    share/doc/nb2lite-studio/changelog.gz
    share/doc/nb2lite-studio/copyright
    share/icons/hicolor/scalable/apps/$app_id.svg
    share/metainfo/$app_id.metainfo.xml
    share/mime/packages/$app_id.xml
    share/thumbnailers/$app_id.thumbnailer
    share/zsh/vendor-completions/_nb2lite
    share/nb2lite-studio/skills/nb2lite-image/SKILL.md
    lib/nb2lite-studio/modules/libnb2net.so
)
for p in "${programs[@]}"; do expected+=(bin/$p share/man/man1/$p.1.gz); done
for size in "${icon_sizes[@]}"; do expected+=(share/icons/hicolor/${size}x${size}/apps/$app_id.png); done
actual=$(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
wanted=$(printf '%s\n' "${expected[@]}" | LC_ALL=C sort)
if [[ "$actual" != "$wanted" ]]; then
    err "installed files differ from the expected list (< expected, > installed):"
    diff <(echo "$wanted") <(echo "$actual") >&2 || true
fi

# The binaries run from the prefix, without the build tree, and report the project version.
for b in "${programs[@]}"; do
    exe=$prefix/bin/$b
    [[ -x "$exe" ]] || { err "$exe missing or not executable"; continue; }
    out=$(cd "$tmp" && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$tmp" HOME="$tmp" \
          timeout 10 "$exe" --version 2>/dev/null) || err "$b --version exited with $?"
    [[ "$out" == *"$version"* ]] || err "$b --version printed '$out', expected it to contain $version"
    if readelf -d "$exe" 2>/dev/null | grep -qE 'R(UN)?PATH'; then
        err "$b was installed with a run path: $(readelf -d "$exe" | grep -E 'R(UN)?PATH')"
    fi
done

# The installed studio finds its HTTP module (lib/nb2lite-studio/modules/libnb2net.so) after its first
# frame: its demo backend starts and the session opens with it.
out=$(cd "$tmp" && env -u GEMINI_API_KEY -u GOOGLE_API_KEY -u DBUS_SESSION_BUS_ADDRESS \
      QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$tmp" HOME="$tmp" XDG_CONFIG_HOME="$tmp/.config" NB2_BENCH_FIRST_PAINT=2 \
      timeout 30 "$prefix/bin/nb2lite-studio" --demo "$tmp/session" 2>&1) || err "the installed nb2lite-studio --demo exited with $?: $out"
[[ "$out" == *"session_backend http://127.0.0.1:"* ]] || err "the installed nb2lite-studio did not start its demo backend (libnb2net.so not found?): $out"

desktop=$prefix/share/applications/$app_id.desktop
metainfo=$prefix/share/metainfo/$app_id.metainfo.xml
icon=$prefix/share/icons/hicolor/scalable/apps/$app_id.svg

if [[ -f "$desktop" ]]; then
    # desktop-file-validate exits 0 on hints; any error or warning line is a failure.
    report=$(desktop-file-validate "$desktop" 2>&1) || err "desktop-file-validate failed"
    [[ -z "$report" ]] || { echo "$report" >&2; err "desktop-file-validate reported problems"; }
    key() { sed -n "s/^$1=//p" "$desktop" | head -n1; }
    exec_bin=$(key Exec | awk '{print $1}')
    [[ -x "$prefix/bin/$exec_bin" ]] || err "desktop Exec=$exec_bin is not an installed binary"
    [[ "$(key Icon)" == "$app_id" ]] || err "desktop Icon=$(key Icon), expected $app_id"
    [[ "$(key Name)" == "NB2Lite Studio" ]] || err "desktop Name=$(key Name)"
    for type in image/png image/jpeg application/x-nb2session; do
        [[ "$(key MimeType)" == *"$type;"* ]] || err "desktop MimeType does not list $type"
    done
fi

if [[ -f "$metainfo" ]]; then
    appstreamcli validate --no-net --strict "$metainfo" >"$tmp/as.log" 2>&1 \
        || { cat "$tmp/as.log" >&2; err "appstreamcli validate failed"; }
    # Pedantic too: the only note allowed is the one the metainfo file explains in a comment.
    appstreamcli validate --no-net --pedantic "$metainfo" >"$tmp/asp.log" 2>&1 || true
    if grep -E '^[EWIP]: ' "$tmp/asp.log" | grep -v 'cid-contains-uppercase-letter' | grep -q .; then
        cat "$tmp/asp.log" >&2
        err "appstreamcli validate --pedantic reports something new"
    fi
    grep -q "<mediatype>application/x-nb2session</mediatype>" "$metainfo" || err "metainfo does not provide the bundle MIME type"
    for shot in $(sed -n 's|.*<image[^>]*>https://[^<]*/docs/screenshots/\([^<]*\)</image>.*|\1|p' "$metainfo"); do
        [[ -f "$source_dir/docs/screenshots/$shot" ]] || err "metainfo screenshot $shot is not in docs/screenshots/"
    done
    # The tree check also ties the metainfo to the installed desktop entry (launchable).
    appstreamcli validate-tree --no-net --strict "$prefix" >"$tmp/astree.log" 2>&1 \
        || { cat "$tmp/astree.log" >&2; err "appstreamcli validate-tree failed"; }
    grep -q "<id>$app_id</id>" "$metainfo" || err "metainfo id is not $app_id"
    grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" \
        || err "metainfo launchable is not $app_id.desktop"
    grep -q "<release version=\"$version\"" "$metainfo" \
        || err "metainfo has no release for the project version $version"
    for b in $(sed -n 's|.*<binary>\(.*\)</binary>.*|\1|p' "$metainfo"); do
        [[ -x "$prefix/bin/$b" ]] || err "metainfo provides binary $b, which is not installed"
    done
fi

if [[ -f "$icon" ]]; then
    grep -q '<svg' "$icon" || err "$icon is not an SVG"
fi
for size in "${icon_sizes[@]}"; do
    png=$prefix/share/icons/hicolor/${size}x${size}/apps/$app_id.png
    [[ ! -f "$png" ]] || [[ "$(file --brief "$png")" == "PNG image data, $size x $size, 8-bit/color RGBA"* ]] \
        || err "$png is not a $size x $size RGBA PNG: $(file --brief "$png")"
done

# The MIME type, in a private MIME database: by name, and by content (a zip whose first entry
# is manifest.json) with no name to go by; a zip that is not a bundle stays application/zip.
mimexml=$prefix/share/mime/packages/$app_id.xml
if [[ -f "$mimexml" ]]; then
    mkdir -p "$tmp/mimedb/mime/packages" "$tmp/zip"
    cp /usr/share/mime/packages/freedesktop.org.xml "$mimexml" "$tmp/mimedb/mime/packages/"
    update-mime-database "$tmp/mimedb/mime" >"$tmp/mime.log" 2>&1 || { cat "$tmp/mime.log" >&2; err "update-mime-database rejects $mimexml"; }
    (cd "$tmp/zip" && echo '{}' >manifest.json && mkdir images && echo x >images/a.png && echo y >other.json \
        && "$cmake_bin" -E tar cf ../bundle-by-content --format=zip manifest.json images/a.png \
        && "$cmake_bin" -E tar cf ../other-zip --format=zip other.json manifest.json)
    : >"$tmp/empty.nb2session"
    mime() { XDG_DATA_HOME="$tmp/mimedb" XDG_DATA_DIRS="$tmp/mimedb" mimetype --brief "$1" 2>&1; }
    [[ "$(mime "$tmp/empty.nb2session")" == application/x-nb2session ]] || err "*.nb2session is $(mime "$tmp/empty.nb2session")"
    [[ "$(mime "$tmp/bundle-by-content")" == application/x-nb2session ]] || err "a bundle without a name is $(mime "$tmp/bundle-by-content")"
    [[ "$(mime "$tmp/other-zip")" == application/zip ]] || err "another zip is $(mime "$tmp/other-zip")"
fi

thumbnailer=$prefix/share/thumbnailers/$app_id.thumbnailer
if [[ -f "$thumbnailer" ]]; then
    grep -qx '\[Thumbnailer Entry\]' "$thumbnailer" || err "$thumbnailer has no [Thumbnailer Entry] group"
    grep -qx 'TryExec=nb2lite-thumbnailer' "$thumbnailer" || err "$thumbnailer: TryExec is not nb2lite-thumbnailer"
    grep -qx 'Exec=nb2lite-thumbnailer %i %o %s' "$thumbnailer" || err "$thumbnailer: unexpected Exec line"
    grep -qx 'MimeType=application/x-nb2session;' "$thumbnailer" || err "$thumbnailer: MimeType is not application/x-nb2session"
fi

# Man pages: render without a groff warning, and say what --help says (they are made from it).
for p in "${programs[@]}"; do
    page=$prefix/share/man/man1/$p.1.gz
    [[ -f "$page" ]] || continue
    # As lintian checks them; like lintian, a line troff cannot justify (a long word) is not a fault.
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$page" 2>&1 >/dev/null \
               | grep -v -e 'cannot adjust line' -e "can't break line" || true)
    [[ -z "$warnings" ]] || { echo "$warnings" >&2; err "$page renders with warnings"; }
    text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)
    grep -q "^NAME" <<<"$text" && grep -q "$p - " <<<"$text" || err "$page has no proper NAME section"
    grep -q -- "--version" <<<"$text" || err "$page does not document --version"
done

changelog=$prefix/share/doc/nb2lite-studio/changelog.gz
if [[ -f "$changelog" ]]; then
    first=$(zcat "$changelog" | head -n1)
    [[ "$first" == "nb2lite-studio ($version) "* ]] || err "the newest changelog entry is '$first', not version $version"
fi

if (( fail )); then exit 1; fi
echo "packaging_install: ${#expected[@]} files installed and checked"
