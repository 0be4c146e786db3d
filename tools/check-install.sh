#!/usr/bin/env bash
# The installed package from the outside (docs/packaging.md): installs the
# build in BUILD_DIR (default build) to a temporary prefix, builds the
# example pass plugin (examples/plugin) against it with find_package(graft),
# runs the plugin's test with the installed graft loading it, builds and
# runs a small program linking graft::transforms, and imports the installed
# Python module. Run by CI after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
echo "check-install: installed to a temporary prefix"
cmake -S examples/plugin -B "$work/plugin" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/plugin"
# The plugin's ctest runs the installed graft (graft::graft) with it loaded.
ctest --test-dir "$work/plugin" --output-on-failure
# And by hand, as docs/packaging.md shows it.
out=$("$work/prefix/bin/graft" opt --load-pass-plugin="$work/plugin/fold_double_negation.so" \
  -p fold-double-negation examples/plugin/tests/fold.py --module Before)
grep -q "= R.add(x, x)" <<<"$out" || { echo "check-install: the pass did not run:"; echo "$out"; exit 1; }
echo "check-install: the installed package builds and loads the example plugin"

# A program linking graft's libraries through the exported targets.
mkdir -p "$work/tool"
cat >"$work/tool/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(graft_consumer LANGUAGES C CXX)
find_package(graft 0.1 REQUIRED)
add_executable(count-passes main.cpp)
target_link_libraries(count-passes PRIVATE graft::transforms graft::text)
CMAKE
cat >"$work/tool/main.cpp" <<'CPP'
#include "ir/Printer.h"
#include "pass/Pass.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  graft::registerAllPasses();
  auto file = graft::parseFile(argv[1]);
  if (!file) {
    llvm::errs() << llvm::toString(file.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << graft::allPasses().size() << " passes, "
               << file->modules.front()->entries().size() << " functions\n";
  return 0;
}
CPP
cmake -S "$work/tool" -B "$work/tool/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/tool/build"
"$work/tool/build/count-passes" examples/mlp.py | grep -qE '^[1-9][0-9]* passes, 1 functions$' ||
  { echo "check-install: a program linking graft::transforms does not run"; exit 1; }
echo "check-install: a program links graft's libraries through find_package(graft)"

# The installed Python module, when the build has one (docs/python.md).
site=$(echo "$work"/prefix/lib/python3*/site-packages)
if [ -d "$site/graft" ]; then
  PYTHONPATH="$site" /usr/bin/python3 -c '
import sys, graft
mod = graft.parse_file(sys.argv[1])
graft.verify(mod)
assert "main" in graft.build(mod).functions
' examples/mlp.py
  echo "check-install: the installed Python module imports, parses and builds"
fi
