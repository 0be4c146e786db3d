#!/usr/bin/env bash
# Per-pass wall time of the finalize pipeline (verify-each on) on N call_tir
# bindings, for N = 100k and 200k: the linearity check of docs/performance.md.
#   bench/finalize-scale.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
graft=${1:-build}/tools/graft
for n in 100000 200000; do
  python3 bench/gen-module.py calltir "$n" > "/tmp/finalize-$n.py"
  echo "== $n call_tir bindings"
  "$graft" opt "/tmp/finalize-$n.py" -p finalize --timing -o /dev/null 2>&1 |
    awk '/Wall Time/ {on=1; next} on && NF {print $(NF-2), $NF}'
done
