#!/usr/bin/env bash
# Installs what the machine lacks (tools/setup.sh), then configures and builds
# graft (Release) in BUILD_DIR (default build/).
# Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
ninja -C "$build"
