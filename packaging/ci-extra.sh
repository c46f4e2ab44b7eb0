#!/usr/bin/env bash
# The CI's extra checks (issue 11), after ./test.sh: every libFuzzer harness for 20 s from its
# committed corpus (tests/fuzz/run-fuzzers.sh), the unit tests built and run under ASan + UBSan
# (tests/sanitizers/run-sanitized-tests.sh) and valgrind over the CLI's demo path
# (tests/sanitizers/valgrind-cli.sh). Each part builds only what it needs in its own build
# directory (build-fuzz, build-asan; valgrind uses ./build), with ccache. All parts run even
# when one fails; the exit status is 1 if any did. Prints each part's time.
#   NB2_FUZZ_SECONDS  seconds per fuzzer (default 20)
#   NB2_JOBS          build jobs (default 2)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz_seconds=${NB2_FUZZ_SECONDS:-20}

status=0
summary=()
part() {
    local name=$1
    shift
    local start=$SECONDS
    echo "ci-extra: == $name"
    if "$@"; then
        summary+=("$name: passed in $((SECONDS - start)) s")
    else
        summary+=("$name: FAILED after $((SECONDS - start)) s")
        status=1
    fi
}

part "fuzzers (${fuzz_seconds} s each)" "$root/tests/fuzz/run-fuzzers.sh" "$fuzz_seconds"
part "unit tests under ASan+UBSan" "$root/tests/sanitizers/run-sanitized-tests.sh"
part "valgrind on the CLI demo path" "$root/tests/sanitizers/valgrind-cli.sh"

printf 'ci-extra: %s\n' "${summary[@]}"
echo "ci-extra: total ${SECONDS} s"
exit $status
