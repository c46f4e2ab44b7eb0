#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and checks what a distribution would ship:
# exactly the expected files, binaries that run from the prefix, a valid desktop entry, valid
# AppStream metadata, and that the three agree with each other (ids, icon, binaries, version).
# Usage: check_install.sh CMAKE BUILD_DIR PROJECT_VERSION
set -euo pipefail

cmake_bin=$1 build=$2 version=$3
app_id=io.github.nb2lite.Studio
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

for tool in desktop-file-validate appstreamcli; do
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
expected=(
    bin/nb2lite
    bin/nb2lite-fakeapi
    bin/nb2lite-studio
    share/applications/$app_id.desktop
    share/bash-completion/completions/nb2lite
    share/doc/nb2lite-studio/README.md
    share/icons/hicolor/scalable/apps/$app_id.svg
    share/metainfo/$app_id.metainfo.xml
    share/zsh/vendor-completions/_nb2lite
)
actual=$(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
wanted=$(printf '%s\n' "${expected[@]}" | LC_ALL=C sort)
if [[ "$actual" != "$wanted" ]]; then
    err "installed files differ from the expected list (< expected, > installed):"
    diff <(echo "$wanted") <(echo "$actual") >&2 || true
fi

# The binaries run from the prefix, without the build tree, and report the project version.
for b in nb2lite nb2lite-fakeapi nb2lite-studio; do
    exe=$prefix/bin/$b
    [[ -x "$exe" ]] || { err "$exe missing or not executable"; continue; }
    out=$(cd "$tmp" && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$tmp" HOME="$tmp" \
          timeout 10 "$exe" --version 2>/dev/null) || err "$b --version exited with $?"
    [[ "$out" == *"$version"* ]] || err "$b --version printed '$out', expected it to contain $version"
    if readelf -d "$exe" 2>/dev/null | grep -qE 'R(UN)?PATH'; then
        err "$b was installed with a run path: $(readelf -d "$exe" | grep -E 'R(UN)?PATH')"
    fi
done

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
    [[ "$(key MimeType)" == *image/png* ]] || err "desktop MimeType does not list image/png"
fi

if [[ -f "$metainfo" ]]; then
    appstreamcli validate --no-net --strict "$metainfo" >"$tmp/as.log" 2>&1 \
        || { cat "$tmp/as.log" >&2; err "appstreamcli validate failed"; }
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

if (( fail )); then exit 1; fi
echo "packaging_install: ${#expected[@]} files installed and checked"
