#!/usr/bin/env bash
# packaging/disk-space.sh, the check the build and test scripts make before they write a build
# tree: passes with room, fails with a message that says how much is missing, and counts what
# the build folder already holds.
#   check_disk_space.sh SCRIPT
set -euo pipefail
script=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nb2diskspace.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
free_mib() { df -Pm "$work" | awk 'NR == 2 { print $4 }'; }

# Room: silent, status 0. A folder that does not exist yet is measured on its nearest parent.
out=$("$script" "a small build" 1 "$work/not/yet/build" 2>&1) || fail "1 MiB was refused: $out"
[[ -z "$out" ]] || fail "a passing check printed: $out"

# No room: status 1, naming what, where and how much (100 GB more than is free, so other tests
# writing or deleting meanwhile cannot change the answer).
need=$(($(free_mib) + 100000))
if out=$("$script" "the huge build" "$need" "$work/build" 2>&1); then
    fail "a need of $need MiB beyond the free space passed"
fi
[[ "$out" == *"the huge build needs about $need MiB more"* ]] || fail "message does not name the need: $out"
[[ "$out" == *"MiB short"* && "$out" == *"under $work/build"* ]] || fail "message does not say where or how much: $out"

# What the build folder already holds counts: 256 MiB there cover a need 64 MiB beyond the free space.
mkdir -p "$work/build"
fallocate -l 256M "$work/build/object.o" 2>/dev/null || dd if=/dev/zero of="$work/build/object.o" bs=1M count=256 status=none
need=$(($(free_mib) + 64))
out=$("$script" "a rebuild" "$need" "$work/build" 2>&1) || fail "an existing build's 256 MiB were not counted: $out"
echo "disk-space checks: ok"
