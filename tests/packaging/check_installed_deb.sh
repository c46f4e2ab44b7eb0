#!/usr/bin/env bash
# The installed-package test: builds the .deb, installs it on this machine with apt-get, uses
# it as a user would, then removes and purges it and checks that nothing is left behind.
# Needs root or passwordless sudo; otherwise it is skipped (exit 77, CTest's SKIP_RETURN_CODE).
#
# Usage: check_installed_deb.sh CPACK BUILD_DIR PROJECT_VERSION SCREEN_STATS_TOOL
#
# It must never leave the package installed: a trap purges it (and any dependency the install
# pulled in) on every exit, and a package left by an earlier, killed run is purged first.
# Runs are serialised with a lock file, so two worktrees' test runs cannot interleave.
set -euo pipefail

cpack_bin=$1 build=$2 version=$3 screen_stats=$4
cmake_bin=$(dirname "$cpack_bin")/cmake
pkg=nb2lite-studio
app_id=io.github.nb2lite.Studio
skip=77

if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "SKIPPED: the installed-package test needs root or passwordless sudo (it runs apt-get install)."
    exit $skip
fi
for tool in apt-get dpkg-query xdg-mime man Xvfb xwininfo; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found; run packaging/install-deps.sh" >&2; exit 1; }
done

fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
step() { echo "-- $*"; }

tmp=$(mktemp -d)
chmod 755 "$tmp" # apt's sandbox user (_apt) must be able to read the .deb
installed_by_us=0
xvfb_pid="" studio_pid=""
added_packages=()

run_apt() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 "$@"
}
# apt-get cannot name a package that came from a local .deb once it is removed (no archive
# knows it), so a removed one's leftover configuration is purged with dpkg itself.
purge_package() {
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q ' installed$'; then
        run_apt purge "$pkg" "${added_packages[@]}"
    elif dpkg-query -W "$pkg" >/dev/null 2>&1; then
        "${as_root[@]}" dpkg --purge "$pkg" && if (( ${#added_packages[@]} )); then run_apt purge "${added_packages[@]}"; fi
    elif (( ${#added_packages[@]} )); then
        run_apt purge "${added_packages[@]}"
    fi
}
# Everything this test may have put on the machine goes, whatever happened before.
cleanup() {
    local rc=$?
    set +e # a failing kill must not stop the purge
    if [[ -n "$studio_pid" ]]; then kill "$studio_pid" 2>/dev/null; wait "$studio_pid" 2>/dev/null; fi
    if [[ -n "$xvfb_pid" ]]; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
    if (( installed_by_us )) || dpkg-query -W "$pkg" >/dev/null 2>&1; then
        purge_package >"$tmp/cleanup.log" 2>&1 \
            || { cat "$tmp/cleanup.log" >&2; echo "FAIL: could not purge $pkg; remove it by hand" >&2; rc=1; }
    fi
    rm -rf "$tmp"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One run at a time on this machine (another worktree may run the same test).
lock=/tmp/nb2lite-installed-package-test.lock
exec 9>>"$lock"
if ! flock -w 1200 9; then
    echo "FAIL: another installed-package test held $lock for 20 minutes" >&2
    exit 1
fi

if dpkg-query -W "$pkg" >/dev/null 2>&1; then
    step "$pkg $(dpkg-query -W -f='${Version} (${Status})' "$pkg") is on the machine already (left by an interrupted run?): purging it first"
    purge_package >"$tmp/pre-purge.log" 2>&1 || { cat "$tmp/pre-purge.log" >&2; echo "FAIL: cannot purge the old $pkg" >&2; exit 1; }
fi

step "building the .deb"
"$cpack_bin" --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1 \
    || { cat "$tmp/cpack.log" >&2; echo "FAIL: cpack -G DEB failed" >&2; exit 1; }
deb=$tmp/out/${pkg}_${version}_$(dpkg --print-architecture).deb
[[ -f "$deb" ]] || { ls -l "$tmp/out" >&2; echo "FAIL: $deb not produced" >&2; exit 1; }
chmod 644 "$deb"

# What "nothing left behind" is measured against: the files under every folder the package
# writes to (or whose caches its triggers rebuild), and the installed packages.
watched=(/usr/bin /usr/share/applications /usr/share/metainfo /usr/share/icons/hicolor /usr/share/mime
         /usr/share/thumbnailers /usr/share/man/man1 /usr/share/doc /usr/share/bash-completion
         /usr/share/zsh /usr/share/lintian /etc /var/lib/dpkg/info)
snapshot() { find "${watched[@]}" \( -type f -o -type l \) 2>/dev/null | LC_ALL=C sort; }
packages() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' | LC_ALL=C sort; }
snapshot >"$tmp/files-before"
packages >"$tmp/packages-before"

step "apt-get install ./$(basename "$deb")"
installed_by_us=1
# Without Recommends: the test must not pull optional packages onto the machine.
run_apt install --no-install-recommends "$deb" >"$tmp/install.log" 2>&1 \
    || { cat "$tmp/install.log" >&2; echo "FAIL: apt-get install failed" >&2; exit 1; }
packages >"$tmp/packages-installed"
mapfile -t added_packages < <(LC_ALL=C comm -13 "$tmp/packages-before" "$tmp/packages-installed" | grep -vx "$pkg" || true)
(( ${#added_packages[@]} == 0 )) || step "the install also pulled in: ${added_packages[*]} (removed again at the end)"
dpkg-query -L "$pkg" | LC_ALL=C sort >"$tmp/owned"

# ---- as a user would, in a fresh home -----------------------------------------------------
home=$tmp/home
mkdir -p "$home" "$tmp/run"
chmod 700 "$tmp/run"
user_env=(env -u GEMINI_API_KEY -u DBUS_SESSION_BUS_ADDRESS -u GOOGLE_API_KEY -u GOOGLE_GEMINI_BASE_URL -u IMAGE_OUTPUT_DIR
          HOME="$home" XDG_RUNTIME_DIR="$tmp/run" XDG_CONFIG_HOME="$home/.config"
          XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" PATH=/usr/bin:/bin)

step "nb2lite --version"
[[ "$(command -v nb2lite)" == /usr/bin/nb2lite ]] || err "nb2lite on PATH is $(command -v nb2lite), not /usr/bin/nb2lite"
out=$("${user_env[@]}" nb2lite --version 2>&1) || err "nb2lite --version exited with $?"
[[ "$out" == *"$version"* ]] || err "nb2lite --version printed '$out'"

step "nb2lite --demo generate \"x\" --out DIR"
outdir=$tmp/generated
mkdir "$outdir"
[[ -z "$(ls -A "$outdir")" ]] || err "$outdir is not empty before the run"
(cd "$tmp" && "${user_env[@]}" timeout 60 nb2lite --demo generate "x" --out "$outdir" >"$tmp/generate.log" 2>&1) \
    || { cat "$tmp/generate.log" >&2; err "nb2lite --demo generate failed"; }
mapfile -t made < <(find "$outdir" -type f)
if (( ${#made[@]} != 1 )); then
    err "expected one image in $outdir, found ${#made[@]}: ${made[*]}"
else
    type=$(file --brief --mime-type "${made[0]}")
    [[ "$type" == image/* ]] || err "${made[0]} is $type, not an image"
fi

step "man -w"
for page in nb2lite nb2lite-studio nb2lite-fakeapi nb2lite-thumbnailer; do
    where=$("${user_env[@]}" man -w "$page" 2>/dev/null) || { err "man -w $page finds no page"; continue; }
    [[ "$where" == /usr/share/man/man1/$page.1.gz ]] || err "man -w $page gave $where"
done

step "the bundle type: xdg-mime query filetype"
session=$tmp/session
(cd "$tmp" && "${user_env[@]}" timeout 60 nb2lite --demo --session "$session" generate "a lighthouse" >"$tmp/session.log" 2>&1 \
    && "${user_env[@]}" timeout 60 nb2lite --session "$session" export --format bundle "$tmp/some.nb2session" >>"$tmp/session.log" 2>&1) \
    || { cat "$tmp/session.log" >&2; err "could not make a bundle with the installed nb2lite"; }
if [[ -f "$tmp/some.nb2session" ]]; then
    type=$("${user_env[@]}" xdg-mime query filetype "$tmp/some.nb2session" 2>&1)
    [[ "$type" == application/x-nb2session ]] || err "xdg-mime query filetype some.nb2session gave '$type'"
    # Recognised by its content too (renamed, no extension), and a plain zip is not ours.
    cp "$tmp/some.nb2session" "$tmp/renamed-bundle"
    type=$("${user_env[@]}" xdg-mime query filetype "$tmp/renamed-bundle" 2>&1)
    [[ "$type" == application/x-nb2session ]] || err "a bundle without its extension is '$type' (the zip magic did not match)"
    mkdir -p "$tmp/zipme" && echo x >"$tmp/zipme/manifest.txt"
    (cd "$tmp/zipme" && "$cmake_bin" -E tar cf "$tmp/plain" --format=zip manifest.txt)
    type=$("${user_env[@]}" xdg-mime query filetype "$tmp/plain" 2>&1)
    [[ "$type" == application/zip ]] || err "a plain zip is '$type', expected application/zip"

    step "the thumbnailer, run the way its .thumbnailer entry says"
    entry=/usr/share/thumbnailers/$app_id.thumbnailer
    if [[ ! -f "$entry" ]]; then
        err "$entry is not installed"
    else
        grep -qx 'MimeType=application/x-nb2session;' "$entry" || err "$entry does not name application/x-nb2session"
        exec_line=$(sed -n 's/^Exec=//p' "$entry")
        exec_line=${exec_line//%i/$tmp/some.nb2session}
        exec_line=${exec_line//%o/$tmp/thumb.png}
        exec_line=${exec_line//%s/128}
        read -r -a argv <<<"$exec_line"
        [[ "$(command -v "${argv[0]}")" == /usr/bin/* ]] || err "the thumbnailer ${argv[0]} is not installed in /usr/bin"
        "${user_env[@]}" timeout 30 "${argv[@]}" 2>"$tmp/thumb.log" || { cat "$tmp/thumb.log" >&2; err "the thumbnailer failed"; }
        if [[ -f "$tmp/thumb.png" ]]; then
            size=$(file --brief "$tmp/thumb.png")
            [[ "$size" == "PNG image data, 128 x "* || "$size" == "PNG image data, "*" x 128,"* ]] \
                || err "the thumbnail is not a 128-pixel PNG: $size"
        else
            err "the thumbnailer wrote no file"
        fi
    fi
fi

step "icons, menu entry and file associations"
for size in 16 22 24 32 48 64 128 256; do
    icon=/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png
    [[ -f "$icon" ]] || { err "$icon is not installed"; continue; }
    [[ "$(file --brief "$icon")" == "PNG image data, $size x $size,"* ]] || err "$icon: $(file --brief "$icon")"
done
[[ -f /usr/share/icons/hicolor/scalable/apps/$app_id.svg ]] || err "the scalable icon is not installed"
# The triggers of hicolor-icon-theme / desktop-file-utils rebuilt their caches with us in them.
cache=/usr/share/icons/hicolor/icon-theme.cache
[[ ! -f "$cache" ]] || grep -qa "$app_id" "$cache" || err "$cache does not list $app_id (icon cache trigger did not run)"
mimecache=/usr/share/applications/mimeinfo.cache
[[ ! -f "$mimecache" ]] || grep -q "^application/x-nb2session=.*$app_id.desktop" "$mimecache" \
    || err "$mimecache does not associate application/x-nb2session with $app_id.desktop"

step "nb2lite-studio under Xvfb"
exec 8>"$tmp/display"
Xvfb -displayfd 8 -screen 0 1280x800x24 -br -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 8>&-
for _ in $(seq 100); do [[ -s "$tmp/display" ]] && break; sleep 0.1; done
display=:$(head -n1 "$tmp/display")
[[ "$display" != ":" ]] || { cat "$tmp/xvfb.log" >&2; err "Xvfb did not start"; }
if [[ "$display" != ":" ]]; then
    "${user_env[@]}" DISPLAY="$display" QT_QPA_PLATFORM=xcb nb2lite-studio >"$tmp/studio.log" 2>&1 &
    studio_pid=$!
    shown=0
    for _ in $(seq 120); do
        # A mapped (viewable) top-level window whose title names the app.
        for id in $(DISPLAY="$display" xwininfo -root -tree 2>/dev/null | awk '/"[^"]*NB2Lite Studio[^"]*"/ {print $1}'); do
            if DISPLAY="$display" xwininfo -id "$id" 2>/dev/null | grep -q 'Map State: IsViewable'; then shown=1; fi
        done
        if (( shown )); then break; fi
        kill -0 "$studio_pid" 2>/dev/null || break
        sleep 0.5
    done
    if (( !shown )); then
        cat "$tmp/studio.log" >&2
        err "no NB2Lite Studio window appeared within 60 s"
    else
        sleep 3 # let it paint (the demo backend starts, the timeline lays out)
        shot=${NB2_INSTALLED_SCREENSHOT:-$tmp/installed-studio.png}
        stats=$("${user_env[@]}" DISPLAY="$display" QT_QPA_PLATFORM=xcb "$screen_stats" "$shot" 2>&1) || err "screen grab failed: $stats"
        echo "   screenshot: $stats"
        stddev=$(sed -n 's/.*stddev=\([0-9.]*\).*/\1/p' <<<"$stats")
        colors=$(sed -n 's/.*colors=\([0-9]*\).*/\1/p' <<<"$stats")
        # A black screen has stddev 0 and one colour; a drawn window has text, icons and a frame.
        awk -v s="${stddev:-0}" -v c="${colors:-0}" 'BEGIN { exit !(s > 10 && c > 50) }' \
            || err "the screen looks blank (stddev=${stddev:-?}, colours=${colors:-?})"
    fi
    kill "$studio_pid" 2>/dev/null || true
    wait "$studio_pid" 2>/dev/null || true
    studio_pid=""
fi
kill "$xvfb_pid" 2>/dev/null || true
wait "$xvfb_pid" 2>/dev/null || true
xvfb_pid=""

# ---- remove, purge, and compare -----------------------------------------------------------
step "apt-get remove, then purge"
run_apt remove "$pkg" >"$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log" >&2; err "apt-get remove failed"; }
while read -r f; do
    if [[ -f "$f" ]]; then err "after apt-get remove, $f is still there"; fi
done <"$tmp/owned"
purge_package >"$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log" >&2; err "purging $pkg failed"; }
installed_by_us=0
if dpkg-query -W "$pkg" >/dev/null 2>&1; then err "dpkg still knows $pkg after purge"; fi

snapshot >"$tmp/files-after"
packages >"$tmp/packages-after"
# Another process (a second worktree's install-deps.sh) may install packages meanwhile: what
# changed and belongs to some other package is theirs, not ours.
while read -r f; do
    owner=$(dpkg-query -S "$f" 2>/dev/null | cut -d: -f1 || true)
    if [[ -n "$owner" && "$owner" != "$pkg" ]]; then continue; fi
    err "left behind after purge: $f"
done < <(LC_ALL=C comm -13 "$tmp/files-before" "$tmp/files-after")
while read -r f; do
    owner=$(dpkg-query -S "$f" 2>/dev/null | cut -d: -f1 || true)
    if [[ -n "$owner" || "$f" == /var/lib/dpkg/info/* ]]; then continue; fi # someone else's package change
    err "gone after the round trip although it was there before: $f"
done < <(LC_ALL=C comm -23 "$tmp/files-before" "$tmp/files-after")
left=$(LC_ALL=C comm -13 "$tmp/packages-before" "$tmp/packages-after" | tr '\n' ' ')
if [[ -n "${left// }" ]]; then err "packages left installed: $left"; fi
type=$("${user_env[@]}" xdg-mime query filetype "$tmp/renamed-bundle" 2>/dev/null || true)
[[ "$type" != application/x-nb2session ]] || err "the MIME database still knows application/x-nb2session after purge"
[[ ! -f "$mimecache" ]] || ! grep -q "$app_id" "$mimecache" || err "$mimecache still names $app_id after purge"

if (( fail )); then exit 1; fi
echo "packaging_installed: installed, used and purged $(basename "$deb"); nothing left behind"
