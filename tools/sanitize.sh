#!/usr/bin/env bash
# Builds graft with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan:
# -O1, assertions on, CUDA and benchmarks off) and runs the whole test suite
# there. Any report fails the run: UBSan halts on the first finding, ASan
# checks leaks at exit. BUILD_DIR overrides the build folder, GRAFT_JOBS the
# build jobs (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-asan}
tools/setup.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g0" \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -g0" -DGRAFT_SANITIZE=ON -DGRAFT_CUDA=OFF -DGRAFT_BUILD_BENCH=OFF \
  >/dev/null
ninja -C "$build" -j"${GRAFT_JOBS:-2}"
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Graphviz and fontconfig keep caches for the life of the process (graft viz).
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan-suppressions.txt
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
