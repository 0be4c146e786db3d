#!/usr/bin/env python3
"""What verify-each adds to a whole `graft opt` process.

Runs `graft opt FILE -p PIPELINE -o /dev/null` with and without
--no-verify-each, alternating, RUNS times each, and prints the medians of
the wall times and of the CPU times (user + system) with the overhead of the
median with verify-each over the median without (docs/performance.md quotes
it).

usage: bench/verify-each-overhead.py GRAFT FILE [PIPELINE] [RUNS]
"""
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    """(wall seconds, CPU seconds: user + system) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    graft, path = sys.argv[1], sys.argv[2]
    pipeline = sys.argv[3] if len(sys.argv) > 3 else "canonicalize-bindings,dead-code-elimination"
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    base = [graft, "opt", path, "-p", pipeline, "-o", "/dev/null"]
    run(base)  # Warm the page cache.
    on, off = [], []
    for _ in range(runs):
        on.append(run(base))
        off.append(run(base + ["--no-verify-each"]))
    for what, i in (("wall", 0), ("cpu", 1)):
        m_on = statistics.median(r[i] for r in on)
        m_off = statistics.median(r[i] for r in off)
        print(f"{what}: verify-each median {m_on:.3f} s (min {min(r[i] for r in on):.3f}), "
              f"--no-verify-each median {m_off:.3f} s (min {min(r[i] for r in off):.3f}), "
              f"overhead {100 * (m_on / m_off - 1):+.1f}%")


if __name__ == "__main__":
    main()
