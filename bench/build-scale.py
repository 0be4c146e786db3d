#!/usr/bin/env python3
"""`graft build` linearity (docs/performance.md, "Build and run"): builds the
module of `bench/gen-module.py build N` for two sizes, REPEAT times each, and
prints the median wall and CPU (user + system) time of each size and their
ratio. The bar: the larger size (twice the smaller) costs at most 2.3x.

usage: bench/build-scale.py [BUILD_DIR] [--sizes 50000,100000] [--repeat 5]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_build(graft, src, out):
    cpu0, wall0 = child_cpu(), time.perf_counter()
    subprocess.run([graft, 'build', src, '-o', out], check=True)
    return time.perf_counter() - wall0, child_cpu() - cpu0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build_dir', nargs='?', default=os.path.join(here, '..', 'build'))
    ap.add_argument('--sizes', default='50000,100000')
    ap.add_argument('--repeat', type=int, default=5)
    args = ap.parse_args()
    graft = os.path.join(args.build_dir, 'tools', 'graft')
    sizes = [int(s) for s in args.sizes.split(',')]
    medians = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = os.path.join(tmp, f'build-{n}.py')
            with open(src, 'w') as f:
                subprocess.run([sys.executable, os.path.join(here, 'gen-module.py'), 'build',
                                str(n)], stdout=f, check=True)
            runs = [time_build(graft, src, os.path.join(tmp, 'out.gexe'))
                    for _ in range(args.repeat)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            medians[n] = (wall, cpu)
            print(f'{n:>7} ops: median of {args.repeat}: wall {wall:.3f} s, cpu {cpu:.3f} s')
    if len(sizes) == 2:
        (a, b) = sizes
        print(f'ratio {b}/{a}: wall {medians[b][0] / medians[a][0]:.2f}x, '
              f'cpu {medians[b][1] / medians[a][1]:.2f}x')


if __name__ == '__main__':
    main()
