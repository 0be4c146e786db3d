#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test graft. The
# README's two commands and CI both run it; it does nothing when every package
# is already there. Run as root, or with sudo available.
#
#   tools/setup.sh          build and test dependencies
#   tools/setup.sh --fuzz   also clang-14 and its libFuzzer runtime
#
# Every package that the CMake configuration looks for is listed below with
# what CMake calls it (`cmake:` comments); tests/tools/setup_covers_cmake.sh
# fails when CMake looks for something this list does not name.
set -euo pipefail

packages=(
  cmake ninja-build g++
  llvm-14-dev          # cmake: LLVM
  libdlpack-dev        # cmake: DLPACK_INCLUDE_DIR
  libgtest-dev         # cmake: GTest
  libgmock-dev         # cmake: GTest (gmock)
  libbenchmark-dev     # cmake: benchmark
  ccache               # cmake: GRAFT_CCACHE
  llvm-14-tools        # cmake: GRAFT_LIT (lit.py), cmake: GRAFT_FILECHECK
  pkg-config           # cmake: PkgConfig
  libgraphviz-dev      # cmake: libgvc (pkg_check_modules, graft viz's SVG and PNG)
  python3 python3-numpy python3-pytest
  python3-dev          # cmake: Python3 (the Python module's headers)
  python3-pybind11     # cmake: pybind11
  clang-format-14
)
# The installed graft package (cmake: graft) is what examples/plugin finds;
# it comes from graft's own `cmake --install` (docs/packaging.md).
# CUDAToolkit (cmake: CUDAToolkit) comes from NVIDIA's installer under
# /usr/local/cuda, not from Debian; without it the CUDA kernels are skipped.
if [ "${1:-}" = --fuzz ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
