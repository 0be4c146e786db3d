#!/usr/bin/env bash
# tools/gpu-check.sh stage | run
#
# stage (here, no GPU needed): builds the CUDA module, the CUDA tests, the
#   CUDA benchmark and graft (Release, sm_90, LLVM linked statically) in
#   $GRAFT_GPU_BUILD (default build/) and copies stripped binaries, the
#   module and the libraries the GPU machine lacks into .gpu/ (git-ignored).
# run [PART...] (on the GPU machine, from the repository root, .gpu/ carried
#   there): the parts tests, examples, difftest, bench and memcheck (all by
#   default): the gpu tests, every example on CUDA against the CPU, random
#   programs built for CUDA against build-cpu (`graft difftest --device
#   cuda`; failing programs kept in $OUT/difftest-failing), the benchmarks,
#   and compute-sanitizer memcheck, racecheck and synccheck on every gpu
#   test suite, in parallel (memcheck also on a short difftest); logs go to $OUT
#   (default out/). The part scale (not in the default set) runs the
#   in-process linearity benchmarks (100k against 200k bindings) pinned to
#   one core of that quieter, larger machine (docs/performance.md).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}

stage() {
  set -e
  local build=${GRAFT_GPU_BUILD:-build}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$PWD")}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRAFT_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  ninja -C "$build" -j"${GRAFT_JOBS:-2}" graft graft_cuda graft-cuda-tests graft-bench-cuda \
    graft-bench-ir_scale graft-bench-passes_scale graft-bench-ir_steps
  rm -rf .gpu
  mkdir -p .gpu/bin .gpu/lib
  cp "$build/tools/graft" "$build/tests/graft-cuda-tests" "$build/bench/cuda/graft-bench-cuda" \
    "$build/bench/graft-bench-ir_scale" "$build/bench/graft-bench-passes_scale" \
    "$build/bench/graft-bench-ir_steps" .gpu/bin/
  cp "$build/lib/libgraft_cuda.so" .gpu/lib/
  cp "$(ldconfig -p | awk '/libbenchmark.so.1debian / {print $NF; exit}')" .gpu/lib/
  # Libraries graft links that the GPU machine's Ubuntu lacks: Graphviz's
  # (graft viz).
  local lib
  for lib in $(ldd .gpu/bin/graft | awk '/libgvc|libcgraph|libcdt|libpathplan|libltdl/ {print $3}'); do
    cp -L "$lib" .gpu/lib/
  done
  strip --strip-unneeded .gpu/bin/* .gpu/lib/*
  # What travels is capped at 64 MiB: the largest library goes compressed
  # and run() unpacks it.
  gzip -9 .gpu/lib/libgraft_cuda.so
  du -sh .gpu
}

# Time per call (graft run --repeat: each call waits for the GPU) of the
# 100-kernel chain and the examples, built with and without CUDA graphs;
# the replay cost per kernel is (chain100 - chain2) / 98 with graphs.
graph_bench() {
  local out=$1 graft=.gpu/bin/graft tmp rc=0
  # A chain of N small kernels on weights only (num_input 0), so
  # rewrite-cuda-graph lifts all but the last into one region: N adds of
  # 16x16 float32 (PyTorch's anchor is 100 tiny adds), written as kernel
  # calls so that fuse-elementwise leaves them N kernels.
  chain_program() {
    local n=$1 i prev=x t='R.Tensor((16, 16), "float32")'
    printf 'from tvm.script import ir as I, relax as R, tir as T\n\n\n@I.ir_module\nclass Module:\n'
    printf '    @R.function\n    def main(x: %s, w: %s) -> %s:\n' "$t" "$t" "$t"
    printf '        R.func_attr({"num_input": 0})\n        with R.dataflow():\n'
    for ((i = 1; i <= n; i++)); do
      printf '            y%d = R.call_dps_packed("graft.add", (%s, w), out_sinfo=%s)\n' "$i" "$prev" "$t"
      prev=y$i
    done
    printf '            R.output(%s)\n        return %s\n' "$prev" "$prev"
  }

  # out[mask] = src[mask] on rows x cols float32 (index_tensor + index_put,
  # which fuse-masked-copy turns into one where): PyTorch's anchors are
  # 355 us at 16M elements and 190 us at 16K.
  masked_copy_program() {
    local t="R.Tensor(($1, $2), \"float32\")" m="R.Tensor(($1, $2), \"bool\")"
    printf 'from tvm.script import ir as I, relax as R, tir as T\n\n\n@I.ir_module\nclass Module:\n'
    printf '    @R.function\n    def main(src: %s, out: %s, mask: %s) -> %s:\n' "$t" "$t" "$m" "$t"
    printf '        with R.dataflow():\n'
    printf '            picked = R.index_tensor(src, (mask,))\n'
    printf '            out2 = R.index_put(out, (mask,), picked, accumulate=False)\n'
    printf '            R.output(out2)\n        return out2\n'
  }

  tmp=$(mktemp -d)
  chain_program 100 >"$tmp/chain100.py"
  chain_program 2 >"$tmp/chain2.py"
  masked_copy_program 4096 4096 >"$tmp/masked_copy_16M.py"
  masked_copy_program 128 128 >"$tmp/masked_copy_16K.py"
  cp examples/mlp.py examples/transformer_block.py examples/dynamic_shape.py "$tmp/"
  {
    # The kernels alone: one replay of a captured chain (device time), and
    # the masked copy's where.
    .gpu/bin/graft-bench-cuda --benchmark_filter='BM_graphReplay|BM_maskedCopy' \
      --benchmark_repetitions=5 --benchmark_report_aggregates_only --benchmark_min_time=0.1 |
      grep -E "median|nodes" || rc=1
    for prog in chain100 chain2 masked_copy_16M masked_copy_16K mlp transformer_block dynamic_shape; do
      local dims=""
      case $prog in
      mlp) dims="--dim batch=16" ;;
      transformer_block) dims="--dim seq=32" ;;
      esac
      for mode in graphs no-graphs; do
        local flag=""
        [[ $mode == no-graphs ]] && flag=--no-cuda-graph
        echo "-- $prog ($mode)"
        # shellcheck disable=SC2086
        "$graft" build --target cuda $flag "$tmp/$prog.py" -o "$tmp/$prog-$mode.gexe" &&
          "$graft" run "$tmp/$prog-$mode.gexe" --device cuda --random --seed 1 $dims --repeat 500 |
          grep -E "runs after" || rc=1
        # shellcheck disable=SC2086
        [[ $prog == chain100 || $prog == transformer_block ]] &&
          "$graft" run "$tmp/$prog-$mode.gexe" --device cuda --random --seed 1 $dims --repeat 5 \
            --profile | grep -E "^(graft|vm)\.|time outside kernels" | head -n 12
        # shellcheck disable=SC2086
        "$graft" run "$tmp/$prog-$mode.gexe" --device cuda --random --seed 1 $dims --repeat 5 \
          --profile | grep -E "cuda graph region|host synchronizations" || true
      done
    done
    # The chains again with the module's kernel edges left plain (no
    # programmatic launch overlap; docs/cuda-graphs.md, "Replay cost").
    for prog in chain100 chain2; do
      echo "-- $prog (graphs, GRAFT_CUDA_GRAPH_OVERLAP=0)"
      GRAFT_CUDA_GRAPH_OVERLAP=0 "$graft" run "$tmp/$prog-graphs.gexe" --device cuda --random \
        --seed 1 --repeat 500 | grep -E "runs after" || rc=1
    done
  } > >(tee "$out/graph-bench.txt") 2>&1
  rm -rf "$tmp"
  return $rc
}

# compute-sanitizer's memcheck (with leak check), racecheck and synccheck
# over every gpu test suite. One process per tool and suite, several at a
# time: the tools are bound by the host's cores (instrumentation), and one
# process over the whole binary does not finish in a command's time.
# API errors are not reported: CudaFused and CudaResolve provoke failing
# kernel loads on purpose and check the messages themselves. Scatter's three
# big tests (some 2000 launches each) leave racecheck and synccheck to
# CudaScatter.EveryPathSmall, which takes every path in about 100, and so
# does the test of 1025 calls that fill the deferred index checks (the
# column forms' big test alone ran past 480 s under racecheck). RunCuda's
# whole-program tests (random programs, the examples and unique's, through
# the tool) take more than eight minutes under any of the tools.
sanitize() {
  local out=$1/sanitize jobs=${GRAFT_SANITIZE_JOBS:-$(nproc)} suites tool suite
  mkdir -p "$out"
  # GRAFT_SANITIZE_SUITES (an extended regex) and GRAFT_SANITIZE_TOOLS narrow
  # the run to what changed, when device time is short.
  suites=$(.gpu/bin/graft-cuda-tests --gtest_list_tests |
    awk '/^(Cuda|RunCuda)[A-Za-z]*\./ {sub(/\./, ""); print}' |
    grep -E "${GRAFT_SANITIZE_SUITES:-.}")
  for tool in ${GRAFT_SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    for suite in $suites; do
      echo "$tool $suite"
    done
  done | xargs -P "$jobs" -L 1 bash -c '
    tool=$0 suite=$1 out='"$out"' filter="$1.*" extra=""
    [[ $tool == memcheck ]] && extra="--leak-check full"
    [[ $tool != memcheck && $suite == CudaScatter ]] &&
      filter="CudaScatter.*:-CudaScatter.EveryReductionEveryDType:CudaScatter.TileEdges:CudaScatter.ColumnEveryReductionEveryDType:CudaScatter.BadIndexIsReportedWhenTheChecksRunOut"
    # Whole programs through the tool: memcheck-difftest below covers them.
    [[ $suite == RunCuda ]] &&
      filter="RunCuda.*:-RunCuda.GeneratedProgramsMatchTheCpu:RunCuda.ExamplesMatchTheCpu"
    [[ $suite == CudaUnique ]] && filter="CudaUnique.*:-CudaUnique.GraftRunMatchesTheCpu"
    start=$SECONDS
    timeout "${GRAFT_SANITIZE_TIMEOUT:-480}" compute-sanitizer --tool "$tool" $extra \
      --report-api-errors no --error-exitcode 3 .gpu/bin/graft-cuda-tests --gtest_filter="$filter" \
      >"$out/$tool-$suite.log" 2>&1
    echo "$tool $suite rc=$? $((SECONDS - start))s" >>"$out/times.txt"'
  sort "$out/times.txt" | tee "$1/sanitize.txt"
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|tests, listed below\|PASSED" "$out"/*.log |
    sort | uniq -c | tee -a "$1/sanitize.txt"
  ! grep -q "rc=[^0]" "$out/times.txt"
}

run() {
  local out=${OUT:-out}
  mkdir -p "$out"
  local packed
  for packed in .gpu/lib/*.gz; do
    [ -e "$packed" ] && gunzip -f "$packed"
  done
  export LD_LIBRARY_PATH="$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # The tests find the tool and the examples here, not where they were built.
  export GRAFT_BINARY="$PWD/.gpu/bin/graft" GRAFT_SOURCE_DIR="$PWD"
  local graft=.gpu/bin/graft status=0
  nvidia-smi >"$out/nvidia-smi.txt" 2>&1

  local parts=" ${*:-tests examples difftest bench memcheck} "
  want() { [[ $parts == *" $1 "* ]]; }

  want tests && echo "== gpu tests"
  want tests && {
  .gpu/bin/graft-cuda-tests --gtest_output="xml:$out/gpu-tests.xml" >"$out/gpu-tests.log" 2>&1 ||
    status=1
  tail -n 30 "$out/gpu-tests.log"
  }

  want examples && echo "== examples on cuda against cpu"
  want examples && {
  local tmp
  tmp=$(mktemp -d)
  for ex in examples/*.py; do
    local name dims=""
    name=$(basename "$ex" .py)
    case $name in
    mlp) dims="--dim batch=16" ;;
    transformer_block) dims="--dim seq=32" ;;
    esac
    for dev in cpu cuda; do
      if "$graft" build --target "$dev" "$ex" -o "$tmp/$name-$dev.gexe" >"$tmp/$name-$dev.log" 2>&1; then
        # shellcheck disable=SC2086
        "$graft" run "$tmp/$name-$dev.gexe" --device "$dev" --random --seed 1 $dims \
          >>"$tmp/$name-$dev.log" 2>&1
      fi
      echo "rc=$?" >>"$tmp/$name-$dev.log"
    done
    {
      echo "-- $name: cpu"
      cat "$tmp/$name-cpu.log"
      echo "-- $name: cuda"
      cat "$tmp/$name-cuda.log"
    } | tee -a "$out/examples.log"
  done
  "$graft" build --target cuda examples/mlp.py -o "$tmp/mlp.gexe" &&
    "$graft" run "$tmp/mlp.gexe" --device cuda --random --dim batch=256 --repeat 50 --profile \
      2>&1 | tee "$out/mlp-repeat.log"
  rm -rf "$tmp"
  }

  want difftest && echo "== difftest: generated programs, build-cuda on the GPU against build-cpu"
  want difftest && {
  timeout "${GRAFT_DIFFTEST_TIMEOUT:-300}" "$graft" difftest --device cuda \
    --count "${GRAFT_DIFFTEST_COUNT:-500}" --keep "$out/difftest-failing" \
    >"$out/difftest.log" 2>&1 || status=1
  timeout "${GRAFT_DIFFTEST_TIMEOUT:-300}" "$graft" difftest --device cuda --first-seed 1000000 \
    --count "${GRAFT_DIFFTEST_LARGE_COUNT:-100}" --size 40 --keep "$out/difftest-failing" \
    >"$out/difftest-large.log" 2>&1 || status=1
  tail -n 25 "$out/difftest.log" "$out/difftest-large.log"
  }

  want bench && echo "== benchmarks"
  want bench && {
  # Attention first, on its own (a few seconds), so its figures come back
  # even when the full run below is cut short.
  .gpu/bin/graft-bench-cuda --benchmark_filter=BM_attention --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only --benchmark_min_time=0.2 >"$out/bench-attention.txt" 2>&1 ||
    status=1
  grep -E "median" "$out/bench-attention.txt"
  # CUDA graphs with and without (seconds): before the long run, too.
  # GRAFT_GRAPH_BENCH=0 leaves them out.
  [[ ${GRAFT_GRAPH_BENCH:-1} == 0 ]] || graph_bench "$out" || status=1
  # The graph-form experiments (BM_graphReplayForm, docs/cuda-graphs.md) only
  # when GRAFT_BENCH_FILTER asks for them: they double the run.
  .gpu/bin/graft-bench-cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only \
    --benchmark_filter="${GRAFT_BENCH_FILTER:--BM_graphReplayForm}" \
    --benchmark_min_time=0.2 --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.txt" 2>&1 ||
    status=1
  grep -E "median|Benchmark|----" "$out/bench.txt"
  # The speed table of docs/performance.md, with each bar's verdict.
  python3 tools/cuda-speed-table.py "$out/bench.json" "$out/bench.txt" "$out/bench-attention.txt" \
    >"$out/speed-table.md" || status=1
  cat "$out/speed-table.md"
  }

  want memcheck && echo "== compute-sanitizer memcheck, racecheck and synccheck, one process per suite"
  want memcheck && {
  sanitize "$out" || status=1
  # Generated programs reach kernels with odd shapes (rank 0, dims of 1).
  [[ ${GRAFT_MEMCHECK_DIFFTEST_COUNT:-30} == 0 ]] ||
  timeout "${GRAFT_MEMCHECK_TIMEOUT:-420}" compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$graft" difftest --device cuda --count "${GRAFT_MEMCHECK_DIFFTEST_COUNT:-30}" \
    >"$out/memcheck-difftest.log" 2>&1 || status=1
  [[ ${GRAFT_MEMCHECK_DIFFTEST_COUNT:-30} == 0 ]] || tail -n 4 "$out/memcheck-difftest.log"
  }

  want scale && echo "== linearity, 100k against 200k bindings, pinned to cpu ${GRAFT_SCALE_CPU:-7}"
  want scale && {
  local pin="taskset -c ${GRAFT_SCALE_CPU:-7}" rounds=${GRAFT_SCALE_ROUNDS:-2} r
  for r in $(seq "$rounds"); do
    $pin .gpu/bin/graft-bench-ir_scale --benchmark_filter='/1/' --benchmark_repetitions=5 \
      --benchmark_report_aggregates_only=true >"$out/scale-ir-$r.txt" 2>&1 || status=1
    $pin .gpu/bin/graft-bench-passes_scale \
      --benchmark_filter='BM_(DeadCodeElimination|CanonicalizeBindings|Verify)' \
      --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
      >"$out/scale-passes-$r.txt" 2>&1 || status=1
    grep median "$out/scale-ir-$r.txt" "$out/scale-passes-$r.txt"
  done
  for r in 1 2 3; do
    $pin .gpu/bin/graft-bench-ir_steps 100000
    $pin .gpu/bin/graft-bench-ir_steps 200000
  done >"$out/scale-steps.txt" 2>&1 || status=1
  cat "$out/scale-steps.txt"
  }

  return $status
}

case $mode in
stage) stage ;;
run)
  shift
  run "$@"
  ;;
*)
  echo "usage: tools/gpu-check.sh stage|run" >&2
  exit 2
  ;;
esac
