#!/usr/bin/env bash
# VM overhead of the MLP example at batch 1 (docs/performance.md, "Build and
# run"): runs `graft run examples/mlp.py --random --dim batch=1 --repeat 1000
# --profile` RUNS times (default 5) and prints the median over the runs of
# each run's median time outside kernels per call, with and without the
# profiler's own cost, and of the median call.
#   bench/vm-overhead.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
graft=${1:-build}/tools/graft
runs=${2:-5}
exe=$(mktemp --suffix=.gexe)
trap 'rm -f "$exe"' EXIT
"$graft" build examples/mlp.py -o "$exe"
for _ in $(seq "$runs"); do
  "$graft" run "$exe" --random --dim batch=1 --repeat 1000 --profile |
    sed -n 's/^time outside kernels: median \([0-9.]*\) us .*, \([0-9.]*\) us as timed.*median call \([0-9.]*\) us$/\1 \2 \3/p'
done | python3 -c '
import statistics, sys
rows = [list(map(float, line.split())) for line in sys.stdin]
for r in rows:
    print(f"run: {r[0]:.2f} us outside kernels, {r[1]:.2f} us as timed, call {r[2]:.2f} us")
m = [statistics.median(col) for col in zip(*rows)]
print(f"median of {len(rows)} runs: {m[0]:.2f} us outside kernels ({m[1]:.2f} us as timed), "
      f"median call {m[2]:.2f} us")
'
