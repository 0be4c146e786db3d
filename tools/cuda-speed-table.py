#!/usr/bin/env python3
"""The CUDA speed table of docs/performance.md from one benchmark run.

Usage: tools/cuda-speed-table.py OUT/bench.json [OUT/bench.txt ...]

Reads the Google Benchmark JSON that `tools/gpu-check.sh run bench` writes (the
median aggregates of `graft-bench-cuda`) and prints a Markdown table: graft's
median, the bar and whether it is met, and PyTorch 2.11's figure on the same
H200. Console logs (`--benchmark_out_format=console`, such as
bench.txt and bench-attention.txt) are read too, for runs whose JSON was cut
short; the first file that has a benchmark gives its figure.

The bars (docs/performance.md, "CUDA"): elementwise and fused kernels reach
85% of the copy bandwidth of the same run; softmax, layer_norm and rms_norm at
least PyTorch's bandwidth; matmul within 10% of a bare cuBLAS call; sort,
argsort and cumsum within 1.2x of PyTorch's time; deterministic scatter no
slower than PyTorch's atomic kernel; attention at least half of PyTorch's
flash throughput. A benchmark missing from the run is listed as "not run".
"""
import json
import re
import sys

# PyTorch 2.11 on the same H200 (decimal units).
PYTORCH_COPY_TBS = 4.06
FLASH_FLOPS = 4.0 * 4 * 16 * 2048 * 2048 * 128  # 4 B N S S_kv H

# (benchmark, row label, rule, anchor). Rules: "copy" (the reference), "bw85"
# (>= 85% of the copy bandwidth), "bw" (bandwidth >= anchor TB/s), "time"
# (time <= 1.2x anchor us), "atomic" (time <= anchor us), "cublas" (within
# 10% of the named bare cuBLAS benchmark), "flash" (TFLOP/s >= anchor / 2),
# "info" (no bar), "plain" (no bar, time only).
ROWS = [
    ("copy_f32/256MiB", "copy (cudaMemcpyAsync D2D), 256 MiB float32", "copy", PYTORCH_COPY_TBS),
    ("BM_binary/add_f32", "add float32, 256 MiB per operand", "bw85", 4.20),
    ("BM_binary/add_bf16", "add bfloat16, 256 MiB per operand", "bw85", None),
    ("BM_unary/exp_f32", "exp float32, 256 MiB", "bw85", None),
    ("BM_unary/relu_bf16", "relu bfloat16, 256 MiB", "bw85", None),
    ("BM_fusedChain/fused_chain_f32", "fused chain float32 (NVRTC)", "bw85", None),
    ("BM_fusedChain/fused_chain_bf16", "fused chain bfloat16 (NVRTC)", "bw85", None),
    ("BM_fusedIndex/fused_permute_add_f32", "fused permute+add float32", "info", None),
    ("BM_fusedIndex/fused_concat_exp_f32", "fused concat+exp float32", "info", None),
    ("BM_fusedIndex/fused_concat_exp_bf16", "fused concat+exp bfloat16", "info", None),
    ("BM_softmax/f32_8192x8192", "softmax 8192x8192 float32", "bw", 1.88),
    ("BM_softmax/bf16_16384x4096", "softmax 16384x4096 bfloat16", "bw", 1.24),
    ("BM_softmax/bf16_16384x4096_warp", "softmax 16384x4096 bfloat16, warp per row", "info",
     None),
    ("BM_softmax/bf16_16384x4096_warp_cs", "softmax 16384x4096 bfloat16, streamed warp form",
     "info", None),
    ("BM_layerNorm/f32_8192x8192", "layer_norm 8192x8192 float32", "bw", 2.60),
    ("BM_layerNorm/bf16_16384x4096", "layer_norm 16384x4096 bfloat16", "bw", 2.60),
    ("BM_layerNorm/bf16_16384x4096_warp", "layer_norm 16384x4096 bfloat16, warp per row", "info",
     None),
    ("BM_layerNorm/bf16_16384x4096_warp_cs", "layer_norm 16384x4096 bfloat16, streamed warp form",
     "info", None),
    ("BM_rmsNorm/f32_8192x8192", "rms_norm 8192x8192 float32", "bw", 3.66),
    ("BM_rmsNorm/bf16_16384x4096", "rms_norm 16384x4096 bfloat16", "bw", 3.66),
    ("BM_rmsNorm/bf16_16384x4096_warp", "rms_norm 16384x4096 bfloat16, warp per row", "info",
     None),
    ("BM_rmsNorm/bf16_16384x4096_warp_cs", "rms_norm 16384x4096 bfloat16, streamed warp form",
     "info", None),
    ("sum_rows_f32/8192x8192", "sum over rows, 8192x8192 float32", "info", 3.35),
    ("cumsum_f32/64M", "cumsum of 64M float32", "time", 226),
    ("BM_sort/sort_f32_16M", "sort 16M float32", "time", 828),
    ("BM_sort/argsort_f32_16M", "argsort 16M float32", "time", 828),
    ("BM_sort/sort_rows_f32_4096x4096", "sort 4096 rows of 4096 float32", "time", 555),
    ("BM_sort/argsort_rows_f32_4096x4096", "argsort 4096 rows of 4096 float32", "time", 555),
    ("BM_topk/topk_f32_1x100000_k50", "topk k=50 of one row of 100000 float32", "plain", None),
    ("BM_topk/topk_f32_1x16M_k50", "topk k=50 of one row of 16M float32", "plain", None),
    ("BM_topk/topk_rows_f32_4096x4096_k50", "topk k=50 of 4096 rows of 4096 float32", "plain", None),
    ("layout_transform_f32_nchw4c/64x130x56x56", "layout_transform NCHW -> NCHW4c (padded)",
     "info", None),
    ("layout_transform_f32_nchw4c_scatter/64x130x56x56",
     "layout_transform NCHW -> NCHW4c (padded), interpreter forced", "info", None),
    ("layout_transform_f32_nhwc/64x128x56x56", "layout_transform NCHW -> NHWC", "info", None),
    ("layout_transform_f32_from_nchw4c/64x32x56x56x4", "layout_transform NCHW4c -> NCHW", "info",
     None),
    ("BM_matmul/graft_bf16_8192", "matmul bfloat16 8192^3", "cublas", "BM_matmul/cublas_bf16_8192"),
    ("BM_matmul/graft_f16_4096", "matmul float16 4096^3", "cublas", "BM_matmul/cublas_f16_4096"),
    ("BM_matmul/graft_f64_4096", "matmul float64 4096^3", "cublas", "BM_matmul/cublas_f64_4096"),
    ("BM_scatter/sum_f32_4096x1024_into_512_default", "scatter_elements sum into 512 rows",
     "atomic", 52),
    ("BM_scatter/amax_f32_4096x1024_into_512_default", "scatter_elements amax into 512 rows",
     "atomic", 72),
    ("BM_scatter/mean_f32_4096x1024_into_512_default", "scatter_elements mean into 512 rows",
     "atomic", 93),
    ("BM_scatter/sum_f32_4096x1024_into_4_default", "scatter_elements sum into 4 rows", "atomic",
     62),
    ("BM_scatter/amax_f32_4096x1024_into_4_default", "scatter_elements amax into 4 rows", "atomic",
     230),
    ("BM_scatter/mean_f32_4096x1024_into_4_default", "scatter_elements mean into 4 rows", "atomic",
     113),
    ("BM_attention/bf16_4x2048x16x128", "attention bf16 (4, 2048, 16, 128)", "flash", 578),
    ("BM_attention/causal_bf16_4x2048x16x128", "attention bf16 (4, 2048, 16, 128), causal",
     "flash", 379),
]


def read_json(path, found):
    with open(path) as f:
        data = json.load(f)
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name") != "median" or b.get("error_occurred"):
            continue
        name = re.sub(r"/manual_time$", "", b["run_name"])
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
        found[name] = {"us": b["real_time"] * scale, "Bps": b.get("bytes_per_second")}


UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
PREFIX = {"": 1, "k": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def read_console(path, found):
    line_re = re.compile(r"^(\S+?)(?:/manual_time)?_median\s+([\d.]+) (ns|us|ms|s)\s")
    bps_re = re.compile(r"bytes_per_second=([\d.]+)([kMGT]?)/s")
    with open(path) as f:
        for line in f:
            m = line_re.match(line)
            if not m or m.group(1) in found:
                continue
            bps = bps_re.search(line)
            # The console prints bytes per second in binary prefixes.
            found[m.group(1)] = {
                "us": float(m.group(2)) * UNIT_US[m.group(3)],
                "Bps": float(bps.group(1)) * PREFIX[bps.group(2)] if bps else None,
            }


def tbs(entry):
    return entry["Bps"] / 1e12 if entry.get("Bps") else None


def verdict(met):
    return "met" if met else "**not met**"


def row(name, label, rule, anchor, found):
    e = found.get(name)
    if e is None:
        return f"| {label} | not run | | |"
    us, bw = e["us"], tbs(e)
    # Bandwidth only where a bar or the anchor is one.
    shows_bw = bw and rule in ("copy", "bw85", "bw", "info")
    graft = f"{us:.1f} µs" + (f", {bw:.2f} TB/s" if shows_bw else "")
    copy = tbs(found.get("copy_f32/256MiB", {}))
    if rule == "copy":
        return f"| {label} | {graft} | — | {anchor} TB/s |"
    if rule == "bw85":
        if not copy or not bw:
            return f"| {label} | {graft} | ≥ 85% of copy: no copy figure | |"
        share = bw / copy
        torch = f"{anchor} TB/s" if anchor else ""
        return f"| {label} | {graft} ({share:.0%} of copy) | ≥ 85% of copy: {verdict(share >= 0.85)} | {torch} |"
    if rule == "bw":
        ok = bw is not None and bw >= anchor
        return f"| {label} | {graft} | ≥ PyTorch: {verdict(ok)} ({bw / anchor:.2f}×) | {anchor} TB/s |"
    if rule == "time":
        return (f"| {label} | {graft} | within 1.2×: {verdict(us <= 1.2 * anchor)} "
                f"({us / anchor:.2f}×) | {anchor} µs |")
    if rule == "atomic":
        return (f"| {label} | {graft} | ≤ atomic kernel: {verdict(us <= anchor)} "
                f"({us / anchor:.2f}×) | {anchor} µs |")
    if rule == "cublas":
        bare = found.get(anchor)
        if bare is None:
            return f"| {label} | {graft} | within 10% of cuBLAS: no cuBLAS figure | |"
        ratio = us / bare["us"]
        return (f"| {label} | {graft}; bare cuBLAS {bare['us']:.1f} µs | within 10% of cuBLAS: "
                f"{verdict(ratio <= 1.10)} ({ratio:.3f}×) | |")
    if rule == "flash":
        causal = "causal" in name
        tflops = FLASH_FLOPS / (2 if causal else 1) / (us * 1e-6) / 1e12
        bar = anchor / 2
        return (f"| {label} | {us:.1f} µs, {tflops:.1f} TFLOP/s | ≥ {bar:.1f} TFLOP/s: "
                f"{verdict(tflops >= bar)} | {anchor} TFLOP/s |")
    torch = f"{anchor} TB/s" if anchor else ""
    return f"| {label} | {graft} | — | {torch} |"


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    found, rc = {}, 0
    # A file that cannot be read (a JSON cut short by a crash) is reported and
    # the table is still made from the others.
    for path in argv[1:]:
        try:
            if path.endswith(".json"):
                read_json(path, found)
            else:
                read_console(path, found)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            rc = 1
    print("| benchmark | graft (median) | bar | PyTorch 2.11 |")
    print("|---|---|---|---|")
    for name, label, rule, anchor in ROWS:
        print(row(name, label, rule, anchor, found))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
