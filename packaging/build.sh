#!/usr/bin/env bash
# Configures and builds into ./build (or $NB2_BUILD_DIR). Incremental; uses ccache when present.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${NB2_BUILD_DIR:-$root/build}
"$root/packaging/install-deps.sh"
# A full build of ./build is ~1840 MiB, plus its compressed objects in ccache (measured in a clean clone's ./test.sh).
"$root/packaging/disk-space.sh" "the build in $build" 1840 "$build"
# ccache keys objects on paths relative to the checkout, so a clean clone in any folder reuses
# what an earlier build compiled (the compiler flags are part of the key: sanitizer and fuzz
# builds never share objects with the normal one).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [[ ! -f "$build/build.ninja" ]]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
