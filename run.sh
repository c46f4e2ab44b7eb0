#!/usr/bin/env bash
# Runs NB2Lite Studio. Installs dependencies and builds on first use.
# Without an API key it runs on the built-in offline demo backend.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$root/packaging/build.sh"
build=${NB2_BUILD_DIR:-$root/build}
exec "$build/app/studio/nb2lite-studio" "$@"
