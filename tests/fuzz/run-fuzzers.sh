#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan, ./build-fuzz) and runs each one for
# SECONDS (default 30) from its committed seed corpus in tests/fuzz/corpus/<name>/.
#
#   tests/fuzz/run-fuzzers.sh [SECONDS] [NAME ...]    e.g.  tests/fuzz/run-fuzzers.sh 300 bundle mcp
#
# The corpus is copied to a temporary folder first, so runs never write into the repository.
# A crash, leak, hang (one input > 10 s), UB report or violated property stops that fuzzer; its
# input is kept in build-fuzz/artifacts/<name>/ (add it to corpus/<name>/ once fixed) and the
# script exits 1 after the others have run. Environment: NB2_FUZZ_BUILD_DIR (default
# ./build-fuzz), NB2_JOBS (build jobs, default 2), NB2_FUZZ_KEEP=DIR keeps each grown corpus in
# DIR/<name> (to pick new seeds from; `fuzz_NAME -merge=1 NEW OLD` minimises).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${NB2_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-30}
[[ $# -gt 0 ]] && shift
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS] [NAME ...]" >&2; exit 2; }

# Inputs longer than this are not tried (each harness's seeds fit; bigger inputs only slow it down).
declare -A max_len=(
    [responseparser]=16384 [errorbody]=4096 [sseparser]=16384 [sessionload]=16384
    [bundle]=32768 [provenance]=16384 [mcp]=8192
)
# JSON readers get a dictionary of our field names and type-changing tokens.
declare -A dict=(
    [responseparser]=json [errorbody]=json [sseparser]=json [sessionload]=json [bundle]=json [mcp]=json
    [provenance]=json
)
names=("$@")
(( ${#names[@]} )) || names=(responseparser errorbody sseparser sessionload bundle provenance mcp)

# `clang` is the package with /usr/bin/clang; libFuzzer and clang's sanitizer runtimes are in
# libclang-rt-14-dev (only recommended, and install-deps installs no recommends); llvm-14 has
# the llvm-symbolizer that turns a finding's stack into function names and lines.
NB2_EXTRA_PACKAGES="clang clang-14 libclang-rt-14-dev llvm-14 ${NB2_EXTRA_PACKAGES:-}" "$root/packaging/install-deps.sh"
# The fuzz build is ~330 MiB, plus its objects in ccache (measured in a clean clone's ./test.sh).
"$root/packaging/disk-space.sh" "the fuzz build in $build" 330 "$build"
if [[ ! -f "$build/build.ninja" ]]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DNB2_FUZZ=ON -DBUILD_TESTING=OFF "${launcher[@]}" >/dev/null
fi
targets=()
for n in "${names[@]}"; do
    [[ -n "${max_len[$n]:-}" ]] || { echo "run-fuzzers: no fuzzer called '$n'" >&2; exit 2; }
    targets+=("fuzz_$n")
done
cmake --build "$build" -j "${NB2_JOBS:-2}" --target "${targets[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/nb2fuzz-run.XXXXXX")
# The harnesses' scratch files (sessions, bundles), in memory when possible; removed with the rest.
NB2_FUZZ_SCRATCH=$(mktemp -d /dev/shm/nb2fuzz-scratch.XXXXXX 2>/dev/null || mktemp -d "$work/scratch.XXXXXX")
export NB2_FUZZ_SCRATCH
trap 'rm -rf "$work" "$NB2_FUZZ_SCRATCH"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
[[ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]] && export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-14/bin/llvm-symbolizer}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export QT_QPA_PLATFORM=offscreen
failed=()
for n in "${names[@]}"; do
    mkdir -p "$work/$n/corpus" "$work/$n/artifacts"
    cp "$root/tests/fuzz/corpus/$n/"* "$work/$n/corpus/"
    echo "== fuzz_$n: ${seconds}s from $(ls "$work/$n/corpus" | wc -l) seeds"
    extra=()
    [[ -n "${dict[$n]:-}" ]] && extra+=(-dict="$root/tests/fuzz/${dict[$n]}.dict")
    if "$build/tests/fuzz/fuzz_$n" "$work/$n/corpus" "${extra[@]}" -max_total_time="$seconds" -max_len="${max_len[$n]}" \
        -timeout=10 -rss_limit_mb=2560 -artifact_prefix="$work/$n/artifacts/" -print_final_stats=1 \
        >"$work/$n/log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$work/$n/log" \
            | sed 's/^stat::/   /' | tr '\n' ' '
        echo
        grep -E '#[0-9]+ +DONE +cov' "$work/$n/log" | tail -1 | sed 's/^/   /' || true
    else
        failed+=("$n")
        rm -rf "${build:?}/artifacts/$n" # this run's finding only, not an older one's
        mkdir -p "$build/artifacts/$n"
        cp "$work/$n/artifacts/"* "$build/artifacts/$n/" 2>/dev/null || true
        cp "$work/$n/log" "$build/artifacts/$n/last.log"
        echo "   FAILED: fuzz_$n, log tail:"
        grep -vE '^#[0-9]+' "$work/$n/log" | tail -40 | sed 's/^/   | /'
        # Name the input that failed (crash-*, leak-*, timeout-*, oom-*; a copy outlives the run).
        found=0
        for input in "$build/artifacts/$n/"*; do
            [[ "$input" == */last.log ]] && continue
            found=1
            echo "   FAILING INPUT: $input ($(stat -c %s "$input") bytes)"
            echo "   reproduce: $build/tests/fuzz/fuzz_$n $input"
            # The bytes too (first 512), so a CI log alone is enough to rebuild the input.
            od -A x -t x1z -N 512 -v "$input" | sed 's/^/   | /'
        done
        ((found)) || echo "   FAILING INPUT: none written (see the log above: $build/artifacts/$n/last.log)"
    fi
    if [[ -n "${NB2_FUZZ_KEEP:-}" ]]; then
        mkdir -p "$NB2_FUZZ_KEEP/$n" && cp "$work/$n/corpus/"* "$NB2_FUZZ_KEEP/$n/"
    fi
    rm -rf "${work:?}/$n"
done
if (( ${#failed[@]} )); then
    echo "run-fuzzers: FAILED: ${failed[*]}; failing inputs in $build/artifacts/<name>/ (add each to" \
         "tests/fuzz/corpus/<name>/ once fixed)" >&2
    exit 1
fi
echo "run-fuzzers: all ${#names[@]} fuzzers ran ${seconds}s each without a finding"
