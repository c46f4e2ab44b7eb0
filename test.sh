#!/usr/bin/env bash
# Runs every test. Installs dependencies (Debian packages, the npm registry) and builds first.
#
#   ./test.sh [--quick] [CTEST ARGS ...]      e.g.  ./test.sh --quick -R session
#
# Two stages, both by default (this is what CI runs, through .ci/run):
#   1. build ./build and run every CTest test;
#   2. the deeper checks of packaging/ci-extra.sh, each in a build directory of its own: every
#      libFuzzer harness from its committed corpus, the unit tests under ASan + UBSan, valgrind
#      on the CLI's demo path.
# --quick (or NB2_QUICK=1) runs stage 1 only, for local use. Both stages always run; the exit
# status is non-zero if either failed (a failing fuzzer or sanitizer run names its input or test).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
quick=${NB2_QUICK:-0}
if [[ "${1:-}" == "--quick" ]]; then
    quick=1
    shift
fi
if [[ "$quick" != 1 ]]; then
    # Everything stage 2 needs, in the same single apt run as the rest (nothing installed by hand):
    # clang + libFuzzer + clang's sanitizer runtimes, llvm-symbolizer for readable stacks, valgrind.
    export NB2_EXTRA_PACKAGES="clang clang-14 libclang-rt-14-dev llvm-14 valgrind ${NB2_EXTRA_PACKAGES:-}"
fi
# ccache keys objects on paths relative to the checkout, so a clean clone in any folder reuses
# what an earlier build compiled (the compiler flags are part of the key: sanitizer and fuzz
# builds never share objects with the normal one).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
start=$SECONDS
"$root/packaging/build.sh"
build=${NB2_BUILD_DIR:-$root/build}
PATH="$("$root/packaging/ensure-node.sh"):$PATH"
export PATH
(cd "$root/tests/conformance" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$root/tests/mcp" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$root/bench/node" && npm ci --no-audit --no-fund --loglevel=error) # the benchmark's SDK side
status=0
(cd "$build" && ctest --output-on-failure -j "$(nproc)" "$@") || status=$?
echo "test.sh: stage 1 (build + ctest) $( ((status == 0)) && echo passed || echo FAILED) in $((SECONDS - start)) s"
if [[ "$quick" == 1 ]]; then
    exit $status
fi
extra_start=$SECONDS
extra=0
"$root/packaging/ci-extra.sh" || extra=$?
echo "test.sh: stage 2 (packaging/ci-extra.sh) $( ((extra == 0)) && echo passed || echo FAILED) in $((SECONDS - extra_start)) s"
echo "test.sh: total $((SECONDS - start)) s"
if ((status != 0)); then
    exit $status
fi
exit $extra
