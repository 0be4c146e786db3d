#!/usr/bin/env python3
"""TVM #20267 end to end: a module finalized, then given kill-after-last-use
again, builds and runs with the same results.

    python3 tests/e2e/run_kill_reapply_e2e.py PATH/TO/graft

For tests/e2e/data/kill_reapply.py: `graft opt -p build-cpu` (finalized),
then `graft opt -p kill-after-last-use` on that output, `graft build -o
X.gexe` and `graft run X.gexe`; every function's outputs must be the bytes
`graft run` gives on the source. The re-applied pass must add no kill of a
var bound to `R.null_value()` (it has no register), and a kill of one
written by hand (what TVM's pass emitted) must give no instruction: the
`graft run --dump` bytecode is the same with and without it. Exits 0 when
all holds, 1 otherwise. Needs nothing but graft.
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "data", "kill_reapply.py")
RUNS = [  # (function, run flags)
    ("main", ["--random", "--seed", "3"]),
    ("dyn", ["--random", "--seed", "4", "--dim", "n=3", "--input", "flag=FLAG_TRUE"]),
    ("dyn", ["--random", "--seed", "5", "--dim", "n=2", "--input", "flag=FLAG_FALSE"]),
]


def graft(exe, *args):
    proc = subprocess.run([exe] + list(args), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("graft %s exited %d:\n%s%s" % (" ".join(args), proc.returncode,
                                                          proc.stdout, proc.stderr))
    return proc.stdout


def outputs(d):
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


def write_bool_npy(path, value):
    """A 0-d bool .npy, byte for byte what np.save writes (no numpy needed)."""
    header = "{'descr': '|b1', 'fortran_order': False, 'shape': (), }"
    header += " " * (64 - 10 - len(header) - 1) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
        f.write(b"\x01" if value else b"\x00")


def null_value_vars(text):
    return set(re.findall(r"^\s*(\w+): R\.Object = R\.null_value\(\)", text, re.M))


def killed_vars(text):
    return re.findall(r"R\.vm\.kill_object\((\w+)\)", text)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        flags = {"FLAG_TRUE": os.path.join(tmp, "t.npy"), "FLAG_FALSE": os.path.join(tmp, "f.npy")}
        write_bool_npy(flags["FLAG_TRUE"], True)
        write_bool_npy(flags["FLAG_FALSE"], False)
        finalized = os.path.join(tmp, "finalized.py")
        rekilled = os.path.join(tmp, "rekilled.py")
        graft(exe, "opt", SOURCE, "-p", "build-cpu", "-o", finalized)
        graft(exe, "opt", finalized, "-p", "kill-after-last-use", "-o", rekilled)
        text = open(rekilled).read()
        nulls = null_value_vars(text)
        if "shape_heap" not in nulls:
            problems.append("finalize no longer binds shape_heap = R.null_value(); the test "
                            "lost its subject")
        bad = [v for v in killed_vars(text) if v in nulls]
        if bad:
            problems.append("kill-after-last-use killed vars bound to R.null_value(): %s" % bad)
        if killed_vars(text) != killed_vars(open(finalized).read()):
            problems.append("re-applying kill-after-last-use changed the kills")

        # TVM's bug by hand: a kill of shape_heap right after its binding.
        injected = os.path.join(tmp, "injected.py")
        with open(injected, "w") as f:
            f.write(re.sub(r"^(\s*)(shape_heap: R\.Object = R\.null_value\(\)\n)",
                           r"\1\2\1R.vm.kill_object(shape_heap)\n", text, count=1, flags=re.M))
        if killed_vars(open(injected).read()).count("shape_heap") != 1:
            problems.append("could not inject the kill of shape_heap")
        for fn in ("main", "dyn"):
            dumps = [graft(exe, "run", p, "--fn", fn, "--dump") for p in (rekilled, injected)]
            if dumps[0] != dumps[1]:
                problems.append("function %s: a kill of the null-valued shape_heap changed "
                                "the bytecode" % fn)

        executables = []
        for name, path in (("rekilled", rekilled), ("injected", injected)):
            gexe = os.path.join(tmp, name + ".gexe")
            graft(exe, "build", path, "-o", gexe)
            executables.append((name, gexe))
        for i, (fn, run_flags) in enumerate(RUNS):
            run_flags = [f.replace("FLAG_TRUE", flags["FLAG_TRUE"])
                         .replace("FLAG_FALSE", flags["FLAG_FALSE"]) for f in run_flags]
            want_dir = os.path.join(tmp, "src%d" % i)
            graft(exe, "run", SOURCE, "--fn", fn, "--out", want_dir, *run_flags)
            want = outputs(want_dir)
            for name, gexe in executables:
                got_dir = os.path.join(tmp, "%s%d" % (name, i))
                graft(exe, "run", gexe, "--fn", fn, "--out", got_dir, *run_flags)
                if outputs(got_dir) != want:
                    problems.append("%s %s (run %d): outputs differ from the source's"
                                    % (name, fn, i))
    for p in problems:
        print("FAIL " + p)
    print("%d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print("FAIL %s" % e)
        sys.exit(1)
