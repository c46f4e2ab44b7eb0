#!/usr/bin/env bash
# Runs the CLI's offline demo path under valgrind's memcheck: generate -> edit -> edit with a
# branch -> export in every format -> open the bundle again, each step a separate nb2lite
# process with --leak-check=full. Any memcheck error or definite/possible leak fails
# (--error-exitcode=1). Uses ./build (or NB2_BUILD_DIR), building nb2lite first; everything is
# written to a temporary HOME that is removed afterwards. Suppressions, each with its reason,
# are in tests/sanitizers/valgrind.supp.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${NB2_BUILD_DIR:-$root/build}

NB2_EXTRA_PACKAGES="valgrind ${NB2_EXTRA_PACKAGES:-}" "$root/packaging/install-deps.sh"
if [[ -f "$build/build.ninja" ]]; then
    cmake --build "$build" -j "${NB2_JOBS:-2}" --target nb2lite
else
    NB2_BUILD_DIR="$build" "$root/packaging/build.sh"
fi
cli="$build/app/cli/nb2lite"

work=$(mktemp -d "${TMPDIR:-/tmp}/nb2valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
# No key from the caller's environment or home can reach the run: the demo needs none.
run_env=(env -u GEMINI_API_KEY -u GOOGLE_API_KEY -u DISPLAY HOME="$work/home"
         XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache"
         XDG_DATA_HOME="$work/home/.local/share" QT_QPA_PLATFORM=offscreen
         # QRegularExpression's PCRE2 JIT code reads strings 16 bytes at a time, past their end
         # but inside the allocation's granule: safe, but memcheck (which cannot see into JIT
         # code, "???" frames) reports it. The interpreter matches the same, without the noise.
         QT_ENABLE_REGEXP_JIT=0)
vg=(valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,possible
    --errors-for-leak-kinds=definite,possible --error-exitcode=1 --num-callers=40
    --suppressions="$root/tests/sanitizers/valgrind.supp" --gen-suppressions=all)

step=0
failed=0
run() {
    step=$((step + 1))
    local log="$work/valgrind-$step.log"
    printf '%-70s' "valgrind: nb2lite $*"
    if "${run_env[@]}" "${vg[@]}" --log-file="$log" "$cli" "$@" >"$work/out-$step.txt" 2>&1; then
        echo " ok ($(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' "$log"))"
    else
        failed=1
        echo " FAILED"
        sed 's/^/   | /' "$work/out-$step.txt" | tail -20
        grep -v '^==[0-9]*== *$' "$log" | sed 's/^/   | /' | tail -150
    fi
}

s="$work/session"
run --session "$s" --demo generate "a red fox in the snow" --aspect 4:3
run --session "$s" --demo edit head "add a lantern"
run --session "$s" --demo edit head "make it night"
# A branch from the first edit (ids from the session itself, outside valgrind).
first_edit=$("${run_env[@]}" "$cli" --session "$s" log --ids | sed -n 2p)
run --session "$s" --demo edit "$first_edit" "make it dawn" --branch
run --session "$s" log --all
run --session "$s" export --format html "$work/page"
run --session "$s" export --format html --single-file "$work/page.html"
run --session "$s" export --format bundle "$work/history.nb2session"
run --session "$s" export --format sheet "$work/sheet.png"
run --session "$s" export --format frames "$work/frames"
run --session "$work/opened" open-bundle "$work/history.nb2session"
if (( failed )); then
    echo "valgrind-cli: FAILED (logs above; suppressions belong in tests/sanitizers/valgrind.supp with a reason)" >&2
    exit 1
fi
echo "valgrind-cli: $step runs, no memcheck errors and no leaks"
