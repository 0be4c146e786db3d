#!/usr/bin/env bash
# Builds graft (Release) and runs the whole test suite (ctest, which includes
# `graft test tests/passes`). BUILD_DIR overrides the build folder; extra
# arguments go to cmake (e.g. -DGRAFT_SANITIZE=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
tools/build.sh "$@"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
