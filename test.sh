#!/usr/bin/env bash
# Runs every test. Installs dependencies (Debian packages, the npm registry) and builds first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$root/packaging/build.sh"
build=${NB2_BUILD_DIR:-$root/build}
PATH="$("$root/packaging/ensure-node.sh"):$PATH"
export PATH
(cd "$root/tests/conformance" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$root/tests/mcp" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$root/bench/node" && npm ci --no-audit --no-fund --loglevel=error) # the benchmark's SDK side
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
