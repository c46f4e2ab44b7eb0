#!/usr/bin/env bash
# Stops a build or test run early, with a clear message, when the disk it writes to cannot hold
# it: a full disk otherwise shows up minutes later as a linker's "No space left on device" in the
# middle of a build log (CI once failed that way, in the sanitizer build).
#
#   packaging/disk-space.sh WHAT NEED_MIB DIR [DIR ...]
#
# NEED_MIB is what the run writes when it starts from nothing (each caller's figure was measured
# in a clean clone's ./test.sh). Whatever the DIRs (its build directories) already hold counts
# towards it, since a run over an existing build writes little new. The space is read on the file system of the first
# DIR, or of its nearest existing parent. Exit status 1, and a message saying how much is
# missing and where, when the free space is short; 0 otherwise.
set -euo pipefail
what=$1
need=$2
shift 2
first=$1
probe=$first
while [[ ! -e "$probe" ]]; do
    probe=$(dirname "$probe")
done
have=0
for dir in "$@"; do
    if [[ -d "$dir" ]]; then
        have=$((have + $(du -sm "$dir" 2>/dev/null | cut -f1)))
    fi
done
free=$(df -Pm "$probe" | awk 'NR == 2 { print $4 }')
short=$((need - have - free))
if ((short > 0)); then
    mount=$(df -Pm "$probe" | awk 'NR == 2 { print $6 }')
    echo "disk-space: $what needs about $((need - have)) MiB more on $mount (under $first)," \
        "but only $free MiB are free: $short MiB short." >&2
    echo "disk-space: free some space there (old build directories, /tmp/nb2lite-bench-cache" \
        "from benchmark runs, 'ccache -C') and run it again." >&2
    exit 1
fi
