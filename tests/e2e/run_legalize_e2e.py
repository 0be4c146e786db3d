#!/usr/bin/env python3
"""End-to-end tests of the CPU build: Relax programs through `graft run`
(build-cpu: fuse-elementwise, legalize-ops, finalize; then the VM and the CPU
kernels), each result compared with numpy.

    python3 tests/e2e/run_legalize_e2e.py PATH/TO/graft PATH/TO/graft-e2e-op-table [FILTER]

Two parts (docs/testing.md, "End-to-end suite"):

- The op matrix: every op of the compiler's op -> kernel table (printed by
  graft-e2e-op-table) in every dtype its kernel takes, one function per
  (op, dtype) from tests/e2e/op_cases.py, batched into a few modules whose
  `main` calls them all; each batch is run from source with static shapes and
  again with symbolic ones, built to an executable, loaded and run again
  (identical bytes). An op of the table without a case, or a case for an op
  the table does not have, fails; every dtype an op does not take is built
  too and must be refused by `graft build` (exit 2, legalize-ops naming the
  op, the binding and the dtype).
- Program cases below: if, match_cast, host reads, symbolic shapes, tuples.

FILTER keeps the op-matrix ops and program cases whose name contains it.
Exits 0 when everything passes, 1 on a failure, 77 (ctest's skip code) when
numpy is not installed (tools/setup.sh installs Debian's python3-numpy).
"""

import concurrent.futures
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

# unique: each return flag alone, sorted and not (TVM's first-occurrence
# order), an empty input with and without an axis, an axis of empty slices,
# a 0-d input, and a Python bool flag (TVM's wrapper makes it int64).
u7 = np.array([4, -2, 4, 0, -2, 7, 4], np.int32)
case("unique-flags", '''
    @R.function
    def main(x: R.Tensor((7,), "int32"), e: R.Tensor((0,), "float32"), z: R.Tensor((3, 0), "float32"), s: R.Tensor((), "float64")):
        a = R.unique(x, sorted=False)
        b = R.unique(x, R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(0))
        c = R.unique(x, return_inverse=True)
        d = R.unique(x, sorted=False, return_counts=True)
        f = R.unique(e, return_index=True, return_inverse=True, return_counts=True)
        g = R.unique(z, axis=0, return_index=True, return_inverse=True, return_counts=True)
        h = R.unique(s, return_inverse=True)
        i = R.unique(e, sorted=False, axis=0)
        return (a, b[0], b[1], c[0], c[1], d[0], d[1], f[0], f[1], f[2], f[3], g[0], g[1], g[2], g[3], h[0], h[1], i)
''', {"x": u7, "e": np.zeros(0, np.float32), "z": np.zeros((3, 0), np.float32),
      "s": np.array(2.5)}, lambda x, e, z, s: (
    op_cases.np_unique(x, False), *op_cases.np_unique(x, False, index=True),
    *op_cases.np_unique(x, inverse=True), *op_cases.np_unique(x, False, counts=True),
    *op_cases.np_unique(e, index=True, inverse=True, counts=True),
    *op_cases.np_unique(z, index=True, inverse=True, counts=True, axis=0),
    *op_cases.np_unique(s, inverse=True), op_cases.np_unique(e, False, axis=0)))

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



# --------------------------------------------------------------------------
# Running graft
# --------------------------------------------------------------------------

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import op_cases  # noqa: E402  (needs numpy, checked above)

BATCH = 160  # fragments per module: a few graft processes for the whole matrix


def graft_cmd(graft, *args):
    proc = subprocess.run([graft] + list(args), capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def input_flags(workdir, tag, values):
    """Writes each (name, dtype, array) as TAG.NAME.npy; the --input flags."""
    flags = []
    for name, dt, value in values:
        path = os.path.join(workdir, "%s.%s.npy" % (tag, name))
        op_cases.save(path, value, dt)
        flags += ["--input", "%s=%s" % (name, path)]
    return flags


def same_files(dir_a, dir_b):
    """'' when both dirs hold the same files with the same bytes."""
    names_a, names_b = sorted(os.listdir(dir_a)), sorted(os.listdir(dir_b))
    if names_a != names_b:
        return "outputs %s vs %s" % (names_a, names_b)
    for n in names_a:
        with open(os.path.join(dir_a, n), "rb") as fa, open(os.path.join(dir_b, n), "rb") as fb:
            if fa.read() != fb.read():
                return "%s differs between the source run and the executable's" % n
    return ""


def run_saved_and_loaded(graft, src, flags, workdir, tag):
    """Runs SRC, then builds it to TAG.gexe and runs that: (rc, output dir,
    problem). The two runs must write identical bytes."""
    out_src = os.path.join(workdir, tag + ".src")
    rc, text = graft_cmd(graft, "run", src, "--out", out_src, *flags)
    if rc != 0:
        return rc, out_src, "graft run exited %d:\n%s" % (rc, text)
    exe = os.path.join(workdir, tag + ".gexe")
    rc, text = graft_cmd(graft, "build", src, "-o", exe)
    if rc != 0:
        return rc, out_src, "graft build exited %d:\n%s" % (rc, text)
    out_exe = os.path.join(workdir, tag + ".exe")
    rc, text = graft_cmd(graft, "run", exe, "--out", out_exe, *flags)
    if rc != 0:
        return rc, out_src, "graft run %s exited %d:\n%s" % (exe, rc, text)
    return 0, out_src, same_files(out_src, out_exe)


def compare(path, want_dt, want):
    """'' when the .npy at PATH holds WANT (dtype name, values)."""
    if not os.path.exists(path):
        return "no output %s" % os.path.basename(path)
    got_dt, got = op_cases.load(path)
    want = np.asarray(want)
    if got_dt != want_dt:
        return "dtype %s, expected %s" % (got_dt, want_dt)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    tol = op_cases.tolerance(want_dt)
    if tol:
        ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol[0],
                         atol=tol[1], equal_nan=True)
    else:
        ok = np.array_equal(got, want)
    return "" if ok else "values differ\n got %s\nwant %s" % (got, want)


# --------------------------------------------------------------------------
# The op matrix
# --------------------------------------------------------------------------


def read_op_table(table_tool):
    """[(op, rule)] from graft-e2e-op-table."""
    text = subprocess.run([table_tool], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        op, _symbol, _host, rule = line.split()
        rows.append((op, rule))
    return rows


def op_dtypes(op, rule):
    """The dtypes op's kernel takes: its elementwise rule, else the case's list."""
    declared = op_cases.SPECS[op][0]
    if rule != "-":
        if declared is not None:
            raise ValueError("%s: an elementwise-table op takes its dtypes from its rule %s"
                             % (op, rule))
        return op_cases.RULE_DTYPES[rule]
    if declared is None:
        raise ValueError("%s: not in the elementwise table; its case must list its dtypes" % op)
    return declared


def coverage_problems(table):
    ops = [op for op, _ in table]
    problems = []
    missing = [op for op in ops if op not in op_cases.SPECS]
    if missing:
        problems.append("ops of the op -> kernel table without an end-to-end case in "
                        "tests/e2e/op_cases.py: " + ", ".join(missing))
    stale = sorted(set(op_cases.SPECS) - set(ops))
    if stale:
        problems.append("cases for ops the op -> kernel table does not have: " + ", ".join(stale))
    return problems


def batch_module(frags, sym):
    """A module: one function per fragment and a main that calls them all."""
    text = HEADER
    calls, params = [], []
    for k, (_name, frag) in enumerate(frags):
        text += frag.function("f%d" % k, sym) + "\n"
        if frag.params:
            params.append(frag.signature("p%d_" % k, "n%d" % k, sym))
        args = ", ".join("p%d_%s" % (k, n) for n, _, _ in frag.params)
        calls.append("        r%d = cls.f%d(%s)" % (k, k, args))
    text += "    @R.function\n    def main(%s):\n        cls = Module\n" % ", ".join(params)
    text += "\n".join(calls) + "\n"
    text += "        return (%s,)\n" % ", ".join("r%d" % k for k in range(len(frags)))
    return text


def run_batch(graft, frags, sym, workdir, tag):
    """Problems [(name, message)] of one batch."""
    src = os.path.join(workdir, tag + ".py")
    with open(src, "w") as f:
        f.write(batch_module(frags, sym))
    flags = []
    for k, (_name, frag) in enumerate(frags):
        flags += input_flags(workdir, "%s.%d" % (tag, k),
                             [("p%d_%s" % (k, n), dt, a) for n, dt, a in frag.params])
    rc, out_dir, problem = run_saved_and_loaded(graft, src, flags, workdir, tag)
    if rc != 0 and len(frags) > 1:
        # Find the fragments that fail on their own.
        found = []
        for k, item in enumerate(frags):
            found += run_batch(graft, [item], sym, workdir, "%s.%d" % (tag, k))
        return found or [(tag, problem)]
    if problem:
        return [(frags[0][0] if len(frags) == 1 else tag, problem)]
    found = []
    for k, (name, frag) in enumerate(frags):
        try:
            wants = frag.expect()
        except Exception as e:  # a broken oracle is a failure of its case, not of the run
            found.append((name, "oracle raised %r" % e))
            continue
        for j, (want_dt, want) in enumerate(wants):
            msg = compare(os.path.join(out_dir, "output_%d_%d.npy" % (k, j)), want_dt, want)
            if msg:
                found.append((name, "output %s: %s" % (frag.outs[j], msg)))
    return found


def run_refusal(graft, name, frag, workdir, tag):
    """A dtype the kernel does not take: `graft build` must refuse it (exit 2):
    the op registry at the call's location, or legalize-ops naming the op, the
    binding, the dtype and what the kernel takes. A refusal only at run time
    (the kernel's, exit 1) fails."""
    src = os.path.join(workdir, tag + ".py")
    with open(src, "w") as f:
        f.write(batch_module([(name, frag)], False))
    op, dt = name.split("/")
    rc, text = graft_cmd(graft, "build", src, "-o", os.path.join(workdir, tag + ".gexe"))
    if rc == 0:
        return "builds, but the kernel's dtype rule does not take this dtype"
    if rc != 2:
        return "graft build exited %d, expected a refusal with exit 2:\n%s" % (rc, text)
    # The op registry refuses some dtypes while parsing (TVM's float-only
    # ops), located at the call; legalize-ops refuses the rest.
    if ("error: R.%s expects" % op) in text and ("got %s" % dt) in text:
        return ""
    wanted = ["pass legalize-ops needs dtypes its kernel takes: R.%s in binding '" % op,
              " of dtype %s, but graft." % dt, " takes only "]
    missing = [w for w in wanted if w not in text]
    if missing:
        return "graft build refused it, but its message lacks %s:\n%s" % (missing, text)
    return ""


def op_matrix(graft, table_tool, only, workdir, pool):
    """(number of (op, dtype) pairs run, failures [(name, message)])."""
    table = read_op_table(table_tool)
    failures = [("coverage", p) for p in coverage_problems(table)]
    accepted, refused = [], []
    for op, rule in table:
        if op not in op_cases.SPECS or only not in op:
            continue
        try:
            dtypes = op_dtypes(op, rule)
        except ValueError as e:
            failures.append((op, str(e)))
            continue
        build = op_cases.SPECS[op][1]
        for dt in op_cases.ALL:
            item = ("%s/%s" % (op, dt), build(dt))
            (accepted if dt in dtypes else refused).append(item)
    jobs = []
    for sym in (False, True):
        frags = [f for f in accepted if f[1].sym or not sym]
        for b in range(0, len(frags), BATCH):
            tag = "batch%d%s" % (b // BATCH, "-sym" if sym else "")
            batch = [(name + (" (symbolic)" if sym else ""), f) for name, f in frags[b:b + BATCH]]
            jobs.append(pool.submit(run_batch, graft, batch, sym, workdir, tag))
    probes = [(name + " (not taken)",
               pool.submit(run_refusal, graft, name, frag, workdir, "refuse%d" % i))
              for i, (name, frag) in enumerate(refused)]
    for job in jobs:
        failures += job.result()
    for name, job in probes:
        msg = job.result()
        if msg:
            failures.append((name, msg))
    symbolic = sum(1 for _, f in accepted if f.sym)
    return len(accepted), symbolic, len(refused), failures


# --------------------------------------------------------------------------
# Program cases
# --------------------------------------------------------------------------


def run_case(graft, name, body, inputs, expect, workdir):
    src = os.path.join(workdir, name + ".py")
    with open(src, "w") as f:
        f.write(HEADER + body.lstrip("\n"))
    values = []
    for pname, value in inputs.items():
        value = np.asarray(value)
        values.append((pname, str(value.dtype), value))
    flags = input_flags(workdir, name, values)
    rc, out_dir, problem = run_saved_and_loaded(graft, src, flags, workdir, name)
    if problem:
        return problem
    problems = []
    for i, w in enumerate(expect(*inputs.values())):
        w = np.asarray(w)
        msg = compare(os.path.join(out_dir, "output_%d.npy" % i), str(w.dtype), w)
        if msg:
            problems.append("output %d: %s" % (i, msg))
    return "\n".join(problems)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    graft, table_tool = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    failures = []
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        ran, symbolic, refused, matrix_failures = op_matrix(graft, table_tool, only,
                                                                  workdir, pool)
        failures += matrix_failures
        cases = [c for c in CASES if only in c[0]]
        jobs = [(c[0], pool.submit(run_case, graft, *c, workdir)) for c in cases]
        for name, job in jobs:
            problem = job.result()
            if problem:
                failures.append((name, problem))
    for name, problem in failures:
        print("FAIL %s: %s" % (name, problem))
    print("op matrix: %d (op, dtype) pairs run and compared with numpy with static shapes, %d of "
          "them with symbolic ones too, each from source and from a saved executable; %d refused "
          "by graft build as expected" % (ran, symbolic, refused))
    print("program cases: %d; %d failure(s)" % (len(cases), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
