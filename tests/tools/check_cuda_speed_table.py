#!/usr/bin/env python3
"""Checks tools/cuda-speed-table.py's verdicts on a made-up benchmark run."""
import json
import os
import subprocess
import sys
import tempfile


def bench(name, us, bps=None, aggregate="median", error=False):
    b = {"run_name": name + "/manual_time", "aggregate_name": aggregate, "real_time": us,
         "time_unit": "us"}
    if bps is not None:
        b["bytes_per_second"] = bps
    if error:
        b["error_occurred"] = True
    return b


def main():
    root = sys.argv[1]
    run = {"benchmarks": [
        bench("copy_f32/256MiB", 132.0, 4.0e12),
        bench("BM_binary/add_f32", 190.0, 3.5e12),  # 87.5% of copy: met
        bench("BM_binary/add_bf16", 250.0, 3.0e12),  # 75%: not met
        bench("BM_binary/add_bf16", 1.0, 9.9e12, aggregate="mean"),  # not the median: ignored
        bench("BM_softmax/f32_8192x8192", 142.0, 1.5e12),  # below 1.88 TB/s
        bench("cumsum_f32/64M", 271.0),  # 1.199x of 226: met
        bench("BM_sort/sort_f32_16M", 1000.0),  # 1.21x of 828: not met
        bench("BM_matmul/graft_bf16_8192", 1500.0),
        bench("BM_matmul/cublas_bf16_8192", 1400.0),  # 1.071x: met
        bench("BM_scatter/sum_f32_4096x1024_into_512_default", 52.0),  # equal: met
        bench("BM_attention/bf16_4x2048x16x128", 563.0),  # 244 TFLOP/s: not met
        bench("BM_attention/causal_bf16_4x2048x16x128", 318.0),  # 216: met
        bench("BM_rmsNorm/f32_8192x8192", 100.0, 5e12, error=True),  # skipped: not run
    ]}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        with open(path, "w") as f:
            json.dump(run, f)
        out = subprocess.run([sys.executable, os.path.join(root, "tools", "cuda-speed-table.py"),
                              path], stdout=subprocess.PIPE, check=True).stdout.decode()
        bad = subprocess.run([sys.executable, os.path.join(root, "tools", "cuda-speed-table.py"),
                              os.path.join(tmp, "missing.json")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    rows = {line.split(" | ")[0].lstrip("| "): line for line in out.splitlines()}
    expect = {
        "add float32, 256 MiB per operand": "(88% of copy) | ≥ 85% of copy: met",
        "add bfloat16, 256 MiB per operand": "(75% of copy) | ≥ 85% of copy: **not met**",
        "softmax 8192x8192 float32": "≥ PyTorch: **not met** (0.80×)",
        "cumsum of 64M float32": "within 1.2×: met (1.20×)",
        "sort 16M float32": "within 1.2×: **not met** (1.21×)",
        "matmul bfloat16 8192^3": "within 10% of cuBLAS: met (1.071×)",
        "scatter_elements sum into 512 rows": "≤ atomic kernel: met (1.00×)",
        "attention bf16 (4, 2048, 16, 128)": "244.1 TFLOP/s | ≥ 289.0 TFLOP/s: **not met**",
        "attention bf16 (4, 2048, 16, 128), causal": "216.1 TFLOP/s | ≥ 189.5 TFLOP/s: met",
        "rms_norm 8192x8192 float32": "| not run |",
        "argsort 16M float32": "| not run |",
    }
    failures = [f"{label}: expected '{want}' in '{rows.get(label)}'"
                for label, want in expect.items() if want not in rows.get(label, "")]
    if bad.returncode != 1 or b"missing.json" not in bad.stderr:
        failures.append(f"a missing file: rc {bad.returncode}, stderr {bad.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
