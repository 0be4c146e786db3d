#!/usr/bin/env python3
"""Runs one example the way the README says, then checks its numbers.

    python3 tests/e2e/run_example.py PATH/TO/graft NAME

1. Finds every README command `build/tools/graft run examples/NAME.py ...`
   and runs exactly that text with bash, in a scratch directory where
   `examples/` is the repository's and `build/tools/graft` is the graft under
   test (a README line `tools/build.sh && build/tools/graft run ...` is run
   from `build/tools/graft`: the build already happened). It must exit 0 and
   write its `--out` directory.
2. With numpy (tools/setup.sh installs python3-numpy): runs the example on
   seeded inputs and compares the output with a numpy version of the program;
   for the transformer block, an input with a huge value must fail the
   device assert with exit 1 and its message.

Exits 0 when all holds, 1 otherwise.
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import numpy as np
except ImportError:
    # Debian's interpreter is where tools/setup.sh puts numpy; a python3 first
    # on PATH (pyenv, a venv) may lack it.
    alt = "/usr/bin/python3"
    if (os.path.exists(alt) and os.path.realpath(alt) != os.path.realpath(sys.executable)
            and not os.environ.get("GRAFT_E2E_REEXEC")):
        os.environ["GRAFT_E2E_REEXEC"] = "1"
        os.execv(alt, [alt] + sys.argv)
    np = None


def readme_commands(name):
    """The README's distinct `build/tools/graft run examples/NAME.py ...` commands."""
    text = open(os.path.join(ROOT, "README.md")).read()
    found = re.findall(r"(build/tools/graft run examples/%s\.py[^\n`|]*)" % re.escape(name), text)
    return sorted(set(c.strip() for c in found))


def first_readme_command():
    """The first command line of the README's first shell block."""
    text = open(os.path.join(ROOT, "README.md")).read()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    lines = [l for l in (block.group(1).splitlines() if block else [])
             if l.strip() and not l.lstrip().startswith("#")]
    return lines[0].strip() if lines else ""


def run_readme_command(graft, cmd):
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.join(ROOT, "examples"), os.path.join(tmp, "examples"))
        os.makedirs(os.path.join(tmp, "build", "tools"))
        os.symlink(os.path.abspath(graft), os.path.join(tmp, "build", "tools", "graft"))
        proc = subprocess.run(["bash", "-c", cmd], cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            return "`%s` exited %d:\n%s%s" % (cmd, proc.returncode, proc.stdout, proc.stderr)
        args = shlex.split(cmd)
        if "--out" not in args:
            return "`%s` has no --out DIR" % cmd
        out = os.path.join(tmp, args[args.index("--out") + 1])
        if not os.path.exists(os.path.join(out, "output.npy")):
            return "`%s` wrote no %s/output.npy" % (cmd, args[args.index("--out") + 1])
        if np is not None and not np.all(np.isfinite(np.load(os.path.join(out, "output.npy")))):
            return "`%s` wrote non-finite values" % cmd
    return ""


# --------------------------------------------------------------------------
# numpy versions of the examples
# --------------------------------------------------------------------------


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, g, b, eps=1e-5):
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def f32(rng, *shape, scale=1.0):
    return (rng.uniform(-1, 1, shape) * scale).astype(np.float32)


def mlp_case(rng):
    inputs = {"x": f32(rng, 3, 784), "w1": f32(rng, 784, 128, scale=0.05),
              "b1": f32(rng, 128), "w2": f32(rng, 128, 10, scale=0.1)}

    def expect(x, w1, b1, w2):
        x, w1, b1, w2 = (a.astype(np.float64) for a in (x, w1, b1, w2))
        return softmax(np.maximum(x @ w1 + b1, 0) @ w2)
    return inputs, expect


def transformer_case(rng):
    d = 64
    inputs = {"x": f32(rng, 5, d), "keep": rng.random((5, d)) < 0.3,
              "gamma": f32(rng, d), "beta": f32(rng, d)}
    for w in ("wq", "wk", "wv", "wo"):
        inputs[w] = f32(rng, d, d, scale=0.2)

    def expect(x, keep, gamma, beta, wq, wk, wv, wo):
        x64 = x.astype(np.float64)
        ln = layer_norm(x64, gamma, beta)
        q, k, v = ln @ wq, ln @ wk, ln @ wv
        attn = softmax((q @ k.T) * 0.125)
        y = x64 + (attn @ v) @ wo
        y[keep] = x64[keep]
        return y
    return inputs, expect


def dynamic_shape_case(rng):
    inputs = {"x": f32(rng, 1, 576, 64), "w": f32(rng, 64, 64, scale=0.2)}

    def expect(x, w):
        grid = ((x.astype(np.float64) @ w) * 0.5).reshape(24, 24, 64)
        return grid + grid.sum(axis=2, keepdims=True)
    return inputs, expect


CASES = {"mlp": mlp_case, "transformer_block": transformer_case,
         "dynamic_shape": dynamic_shape_case}


def check_numbers(graft, name):
    rng = np.random.default_rng(7)
    inputs, expect = CASES[name](rng)
    src = os.path.join(ROOT, "examples", name + ".py")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        def run(values, out):
            flags = []
            for pname, value in values.items():
                path = os.path.join(tmp, pname + ".npy")
                np.save(path, value)
                flags += ["--input", "%s=%s" % (pname, path)]
            return subprocess.run([graft, "run", src, "--out", out] + flags,
                                  capture_output=True, text=True)
        proc = run(inputs, os.path.join(tmp, "out"))
        if proc.returncode != 0:
            return ["graft run %s exited %d:\n%s" % (name, proc.returncode, proc.stderr)]
        got = np.load(os.path.join(tmp, "out", "output.npy"))
        want = expect(**inputs)
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5):
            problems.append("%s: output differs from numpy (max abs diff %s)"
                            % (name, np.abs(got - want).max() if got.shape == want.shape
                               else "shape %s vs %s" % (got.shape, want.shape)))
        if name == "transformer_block":
            # A value no finite block output can hide: the device assert fires.
            bad = dict(inputs)
            bad["x"] = inputs["x"].copy()
            bad["x"][0, 0] = 3e38
            bad["keep"] = np.ones_like(inputs["keep"])
            proc = run(bad, os.path.join(tmp, "bad"))
            message = "the block produced a non-finite value"
            if proc.returncode != 1 or message not in proc.stderr:
                problems.append("transformer_block with a huge input: exit %d, expected 1 with "
                                "'%s':\n%s" % (proc.returncode, message, proc.stderr))
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    graft, name = sys.argv[1], sys.argv[2]
    problems = []
    cmds = readme_commands(name)
    if not cmds:
        problems.append("README.md has no `build/tools/graft run examples/%s.py ...` command"
                        % name)
    for cmd in cmds:
        print("README: " + cmd)
        msg = run_readme_command(graft, cmd)
        if msg:
            problems.append(msg)
    first = first_readme_command()
    if name == "mlp" and not first.startswith("tools/build.sh && build/tools/graft run "
                                              "examples/mlp.py "):
        problems.append("the README's first command must build graft and run examples/mlp.py; "
                        "it is `%s`" % first)
    if np is None:
        print("numpy is not installed: the numbers are not checked")
    elif name not in CASES:
        problems.append("no numpy version of examples/%s.py in %s" % (name, __file__))
    else:
        problems += check_numbers(graft, name)
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
