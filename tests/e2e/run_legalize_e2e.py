#!/usr/bin/env python3
"""End-to-end tests of legalize-ops: small Relax programs through `graft run`
(build-cpu: fuse-elementwise, legalize-ops, finalize; then the VM and the CPU
kernels), each result compared with numpy.

    python3 tests/e2e/run_legalize_e2e.py PATH/TO/graft [CASE_SUBSTRING]

Exits 0 when every case passes, 1 on a failure, 77 (ctest's skip code) when
numpy is not installed (tools/setup.sh installs Debian's python3-numpy).
"""

import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    # Debian's interpreter is where tools/setup.sh puts numpy; a python3
    # first on PATH (pyenv, a venv) may lack it.
    alt = "/usr/bin/python3"
    if (os.path.exists(alt) and os.path.realpath(alt) != os.path.realpath(sys.executable)
            and not os.environ.get("GRAFT_E2E_REEXEC")):
        os.environ["GRAFT_E2E_REEXEC"] = "1"
        os.execv(alt, [alt] + sys.argv)
    print("SKIP: numpy is not installed (tools/setup.sh installs python3-numpy)")
    sys.exit(77)

HEADER = "from tvm.script import ir as I, relax as R, tir as T\n\n\n@I.ir_module\nclass Module:\n"

rng = np.random.default_rng(20261203)


def f32(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


def i32(*shape, lo=-9, hi=10):
    return rng.integers(lo, hi, size=shape).astype(np.int32)


def i64(*shape, lo=0, hi=4):
    return rng.integers(lo, hi, size=shape).astype(np.int64)


def erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64)).astype(x.dtype)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, g, b, eps):
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def scatter_add(data, idx, upd, axis):
    out = data.copy()
    for pos in np.ndindex(*idx.shape):
        tgt = list(pos)
        tgt[axis] = idx[pos]
        out[tuple(tgt)] += upd[pos]
    return out


def index_put_acc(data, rows, cols, vals):
    out = data.copy()
    np.add.at(out, (rows, cols), vals)
    return out


def cumsum_exclusive(x, axis):
    c = np.cumsum(x, axis=axis)
    return c - x


# Each case: name, the body of `main` (4-space indented inside the class),
# the inputs by parameter name, and a function of the inputs giving the
# expected outputs (a tuple, in order).
CASES = []


def case(name, body, inputs, expect):
    CASES.append((name, body, inputs, expect))


a23, b3 = f32(2, 3), f32(3)
case("unary-float32", '''
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        a = R.exp(x)
        b = R.tanh(x)
        c = R.sigmoid(x)
        d = R.sqrt(R.abs(x))
        e = R.nn.relu(x)
        f = R.nn.silu(x)
        g = R.nn.gelu(x)
        h = R.erf(x)
        i = R.negative(R.floor(x))
        return (a, b, c, d, e, f, g, h, i)
''', {"x": a23}, lambda x: (np.exp(x), np.tanh(x), 1 / (1 + np.exp(-x)), np.sqrt(np.abs(x)),
                            np.maximum(x, 0), x / (1 + np.exp(-x)),
                            0.5 * x * (1 + erf(x / np.float32(math.sqrt(2)))), erf(x),
                            -np.floor(x)))

a23_64 = rng.uniform(0.5, 3.0, size=(2, 3))
case("unary-float64", '''
    @R.function
    def main(x: R.Tensor((2, 3), "float64")):
        return (R.log(x), R.rsqrt(x), R.cos(x), R.round(x))
''', {"x": a23_64}, lambda x: (np.log(x), 1 / np.sqrt(x), np.cos(x), np.round(x)))

case("binary-broadcast-float32", '''
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32")):
        return (R.add(x, y), R.subtract(x, y), R.multiply(x, y), R.divide(x, y),
                R.maximum(x, y), R.minimum(y, x), R.power(R.abs(x), y))
''', {"x": a23, "y": b3}, lambda x, y: (x + y, x - y, x * y, x / y, np.maximum(x, y),
                                        np.minimum(y, x), np.abs(x) ** y))

xi, yi = i32(4, 3), i32(3, lo=1, hi=6) * np.array([1, -1, 1], dtype=np.int32)
case("binary-int32", '''
    @R.function
    def main(x: R.Tensor((4, 3), "int32"), y: R.Tensor((3,), "int32")):
        return (R.add(x, y), R.multiply(x, y), R.divide(x, y), R.floor_divide(x, y),
                R.mod(x, y), R.floor_mod(x, y), R.bitwise_and(x, y), R.left_shift(x, R.const(2, "int32")))
''', {"x": xi, "y": yi}, lambda x, y: (x + y, x * y, np.fix(x / y).astype(np.int32),
                                        np.floor_divide(x, y), np.fmod(x, y), np.mod(x, y),
                                        x & y, x << 2))

case("compare-logical", '''
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32")):
        a = R.less(x, y)
        b = R.greater_equal(x, y)
        c = R.equal(x, x)
        d = R.logical_and(a, c)
        e = R.logical_not(a)
        f = R.isnan(x)
        return (a, b, c, d, e, f)
''', {"x": a23, "y": b3}, lambda x, y: (x < y, x >= y, x == x, (x < y) & (x == x), ~(x < y),
                                        np.isnan(x)))

u8a, u8b = rng.integers(0, 256, (2, 3), dtype=np.uint8), rng.integers(0, 256, (3,), dtype=np.uint8)
s8 = rng.integers(-128, 128, (2, 3), dtype=np.int8)
l64 = rng.integers(-1000, 1000, (2, 3), dtype=np.int64)
ba, bb = rng.random((2, 3)) < 0.5, rng.random((2, 3)) < 0.5
h16 = f32(2, 3).astype(np.float16)
case("small-int-bool-half", '''
    @R.function
    def main(a: R.Tensor((2, 3), "uint8"), b: R.Tensor((3,), "uint8"), s: R.Tensor((2, 3), "int8"), l: R.Tensor((2, 3), "int64"), p: R.Tensor((2, 3), "bool"), q: R.Tensor((2, 3), "bool"), h: R.Tensor((2, 3), "float16")):
        c = R.add(a, b)
        d = R.multiply(s, s)
        e = R.cumsum(l, axis=1)
        f = R.logical_or(p, q)
        g = R.bitwise_xor(p, q)
        i = R.exp(h)
        j = R.astype(l, "int8")
        k = R.sum(h, axis=[1])
        return (c, d, e, f, g, i, j, k)
''', {"a": u8a, "b": u8b, "s": s8, "l": l64, "p": ba, "q": bb, "h": h16},
    lambda a, b, s, l, p, q, h: (a + b, s * s, np.cumsum(l, axis=1), p | q, p ^ q,
                                 np.exp(h.astype(np.float32)).astype(np.float16), l.astype(np.int8),
                                 h.astype(np.float32).sum(axis=1).astype(np.float16)))

x234 = f32(2, 3, 4)
case("reductions", '''
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32")):
        a = R.sum(x, axis=[1, -1], keepdims=True)
        b = R.mean(x)
        c = R.max(x, axis=[0])
        d = R.min(x, axis=[2], keepdims=True)
        e = R.prod(x, axis=[1])
        f = R.argmax(x, axis=1)
        g = R.argmin(x)
        h = R.variance(x, axis=[2])
        i = R.std(x, axis=[0, 1])
        return (a, b, c, d, e, f, g, h, i)
''', {"x": x234}, lambda x: (x.sum(axis=(1, 2), keepdims=True), x.mean(), x.max(axis=0),
                             x.min(axis=2, keepdims=True), x.prod(axis=1), x.argmax(axis=1),
                             np.int64(x.argmin()), x.var(axis=2), x.std(axis=(0, 1))))

xr = i32(3, 4)
case("reductions-int32", '''
    @R.function
    def main(x: R.Tensor((3, 4), "int32")):
        return (R.sum(x, axis=[1]), R.max(x), R.argmax(x, axis=0, keepdims=True))
''', {"x": xr}, lambda x: (x.sum(axis=1, dtype=np.int32), x.max(),
                           x.argmax(axis=0)[None, :].astype(np.int64)))

x24, g4, bb4 = f32(2, 4), f32(4), f32(4)
case("nn", '''
    @R.function
    def main(x: R.Tensor((2, 4), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32")):
        a = R.nn.softmax(x, axis=0)
        c = R.nn.log_softmax(x)
        d = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-5)
        e = R.nn.rms_norm(x, g)
        return (a, c, d, e)
''', {"x": x24, "g": g4, "b": bb4}, lambda x, g, b: (
    softmax(x, 0), np.log(softmax(x, -1)), layer_norm(x, g, b, 1e-5),
    x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-5) * g))

ma, mb = f32(2, 3, 4), f32(4, 5)
case("matmul", '''
    @R.function
    def main(a: R.Tensor((2, 3, 4), "float32"), b: R.Tensor((4, 5), "float32"), v: R.Tensor((4,), "float32")):
        return (R.matmul(a, b), R.matmul(a, v))
''', {"a": ma, "b": mb, "v": g4}, lambda a, b, v: (a @ b, a @ v))

ha, hb = f32(3, 8).astype(np.float16), f32(8, 2).astype(np.float16)
case("matmul-float16-int32", '''
    @R.function
    def main(a: R.Tensor((3, 8), "float16"), b: R.Tensor((8, 2), "float16"), c: R.Tensor((4, 3), "int32")):
        return (R.matmul(a, b), R.matmul(a, b, out_dtype="float32"), R.matmul(c, R.permute_dims(c)))
''', {"a": ha, "b": hb, "c": xi}, lambda a, b, c: (
    (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16),
    a.astype(np.float32) @ b.astype(np.float32), c @ c.T))

y234 = f32(2, 3, 4)
case("layout", '''
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32"), y: R.Tensor((2, 3, 4), "float32")):
        a = R.reshape(x, (6, 4))
        b = R.permute_dims(x, axes=[2, 0, 1])
        c = R.permute_dims(x)
        d = R.strided_slice(x, axes=[1, 2], begin=[0, -1], end=[2, 0], strides=[1, -1])
        e = R.concat((x, y), axis=1)
        f = R.flatten(x)
        g = R.expand_dims(x, axis=[0, -1])
        h = R.squeeze(R.expand_dims(x, axis=[1]))
        i = R.broadcast_to(R.sum(x, axis=[0], keepdims=True), (3, 3, 4))
        return (a, b, c, d, e, f, g, h, i)
''', {"x": x234, "y": y234}, lambda x, y: (
    x.reshape(6, 4), x.transpose(2, 0, 1), x.transpose(), x[:, 0:2, -1:0:-1],
    np.concatenate([x, y], axis=1), x.reshape(-1), x[None, ..., None], x,
    np.broadcast_to(x.sum(axis=0, keepdims=True), (3, 3, 4))))

x64 = f32(6, 4)
case("split", '''
    @R.function
    def main(x: R.Tensor((6, 4), "float32")):
        a = R.split(x, 3)
        b = R.split(x, [1, 3], axis=0)
        c = R.concat(a, axis=1)
        return (b[0], b[1], b[2], c)
''', {"x": x64}, lambda x: tuple(np.split(x, [1, 3])) + (np.concatenate(np.split(x, 3), axis=1),))

x43, idx2, m43 = f32(4, 3), np.array([3, -1], dtype=np.int64), rng.random((4, 3)) < 0.5
case("take-where-astype-clip", '''
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), i: R.Tensor((2,), "int64"), m: R.Tensor((4, 3), "bool")):
        a = R.take(x, i, axis=0)
        b = R.take(x, R.const([5, -7], "int64"), axis=1, mode="clip")
        c = R.where(m, x, R.const(0, "float32"))
        d = R.astype(R.multiply(x, R.const(3, "float32")), "int32")
        e = R.clip(x, -1, 1)
        f = R.astype(m, "float32")
        return (a, b, c, d, e, f)
''', {"x": x43, "i": idx2, "m": m43}, lambda x, i, m: (
    x[[3, -1]], x[:, [2, 0]], np.where(m, x, 0).astype(np.float32), (x * 3).astype(np.int32),
    np.clip(x, -1, 1), m.astype(np.float32)))

x33 = f32(3, 3)
case("creation", '''
    @R.function
    def main(x: R.Tensor((3, 3), "float32")):
        a = R.zeros((2, 3), "int32")
        b = R.full((2, 3), R.const(1.5, "float32"), "float32")
        c = R.arange(1, 10, 2)
        d = R.ones_like(x)
        e = R.full_like(x, R.const(2, "int32"))
        f = R.tril(x, 1)
        g = R.triu(x)
        h = R.ones((4,), "bool")
        return (a, b, c, d, e, f, g, h)
''', {"x": x33}, lambda x: (np.zeros((2, 3), np.int32), np.full((2, 3), 1.5, np.float32),
                            np.arange(1, 10, 2, dtype=np.int64), np.ones_like(x),
                            np.full_like(x, 2), np.tril(x, 1), np.triu(x), np.ones(4, bool)))

xs = np.array([[3, 1, 2, 1], [0, 5, 5, -2]], dtype=np.float32)
case("sort-scan", '''
    @R.function
    def main(x: R.Tensor((2, 4), "float32")):
        a = R.sort(x, axis=1, descending=True)
        b = R.argsort(x, dtype="int64")
        c = R.cumsum(x, axis=1, exclusive=True)
        d = R.cumsum(x, dtype="float64")
        e = R.cumprod(x, axis=0)
        return (a, b, c, d, e)
''', {"x": xs}, lambda x: (-np.sort(-x, axis=1), np.argsort(x, kind="stable").astype(np.int64),
                          cumsum_exclusive(x, 1), np.cumsum(x.astype(np.float64)),
                          np.cumprod(x, axis=0)))

si, su, rr, rc, vv = i64(2, 3), f32(2, 3), np.array([0, 2, 0]), np.array([1, 1, 1]), f32(3)
case("scatter-index", '''
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), i: R.Tensor((2, 3), "int64"), u: R.Tensor((2, 3), "float32"), r: R.Tensor((3,), "int64"), c: R.Tensor((3,), "int64"), v: R.Tensor((3,), "float32")):
        a = R.scatter_elements(x, i, u, axis=0, reduction="add")
        b = R.index_put(x, (r, c), v, accumulate=True)
        d = R.index_tensor(x, (r,))
        return (a, b, d)
''', {"x": x43, "i": si, "u": su, "r": rr, "c": rc, "v": vv}, lambda x, i, u, r, c, v: (
    scatter_add(x, i, u, 0), index_put_acc(x, r, c, v), x[r]))

mask4 = np.array([True, False, True, True])
case("host-mask-nonzero", '''
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), m: R.Tensor((4,), "bool")):
        k = T.int64()
        a = R.index_tensor(x, (m,))
        a1 = R.match_cast(a, R.Tensor((k, 3), "float32"))
        b = R.exp(a1)
        c = R.nonzero(m)
        return (b, c)
''', {"x": x43, "m": mask4}, lambda x, m: (np.exp(x[m]), np.stack(np.nonzero(m))))

xn, y14 = f32(5, 4), f32(1, 4)
case("symbolic", '''
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor((1, 4), "float32")):
        n = T.int64()
        a = R.add(x, y)
        b = R.sum(a, axis=[0])
        c = R.reshape(a, (n * 4,))
        d = R.strided_slice(a, axes=[0], begin=[1], end=[n])
        return (b, c, d)
''', {"x": xn, "y": y14}, lambda x, y: ((x + y).sum(axis=0), (x + y).reshape(-1), (x + y)[1:]))

for flag in (True, False):
    case("if-and-nested-" + str(flag).lower(), '''
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
        if c:
            r = R.sqrt(R.abs(x))
        else:
            r = R.negative(x)
        return (r,)
''', {"x": g4, "c": np.array(flag)}, lambda x, c: ((np.sqrt(np.abs(x)) if c else -x),))


def tolerance(dtype):
    if dtype == np.float16:
        return 2e-2, 2e-2
    if dtype == np.float32:
        return 2e-5, 2e-6
    return 1e-12, 1e-12


def run_case(graft, name, body, inputs, expect, workdir):
    src = os.path.join(workdir, name + ".py")
    with open(src, "w") as f:
        f.write(HEADER + body.lstrip("\n"))
    cmd = [graft, "run", src, "--out", os.path.join(workdir, name)]
    for pname, value in inputs.items():
        path = os.path.join(workdir, "%s.%s.npy" % (name, pname))
        np.save(path, np.asarray(value))
        cmd += ["--input", "%s=%s" % (pname, path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return "graft run exited %d:\n%s%s" % (proc.returncode, proc.stdout, proc.stderr)
    want = expect(*inputs.values())
    problems = []
    for i, w in enumerate(want):
        w = np.asarray(w)
        got = np.load(os.path.join(workdir, name, "output_%d.npy" % i))
        if got.dtype != w.dtype:
            problems.append("output %d: dtype %s, expected %s" % (i, got.dtype, w.dtype))
        elif got.shape != w.shape:
            problems.append("output %d: shape %s, expected %s" % (i, got.shape, w.shape))
        elif np.issubdtype(w.dtype, np.floating):
            rtol, atol = tolerance(w.dtype)
            if not np.allclose(got, w, rtol=rtol, atol=atol, equal_nan=True):
                problems.append("output %d: values differ\n got %s\nwant %s" % (i, got, w))
        elif not np.array_equal(got, w):
            problems.append("output %d: values differ\n got %s\nwant %s" % (i, got, w))
    return "\n".join(problems)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    graft = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    failed = 0
    ran = 0
    with tempfile.TemporaryDirectory() as workdir:
        for name, body, inputs, expect in CASES:
            if only not in name:
                continue
            ran += 1
            problem = run_case(graft, name, body, inputs, expect, workdir)
            if problem:
                failed += 1
                print("FAIL %s: %s" % (name, problem))
            else:
                print("ok   %s" % name)
    print("%d passed, %d failed" % (ran - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
