#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer in ./build-asan
# (-DNB2_SANITIZE=ON, gcc; clang works too: CC=clang CXX=clang++) and runs the unit tests there.
#
#   tests/sanitizers/run-sanitized-tests.sh [CTEST ARGS ...]      e.g.  ... -R session
#
# Every test and every program a test starts (nb2lite, nb2lite-fakeapi, ...) runs instrumented,
# with leak detection on: any sanitizer report fails the test. Suppressions, each with its
# reason, are in tests/sanitizers/lsan.supp and ubsan.supp. Left out, because they cannot work
# here or test nothing the sanitizers could see:
#   - label "packaging" (packaging_install, packaging_deb, packaging_installed): they package and
#     install the build; an instrumented build is not something to package, and the installed
#     one needs root and the system's libasan at run time;
#   - conformance_sdk, mcp_sdk_client: they need the npm SDKs that ./test.sh installs and check
#     wire compatibility with Node.js programs; the same nb2lite code paths (CLI against the fake
#     server, `nb2lite mcp` on stdio) run instrumented in tst_cli, tst_exportcli and tst_mcpstdio.
# Environment: NB2_ASAN_BUILD_DIR (default ./build-asan), NB2_JOBS (default 2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${NB2_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${NB2_JOBS:-2}

"$root/packaging/install-deps.sh"
# The instrumented build is ~7320 MiB, plus its objects in ccache (measured in a clean clone's ./test.sh).
"$root/packaging/disk-space.sh" "the ASan + UBSan build in $build" 7320 "$build"
if [[ ! -f "$build/build.ninja" ]]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    # -O1 -g1: what the sanitizers recommend (readable stacks with line numbers), and
    # quicker to compile than -O2 -g; assertions stay on.
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DNB2_SANITIZE=ON "${launcher[@]}" >/dev/null
fi
# Build-time steps run instrumented programs (help2man on --help, icon rendering); they are not
# what is being checked, so leaks at their exit do not fail the build.
ASAN_OPTIONS=detect_leaks=0 cmake --build "$build" -j "$jobs"

supp="$root/tests/sanitizers"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:strict_init_order=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="suppressions=$supp/ubsan.supp:print_stacktrace=1:halt_on_error=1"
cd "$build"
if ctest -j "$jobs" --output-on-failure -LE packaging -E '^(conformance_sdk|mcp_sdk_client)$' "$@"; then
    exit 0
fi
# LeakSanitizer's leak check at exit stops every thread with a ptrace "tracer"; now and then
# that tracer itself crashes ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal
# error", google/sanitizers#1353), after every test function passed and before any leak was
# looked at. Only when that is the whole story of every failed test are they run once more;
# a failed test function, a leak or any other sanitizer report fails at once.
tracer_crash_only=1
while IFS=: read -r _ name; do
    output=$(awk -v name="$name" '
        $0 ~ "^[0-9]+/[0-9]+ Test: " name "$" { inside = 1 }
        inside { print }
        inside && /^"/ && / end time: / { inside = 0 }' Testing/Temporary/LastTest.log)
    if ! grep -q 'LeakSanitizer has encountered a fatal error' <<<"$output" \
        || grep -Eq '^FAIL!|ERROR: (Address|Leak)Sanitizer|runtime error:|Test timeout' <<<"$output"; then
        tracer_crash_only=0
        break
    fi
    echo "run-sanitized-tests: $name failed only because LeakSanitizer's tracer crashed at exit"
done <Testing/Temporary/LastTestsFailed.log
if [[ $tracer_crash_only == 0 ]]; then
    exit 1
fi
echo "run-sanitized-tests: running those once more"
ctest -j "$jobs" --output-on-failure --rerun-failed
