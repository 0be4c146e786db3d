#!/usr/bin/env bash
# The installed package from the outside (docs/packaging.md): installs the
# build in BUILD_DIR (default build) to a temporary prefix, builds the
# example pass plugin (examples/plugin) against it with find_package(graft),
# and runs the plugin's test with the installed graft loading it. Run by CI
# after the build.
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
grep -q "c = R.add(x, x)" <<<"$out" || { echo "check-install: the pass did not run:"; echo "$out"; exit 1; }
echo "check-install: the installed package builds and loads the example plugin"
