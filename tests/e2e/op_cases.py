"""One end-to-end case per op of the op -> kernel table, per dtype, with its
numpy oracle. Used by run_legalize_e2e.py, which takes the list of ops to
cover and each elementwise op's dtype rule from graft-e2e-op-table
(tests/e2e/OpTable.cpp) and fails when an op of that list has no entry here.

An entry is `spec(OP, DTYPES)(builder)`: `builder(dt)` returns a Frag for
dtype `dt` (a program fragment plus a lazy oracle). DTYPES is None for an
op of the elementwise table (its rule decides) and otherwise the dtypes the
kernel takes; the runner also builds every other dtype and expects `graft
build` to refuse it (exit 2, legalize-ops naming the op, the binding and the
dtype), so a declared set that is too small or too large fails as well.

Arrays here are numpy arrays; a bfloat16 array is a float32 array holding
bfloat16-exact values (numpy has no bfloat16), written to and read from the
.npy form graft uses (docs/kernels.md, "Runtime: .npy files").
"""

import math

import numpy as np

INTS = ["int8", "int16", "int32", "int64", "uint8"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
ALL = ["bool"] + INTS + FLOATS
NON_BOOL = INTS + FLOATS

# The dtype rules of kernels/cpu/ElementwiseOps.h, by name.
RULE_DTYPES = {
    "Numeric": NON_BOOL,
    "Arithmetic": NON_BOOL,
    "Float": FLOATS,
    "IntOrBool": ["bool"] + INTS,
    "Int": INTS,
    "Compare": ALL,
    # TVM's inference gives a logical op its operands' dtype; the kernels
    # write bool, so bool operands only (legalize-ops refuses the others).
    "Logical": ["bool"],
    "Predicate": ALL,
}

rng = np.random.default_rng(20261203)

# --------------------------------------------------------------------------
# dtypes and arrays
# --------------------------------------------------------------------------


def bf16_bits(x):
    """float32 -> bfloat16 bits, rounding to nearest even."""
    b = np.atleast_1d(np.asarray(x, np.float32)).view(np.uint32).astype(np.uint64)
    u = np.uint64
    bits = ((b + u(0x7FFF) + ((b >> u(16)) & u(1))) >> u(16)).astype(np.uint16)
    return bits.reshape(np.shape(x))


def bf16_from_bits(bits):
    wide = np.atleast_1d(np.asarray(bits)).astype(np.uint32) << np.uint32(16)
    return wide.view(np.float32).reshape(np.shape(bits))


def cast(x, dt):
    """Values as dtype `dt` (bfloat16: float32 holding rounded values)."""
    x = np.asarray(x)
    if dt == "bfloat16":
        return bf16_from_bits(bf16_bits(x.astype(np.float32)))
    with np.errstate(all="ignore"):
        return x.astype(dt)


def up(x, dt):
    """What an oracle computes on: float64 for floats, the array otherwise."""
    return np.asarray(x, np.float64) if dt in FLOATS else np.asarray(x)


def is_float(dt):
    return dt in FLOATS


def gen(dt, shape, kind="any"):
    """Random values of `dt`. kind: any, pos (floats > 0.5), unit (|x| < 0.9),
    ge1 (x > 1.1), small (integers 0..3), nz (integers without 0)."""
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt in FLOATS:
        lo, hi = {"any": (-2, 2), "pos": (0.5, 3), "unit": (-0.9, 0.9), "ge1": (1.1, 3),
                  "small": (0, 3), "nz": (0.5, 3), "wide": (0, 10)}[kind]
        return cast(rng.uniform(lo, hi, shape), dt)
    unsigned = dt == "uint8"
    lo, hi = {"any": (0 if unsigned else -9, 20 if unsigned else 10), "pos": (1, 10),
              "unit": (0, 2), "ge1": (1, 10), "small": (0, 4), "wide": (0, 11),
              "nz": (1, 10)}[kind]
    x = rng.integers(lo, hi, shape).astype(dt)
    if kind == "nz" and not unsigned:
        x = x * np.where(rng.random(shape) < 0.5, -1, 1).astype(dt)
    return x


def save(path, x, dt):
    if dt == "bfloat16":
        s = np.zeros(np.shape(x), dtype=[("bfloat16", "<u2")])
        s["bfloat16"] = bf16_bits(x)
        np.save(path, s)
    else:
        np.save(path, np.asarray(x).astype(dt))


def load(path):
    """(dtype name, values) of a .npy graft wrote."""
    a = np.load(path)
    if a.dtype.names == ("bfloat16",):
        return "bfloat16", bf16_from_bits(a["bfloat16"])
    return str(a.dtype), a


def tolerance(dt):
    return {"float16": (1e-2, 1e-2), "bfloat16": (3e-2, 3e-2), "float32": (2e-5, 2e-6),
            "float64": (1e-10, 1e-12)}.get(dt)


# --------------------------------------------------------------------------
# fragments
# --------------------------------------------------------------------------


def rtype(shape, dt, sym=False, sym_name="n"):
    dims = [str(d) for d in shape]
    if sym and dims:
        dims[0] = '"%s"' % sym_name
    inner = "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"
    return 'R.Tensor(%s, "%s")' % (inner, dt)


class Frag:
    """A function body over named tensor params and the expected outputs.

    params: [(name, dtype, array)]; body: lines binding the outputs; outs:
    the output var names; expect(): [(dtype, array)] in the order of outs;
    sym: whether the params' first dim may be symbolic (the body names no
    shape literal that depends on it)."""

    def __init__(self, params, body, outs, expect, sym=False):
        self.params, self.body, self.outs, self.expect, self.sym = params, body, outs, expect, sym

    def symbolic(self, i, sym):
        """Whether param i's first dim is symbolic: those of the first param's
        rank and first dim, when the fragment is built symbolic."""
        if not sym or not self.params:
            return False
        first, shape = np.shape(self.params[0][2]), np.shape(self.params[i][2])
        return len(shape) == len(first) and len(shape) > 0 and shape[0] == first[0]

    def signature(self, prefix="", sym_name="n", sym=False):
        return ", ".join("%s%s: %s" % (prefix, n, rtype(np.shape(a), dt, self.symbolic(i, sym),
                                                        sym_name))
                         for i, (n, dt, a) in enumerate(self.params))

    def function(self, fname, sym=False):
        lines = ["    @R.function", "    def %s(%s):" % (fname, self.signature(sym=sym))]
        lines += ["        " + b for b in self.body]
        lines.append("        return (%s,)" % ", ".join(self.outs))
        return "\n".join(lines) + "\n"


def out(dt, x):
    return (dt, cast(x, dt))


SPECS = {}

def spec(op, dtypes=None):
    def register(builder):
        SPECS[op] = (dtypes, builder)
        return builder
    return register


def errstate(f):
    def wrapped(*a):
        with np.errstate(all="ignore"):
            return f(*a)
    return wrapped


# --------------------------------------------------------------------------
# the elementwise table
# --------------------------------------------------------------------------


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _int_identity(f):
    return lambda x, dt: f(x) if is_float(dt) else x


UNARY = {
    # op: (oracle on up(x) and dt, input kind)
    "abs": (lambda x, dt: np.abs(x), "any"),
    "negative": (lambda x, dt: np.negative(x), "any"),
    "nn.relu": (lambda x, dt: np.maximum(x, x.dtype.type(0)), "any"),
    "floor": (_int_identity(np.floor), "any"),
    "ceil": (_int_identity(np.ceil), "any"),
    "round": (_int_identity(np.round), "any"),
    "trunc": (_int_identity(np.trunc), "any"),
    "sign": (lambda x, dt: np.sign(x), "any"),
    "square": (lambda x, dt: np.square(x), "any"),
    "exp": (lambda x, dt: np.exp(x), "any"),
    "log": (lambda x, dt: np.log(x), "pos"),
    "sqrt": (lambda x, dt: np.sqrt(x), "pos"),
    "rsqrt": (lambda x, dt: 1 / np.sqrt(x), "pos"),
    "tanh": (lambda x, dt: np.tanh(x), "any"),
    "sigmoid": (lambda x, dt: 1 / (1 + np.exp(-x)), "any"),
    "sin": (lambda x, dt: np.sin(x), "any"),
    "cos": (lambda x, dt: np.cos(x), "any"),
    "tan": (lambda x, dt: np.tan(x), "unit"),
    "asin": (lambda x, dt: np.arcsin(x), "unit"),
    "acos": (lambda x, dt: np.arccos(x), "unit"),
    "atan": (lambda x, dt: np.arctan(x), "any"),
    "sinh": (lambda x, dt: np.sinh(x), "any"),
    "cosh": (lambda x, dt: np.cosh(x), "any"),
    "asinh": (lambda x, dt: np.arcsinh(x), "any"),
    "acosh": (lambda x, dt: np.arccosh(x), "ge1"),
    "atanh": (lambda x, dt: np.arctanh(x), "unit"),
    "erf": (lambda x, dt: _erf(x), "any"),
    "nn.gelu": (lambda x, dt: 0.5 * x * (1 + _erf(x / math.sqrt(2))), "any"),
    "nn.gelu_tanh": (lambda x, dt: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                                          (x + 0.044715 * x ** 3))), "any"),
    "nn.silu": (lambda x, dt: x / (1 + np.exp(-x)), "any"),
    "nn.selu": (lambda x, dt: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 *
                                                              np.expm1(x)), "any"),
    "bitwise_not": (lambda x, dt: np.invert(x), "any"),
    "logical_not": (lambda x, dt: np.logical_not(x), "any"),
    "isnan": (lambda x, dt: np.isnan(x) if is_float(dt) else np.zeros(x.shape, bool), "any"),
    "isinf": (lambda x, dt: np.isinf(x) if is_float(dt) else np.zeros(x.shape, bool), "any"),
    "isfinite": (lambda x, dt: np.isfinite(x) if is_float(dt) else np.ones(x.shape, bool),
                 "any"),
}


def _trunc_div(a, b, dt):
    if is_float(dt):
        return a / b
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return (q + fix.astype(q.dtype)).astype(q.dtype)


BINARY = {
    # op: (oracle on up(a), up(b) and dt, kind of a, kind of b)
    "add": (lambda a, b, dt: a + b, "any", "any"),
    "subtract": (lambda a, b, dt: a - b, "any", "any"),
    "multiply": (lambda a, b, dt: a * b, "any", "any"),
    "divide": (_trunc_div, "any", "nz"),
    "floor_divide": (lambda a, b, dt: np.floor_divide(a, b), "any", "nz"),
    "power": (lambda a, b, dt: np.power(a, b), "small", "small"),
    "mod": (lambda a, b, dt: np.fmod(a, b), "any", "nz"),
    "floor_mod": (lambda a, b, dt: np.mod(a, b), "any", "nz"),
    "maximum": (lambda a, b, dt: np.maximum(a, b), "any", "any"),
    "minimum": (lambda a, b, dt: np.minimum(a, b), "any", "any"),
    "log_add_exp": (lambda a, b, dt: np.logaddexp(a, b), "any", "any"),
    "logical_and": (lambda a, b, dt: np.logical_and(a, b), "any", "any"),
    "logical_or": (lambda a, b, dt: np.logical_or(a, b), "any", "any"),
    "logical_xor": (lambda a, b, dt: np.logical_xor(a, b), "any", "any"),
    "bitwise_and": (lambda a, b, dt: np.bitwise_and(a, b), "any", "any"),
    "bitwise_or": (lambda a, b, dt: np.bitwise_or(a, b), "any", "any"),
    "bitwise_xor": (lambda a, b, dt: np.bitwise_xor(a, b), "any", "any"),
    "left_shift": (lambda a, b, dt: np.left_shift(a, b), "any", "small"),
    "right_shift": (lambda a, b, dt: np.right_shift(a, b), "any", "small"),
    "equal": (lambda a, b, dt: a == b, "any", "any"),
    "not_equal": (lambda a, b, dt: a != b, "any", "any"),
    "less": (lambda a, b, dt: a < b, "any", "any"),
    "less_equal": (lambda a, b, dt: a <= b, "any", "any"),
    "greater": (lambda a, b, dt: a > b, "any", "any"),
    "greater_equal": (lambda a, b, dt: a >= b, "any", "any"),
}


def _result(dt, value):
    """An elementwise result: bool stays bool, anything else is cast to dt."""
    value = np.asarray(value)
    return out("bool", value) if value.dtype == bool else out(dt, value)


def _unary(op, f, kind):
    def build(dt):
        x = gen(dt, (2, 3), kind)
        if op in ("isnan", "isinf", "isfinite") and is_float(dt):
            x.flat[0], x.flat[4] = np.nan, np.inf
        return Frag([("x", dt, x)], ["r = R.%s(x)" % op], ["r"],
                    errstate(lambda: [_result(dt, f(up(x, dt), dt))]), sym=True)
    return build


def _binary(op, f, ka, kb):
    def build(dt):
        a, b = gen(dt, (2, 3), ka), gen(dt, (3,), kb)
        if ka == "any" and kb == "any" and dt != "bool":
            b[0] = a[1, 0]  # an equal pair for the comparisons
        return Frag([("a", dt, a), ("b", dt, b)], ["r = R.%s(a, b)" % op], ["r"],
                    errstate(lambda: [_result(dt, f(up(a, dt), up(b, dt), dt))]), sym=True)
    return build


for _op, (_f, _k) in UNARY.items():
    spec(_op)(_unary(_op, _f, _k))
for _op, (_f, _ka, _kb) in BINARY.items():
    spec(_op)(_binary(_op, _f, _ka, _kb))

# --------------------------------------------------------------------------
# other elementwise kernels
# --------------------------------------------------------------------------


@spec("clip", NON_BOOL)
def _clip(dt):
    x = gen(dt, (2, 5), "wide")
    return Frag([("x", dt, x)], ["r = R.clip(x, 2, 7)"], ["r"],
                lambda: [out(dt, np.clip(up(x, dt), 2, 7))], sym=True)


def _astype_oracle(x, src, dst):
    v = up(x, src)
    if dst == "bool":
        return v != 0
    if dst in FLOATS or src not in FLOATS:
        return v
    return np.trunc(v).astype(np.int64)  # then wraps to the target width


@spec("astype", ALL)
def _astype(dt):
    x = gen(dt, (2, 3)) if dt not in FLOATS else cast(rng.uniform(-6, 6, (2, 3)), dt)
    outs = ["r_%s" % t for t in ALL]
    body = ['r_%s = R.astype(x, "%s")' % (t, t) for t in ALL]
    return Frag([("x", dt, x)], body, outs,
                errstate(lambda: [out(t, _astype_oracle(x, dt, t)) for t in ALL]), sym=True)


@spec("wrap_param", ALL)
def _wrap_param(dt):
    x = gen(dt, (2, 3)) if dt not in FLOATS else cast(rng.uniform(-6, 6, (2, 3)), dt)
    outs = ["r_%s" % t for t in ALL] + ["d"]
    body = ['r_%s = R.wrap_param(x, "%s")' % (t, t) for t in ALL] + ["d = R.wrap_param(x)"]
    return Frag([("x", dt, x)], body, outs,
                errstate(lambda: [out(t, _astype_oracle(x, dt, t)) for t in ALL] +
                         [out("float32", _astype_oracle(x, dt, "float32"))]), sym=True)


@spec("where", ALL)
def _where(dt):
    c, a, b = gen("bool", (2, 3)), gen(dt, (2, 3)), gen(dt, (3,))
    return Frag([("c", "bool", c), ("a", dt, a), ("b", dt, b)], ["r = R.where(c, a, b)"], ["r"],
                lambda: [out(dt, np.where(c, a, b))], sym=True)


# --------------------------------------------------------------------------
# nn
# --------------------------------------------------------------------------


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@spec("nn.softmax", FLOATS)
def _nn_softmax(dt):
    x = gen(dt, (2, 4))
    return Frag([("x", dt, x)], ["r = R.nn.softmax(x, axis=0)", "s = R.nn.softmax(x)"],
                ["r", "s"], lambda: [out(dt, _softmax(up(x, dt), 0)),
                                     out(dt, _softmax(up(x, dt), -1))], sym=True)


@spec("nn.log_softmax", FLOATS)
def _nn_log_softmax(dt):
    x = gen(dt, (2, 4))
    return Frag([("x", dt, x)], ["r = R.nn.log_softmax(x)"], ["r"],
                lambda: [out(dt, np.log(_softmax(up(x, dt), -1)))], sym=True)


@spec("nn.leakyrelu", FLOATS)
def _nn_leakyrelu(dt):
    x = gen(dt, (2, 4))
    return Frag([("x", dt, x)], ["r = R.nn.leakyrelu(x)", "s = R.nn.leakyrelu(x, alpha=0.25)"],
                ["r", "s"], lambda: [out(dt, np.where(up(x, dt) > 0, up(x, dt), 0.01 * up(x, dt))),
                                     out(dt, np.where(up(x, dt) > 0, up(x, dt),
                                                      0.25 * up(x, dt)))], sym=True)


def _softplus(x, beta, threshold):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


@spec("nn.softplus", FLOATS)
def _nn_softplus(dt):
    x = gen(dt, (2, 4))
    return Frag([("x", dt, x)],
                ["r = R.nn.softplus(x)", "s = R.nn.softplus(x, beta=2.0, threshold=1.0)"],
                ["r", "s"], errstate(lambda: [out(dt, _softplus(up(x, dt), 1.0, 20.0)),
                                              out(dt, _softplus(up(x, dt), 2.0, 1.0))]),
                sym=True)


@spec("nn.prelu", FLOATS)
def _nn_prelu(dt):
    x, a = gen(dt, (2, 3, 2)), gen(dt, (3,))
    a2 = gen(dt, (2,))
    ax = up(x, dt)
    return Frag([("x", dt, x), ("a", dt, a), ("a2", dt, a2)],
                ["r = R.nn.prelu(x, a)", "s = R.nn.prelu(x, a2, axis=-1)"], ["r", "s"],
                lambda: [out(dt, np.where(ax > 0, ax, up(a, dt).reshape(1, 3, 1) * ax)),
                         out(dt, np.where(ax > 0, ax, up(a2, dt).reshape(1, 1, 2) * ax))],
                sym=True)


@spec("nn.layer_norm", FLOATS)
def _nn_layer_norm(dt):
    x, g, b = gen(dt, (2, 4)), gen(dt, (4,)), gen(dt, (4,))

    def expect():
        v = up(x, dt)
        m = v.mean(axis=-1, keepdims=True)
        var = ((v - m) ** 2).mean(axis=-1, keepdims=True)
        return [out(dt, (v - m) / np.sqrt(var + 1e-5) * up(g, dt) + up(b, dt))]
    def expect_plain():
        v = up(x, dt)
        m = v.mean(axis=0, keepdims=True)
        var = ((v - m) ** 2).mean(axis=0, keepdims=True)
        return out(dt, (v - m) / np.sqrt(var + 1e-3))
    return Frag([("x", dt, x), ("g", dt, g), ("b", dt, b), ("g2", dt, g[:2]), ("b2", dt, b[:2])],
                ["r = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-5)",
                 "s = R.nn.layer_norm(x, g2, b2, axes=[0], epsilon=1e-3, center=False, "
                 "scale=False)"], ["r", "s"], lambda: expect() + [expect_plain()])


@spec("nn.rms_norm", FLOATS)
def _nn_rms_norm(dt):
    x, w = gen(dt, (2, 4)), gen(dt, (4,))

    def expect():
        v = up(x, dt)
        return [out(dt, v / np.sqrt((v * v).mean(axis=-1, keepdims=True) + 1e-5) * up(w, dt))]
    return Frag([("x", dt, x), ("w", dt, w)], ["r = R.nn.rms_norm(x, w)"], ["r"], expect,
                sym=True)


def _attention(q, k, v, bias=None, scale=None, causal=None):
    """BSNH attention: key/value head n // (N // N_kv) serves query head n;
    a masked key never enters the softmax (TVM's TopLeft / BottomRight)."""
    b, s, n, h = q.shape
    skv, nkv = k.shape[1], k.shape[2]
    k = np.repeat(k, n // nkv, axis=2)
    v = np.repeat(v, n // nkv, axis=2)
    p = np.einsum("bsnh,btnh->bnst", q, k) * (1 / math.sqrt(h) if scale is None else scale)
    if bias is not None:
        p = p + bias
    if causal is not None:
        offset = 0 if causal == "TopLeft" else abs(s - skv)
        keep = np.tril(np.ones((s, skv), bool), k=offset)
        p = np.where(keep, p, -np.inf)
    e = np.exp(p - p.max(axis=-1, keepdims=True))
    return np.einsum("bnst,btnh->bsnh", e / e.sum(axis=-1, keepdims=True), v)


@spec("nn.attention", FLOATS)
def _nn_attention(dt):
    q, k, v = gen(dt, (2, 3, 4, 8)), gen(dt, (2, 5, 2, 8)), gen(dt, (2, 5, 2, 6))
    q2, bias = gen(dt, (2, 7, 4, 8)), gen(dt, (1, 4, 1, 5))
    body = ["r = R.nn.attention(q, k, v)",
            's = R.nn.attention(q, k, v, causal_mask="TopLeft")',
            't = R.nn.attention(q2, k, v, bias, scale=0.25, causal_mask="BottomRight")',
            'u = R.nn.attention(q, k, v, causal_mask="BottomRight")']
    f = lambda *a, **kw: out(dt, _attention(*[up(x, dt) for x in a], **kw))
    return Frag([("q", dt, q), ("k", dt, k), ("v", dt, v), ("q2", dt, q2), ("bias", dt, bias)],
                body, ["r", "s", "t", "u"],
                lambda: [f(q, k, v), f(q, k, v, causal="TopLeft"),
                         f(q2, k, v, up(bias, dt), scale=0.25, causal="BottomRight"),
                         f(q, k, v, causal="BottomRight")], sym=True)


def _attention_var_len(q, k, v, sq, sk, scale=None, causal=None):
    """Each sequence's attention on its slices; rows past the last start 0."""
    o = np.zeros(q.shape[:3] + (v.shape[3],))
    for i in range(len(sq) - 1):
        qs, ks = slice(sq[i], sq[i + 1]), slice(sk[i], sk[i + 1])
        if sq[i + 1] > sq[i]:
            o[:, qs] = _attention(q[:, qs], k[:, ks], v[:, ks], scale=scale, causal=causal)
    return o


@spec("nn.attention_var_len", FLOATS)
def _nn_attention_var_len(dt):
    q, k, v = gen(dt, (1, 9, 4, 8)), gen(dt, (1, 8, 2, 8)), gen(dt, (1, 8, 2, 6))
    sq, sk = np.array([0, 2, 7, 8], np.int32), np.array([0, 3, 5, 8], np.int32)
    mq, mk = np.array(5, np.int32), np.array(3, np.int32)
    body = ["r = R.nn.attention_var_len(q, k, v, sq, mq, sk, mk)",
            's = R.nn.attention_var_len(q, k, v, sq, mq, sk, mk, causal_mask="TopLeft")',
            't = R.nn.attention_var_len(q, k, v, sq, mq, sk, mk, scale=0.5, '
            'causal_mask="BottomRight")',
            'u = R.nn.attention_var_len(q, q, q, sq, mq, causal_mask="BottomRight")']
    f = lambda a, b, c, x, y, **kw: out(dt, _attention_var_len(up(a, dt), up(b, dt), up(c, dt),
                                                               x, y, **kw))
    return Frag([("q", dt, q), ("k", dt, k), ("v", dt, v), ("sq", "int32", sq),
                 ("mq", "int32", mq), ("sk", "int32", sk), ("mk", "int32", mk)],
                body, ["r", "s", "t", "u"],
                lambda: [f(q, k, v, sq, sk), f(q, k, v, sq, sk, causal="TopLeft"),
                         f(q, k, v, sq, sk, scale=0.5, causal="BottomRight"),
                         f(q, q, q, sq, sq, causal="BottomRight")])


@spec("nn.attention_bias", FLOATS)
def _nn_attention_bias(dt):
    q, k, v = gen(dt, (2, 3, 2, 4)), gen(dt, (2, 6, 1, 4)), gen(dt, (2, 6, 1, 5))
    bias = gen(dt, (2, 1, 3, 6))
    f = lambda *a, **kw: out(dt, _attention(*[up(x, dt) for x in a], **kw))
    return Frag([("q", dt, q), ("k", dt, k), ("v", dt, v), ("bias", dt, bias)],
                ['r = R.nn.attention_bias(q, k, v, bias, causal_mask="TopLeft")'], ["r"],
                lambda: [f(q, k, v, bias, causal="TopLeft")], sym=True)


# --------------------------------------------------------------------------
# reductions and scans
# --------------------------------------------------------------------------


def _reduce(op, f, dtypes, kind="any"):
    @spec(op, dtypes)
    def build(dt):
        x = gen(dt, (2, 3, 4), kind)
        body = ["r = R.%s(x, axis=[1, 2])" % op, "s = R.%s(x, axis=[0], keepdims=True)" % op,
                "t = R.%s(x)" % op]
        return Frag([("x", dt, x)], body, ["r", "s", "t"], errstate(lambda: [
            out(dt, f(x, dt, (1, 2), False)), out(dt, f(x, dt, (0,), True)),
            out(dt, f(x, dt, None, False))]), sym=True)
    return build


def _count(x, axis):
    return x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))


def _sum(x, dt, axis, keep):
    return up(x, dt).sum(axis=axis, keepdims=keep, dtype=None if is_float(dt) else dt)


def _mean(x, dt, axis, keep):
    if is_float(dt):
        return up(x, dt).mean(axis=axis, keepdims=keep)
    s = _sum(x, dt, axis, keep)
    return _trunc_div(s, np.asarray(_count(x, axis)).astype(dt), dt)


def _prod(x, dt, axis, keep):
    return up(x, dt).prod(axis=axis, keepdims=keep, dtype=None if is_float(dt) else dt)


def _stat(fn):
    def f(x, dt, axis, keep):
        v = getattr(np.asarray(x, np.float64), fn)(axis=axis, keepdims=keep)
        return v if is_float(dt) else np.trunc(v)
    return f


_reduce("sum", _sum, NON_BOOL)
_reduce("mean", _mean, NON_BOOL)
_reduce("prod", _prod, NON_BOOL, "unit")
_reduce("variance", _stat("var"), NON_BOOL)
_reduce("std", _stat("std"), NON_BOOL)
_reduce("max", lambda x, dt, axis, keep: np.max(x, axis=axis, keepdims=keep), ALL)
_reduce("min", lambda x, dt, axis, keep: np.min(x, axis=axis, keepdims=keep), ALL)


# bool included: false orders before true, as TVM's argmax/argmin.
def _arg(op, f):
    @spec(op, ALL)
    def build(dt):
        x = gen(dt, (3, 4))
        return Frag([("x", dt, x)], ["r = R.%s(x, axis=1)" % op, "s = R.%s(x)" % op,
                                     "t = R.%s(x, axis=0, keepdims=True)" % op],
                    ["r", "s", "t"], lambda: [
                        out("int64", f(up(x, dt), axis=1)), out("int64", f(up(x, dt))),
                        out("int64", f(up(x, dt), axis=0)[None, :])], sym=True)


_arg("argmax", np.argmax)
_arg("argmin", np.argmin)


def _scan(op, f):
    @spec(op, ALL)
    def build(dt):
        x = gen(dt, (2, 4), "unit" if op == "cumprod" else "any")
        odt = "int32" if dt == "bool" else dt
        attr = ', dtype="int32"' if dt == "bool" else ""

        def expect():
            v = up(x, dt).astype(np.float64 if is_float(dt) else odt)
            incl = f(v, axis=1)
            excl = np.concatenate([np.full((2, 1), 1 if op == "cumprod" else 0, v.dtype),
                                   incl[:, :-1]], axis=1)
            return [out(odt, incl), out(odt, excl), out(odt, f(v.reshape(-1)))]
        return Frag([("x", dt, x)], [
            "r = R.%s(x, axis=1%s)" % (op, attr),
            "s = R.%s(x, axis=1%s, exclusive=True)" % (op, attr),
            "t = R.%s(x%s)" % (op, attr)], ["r", "s", "t"], errstate(expect), sym=True)


_scan("cumsum", np.cumsum)
_scan("cumprod", np.cumprod)


def _stable_order(x, dt, descending):
    key = up(x, dt).astype(np.float64)
    return np.argsort(-key if descending else key, axis=-1, kind="stable")


@spec("sort", ALL)
def _sort(dt):
    x = gen(dt, (2, 6))
    return Frag([("x", dt, x)], ["r = R.sort(x)", "s = R.sort(x, axis=1, descending=True)"],
                ["r", "s"], lambda: [
                    out(dt, np.take_along_axis(x, _stable_order(x, dt, False), -1)),
                    out(dt, np.take_along_axis(x, _stable_order(x, dt, True), -1))], sym=True)


@spec("argsort", ALL)
def _argsort(dt):
    x = gen(dt, (2, 6))
    return Frag([("x", dt, x)], ['r = R.argsort(x, dtype="int64")',
                                 'r32 = R.argsort(x, descending=True, dtype="int32")'],
                ["r", "r32"], lambda: [out("int64", _stable_order(x, dt, False)),
                                       out("int32", _stable_order(x, dt, True))], sym=True)


@spec("size", ALL)
def _size(dt):
    x = gen(dt, (2, 3))
    return Frag([("x", dt, x)], ["r = R.size(x)"], ["r"], lambda: [out("int64", x.size)])


# --------------------------------------------------------------------------
# linear algebra and layout
# --------------------------------------------------------------------------


@spec("matmul", NON_BOOL)
def _matmul(dt):
    a, b, v = gen(dt, (2, 3, 4), "small"), gen(dt, (4, 5), "small"), gen(dt, (4,), "small")

    def mm(p, q):
        r = np.matmul(up(p, dt), up(q, dt))
        return r if is_float(dt) else np.matmul(p.astype(np.int64), q.astype(np.int64))
    # out_dtype: the kernel accumulates in float for half types, in the dtype
    # otherwise, and converts once; these targets keep the oracle exact.
    wide = {"float16": "float32", "bfloat16": "float32", "float32": "float16",
            "float64": "float32"}.get(dt, "int64")
    return Frag([("a", dt, a), ("b", dt, b), ("v", dt, v)],
                ["r = R.matmul(a, b)", "s = R.matmul(a, v)",
                 'w = R.matmul(a, b, out_dtype="%s")' % wide], ["r", "s", "w"],
                errstate(lambda: [out(dt, mm(a, b)), out(dt, mm(a, v)), out(wide, mm(a, b))]),
                sym=True)


def _layout(op, body, f, sym=True, shape=(2, 3, 4)):
    @spec(op, ALL)
    def build(dt):
        x = gen(dt, shape)
        results = f(x)
        outs = ["r%d" % i for i in range(len(results))]
        return Frag([("x", dt, x)], body, outs, lambda: [out(dt, r) for r in results], sym=sym)


_layout("permute_dims", ["r0 = R.permute_dims(x, axes=[2, 0, 1])", "r1 = R.permute_dims(x)"],
        lambda x: [x.transpose(2, 0, 1), x.transpose()])
_layout("reshape", ["r0 = R.reshape(x, (6, 4))", "r1 = R.reshape(x, (4, -1))"],
        lambda x: [x.reshape(6, 4), x.reshape(4, -1)], sym=False)
_layout("broadcast_to", ["r0 = R.broadcast_to(x, (5, 2, 3, 4))"],
        lambda x: [np.broadcast_to(x, (5, 2, 3, 4))], sym=False)
_layout("expand_dims", ["r0 = R.expand_dims(x, axis=[0, -1])", "r1 = R.expand_dims(x, 1)"],
        lambda x: [x[None, ..., None], x[:, None]])
# Not symbolic: squeeze without an axis cannot know whether "n" is 1, so the
# output's rank is unknown and legalize-ops refuses the call (exit 2).
_layout("squeeze", ["r0 = R.squeeze(x)", "r1 = R.squeeze(x, axis=[2])"],
        lambda x: [x.reshape(2, 3), x.reshape(2, 3)], sym=False, shape=(2, 3, 1))
_layout("flatten", ["r0 = R.flatten(x)"], lambda x: [x.reshape(-1)])
_layout("strided_slice", [
    "r0 = R.strided_slice(x, axes=[1, 2], begin=[0, -1], end=[2, 0], strides=[1, -1])",
    "r1 = R.strided_slice(x, axes=[2], begin=[1], end=[100])"],
    lambda x: [x[:, 0:2, -1:0:-1], x[:, :, 1:]])
_layout("tril", ["r0 = R.tril(x, 1)", "r1 = R.tril(x)"],
        lambda x: [np.tril(x, 1), np.tril(x)])
_layout("triu", ["r0 = R.triu(x, -1)", "r1 = R.triu(x)"],
        lambda x: [np.triu(x, -1), np.triu(x)])


@spec("concat", ALL)
def _concat(dt):
    x, y = gen(dt, (2, 3)), gen(dt, (2, 2))
    return Frag([("x", dt, x), ("y", dt, y)], ["r = R.concat((x, y, x), axis=1)"], ["r"],
                lambda: [out(dt, np.concatenate([x, y, x], axis=1))], sym=True)


@spec("split", ALL)
def _split(dt):
    x = gen(dt, (6, 4))
    return Frag([("x", dt, x)], ["s = R.split(x, 2, axis=1)", "t = R.split(x, [1, 3])",
                                 "r0 = s[0]", "r1 = s[1]", "r2 = t[0]", "r3 = t[1]", "r4 = t[2]"],
                ["r0", "r1", "r2", "r3", "r4"],
                lambda: [out(dt, p) for p in np.split(x, 2, axis=1) + np.split(x, [1, 3])])


# --------------------------------------------------------------------------
# indexing
# --------------------------------------------------------------------------


def _take(dt):
    x, i = gen(dt, (4, 3)), np.array([3, -1, 0], np.int64)
    return Frag([("x", dt, x), ("i", "int64", i)], [
        "r = R.take(x, i, axis=0)",
        'c = R.take(x, R.const([5, -7], "int64"), axis=1, mode="clip")',
        'w = R.take(x, R.const([4, -5], "int32"), axis=1, mode="wrap")'],
        ["r", "c", "w"], lambda: [out(dt, x[[3, -1, 0]]), out(dt, x[:, [2, 0]]),
                                  out(dt, x[:, [1, 1]])])


# mode="nan" (float data only): an index out of range gives NaN.
@spec("take", ALL)
def _take_all_modes(dt):
    frag = _take(dt)
    if dt in FLOATS:
        frag.body.append('q = R.take(x, R.const([1, 3], "int64"), axis=1, mode="nan")')
        frag.outs.append("q")
        base = frag.expect
        x = frag.params[0][2]
        frag.expect = lambda: base() + [out(dt, np.stack([x[:, 1], np.full(4, np.nan)], 1))]
    return frag


@spec("index_tensor", ALL)
def _index_tensor(dt):
    x, i = gen(dt, (4, 3)), np.array([2, 0, 2], np.int64)
    m = np.array([True, False, True, True])
    return Frag([("x", dt, x), ("i", "int64", i), ("m", "bool", m)], [
        "r = R.index_tensor(x, (i,))", "s = R.index_tensor(x, (i, i))",
        "t = R.index_tensor(x, (m,))"], ["r", "s", "t"],
        lambda: [out(dt, x[i]), out(dt, x[i, i]), out(dt, x[m])])


@spec("index_put", ALL)
def _index_put(dt):
    x, v = gen(dt, (4, 3)), gen(dt, (3,))
    r, c = np.array([0, 2, 0], np.int64), np.array([1, 1, 1], np.int64)
    m = np.array([[True, False, False], [False, False, True], [False, True, False],
                  [False, False, False]])
    acc = dt != "bool"

    def expect():
        put = up(x, dt).copy()
        if acc:
            np.add.at(put, (r, c), up(v, dt))
        else:
            for k in range(len(r)):  # in index order: the last write wins
                put[r[k], c[k]] = v[k]
        masked = x.copy()
        masked[m] = v
        return [out(dt, put), out(dt, masked)]
    return Frag([("x", dt, x), ("r", "int64", r), ("c", "int64", c), ("v", dt, v),
                 ("m", "bool", m)],
                ["o = R.index_put(x, (r, c), v, accumulate=%s)" % acc,
                 "p = R.index_put(x, (m,), v)"], ["o", "p"], errstate(expect))


SCATTER_REDUCTIONS = ["update", "add", "mul", "mean", "max", "min"]


@spec("scatter_elements", ALL)
def _scatter_elements(dt):
    """ATen's scatter_reduce with include_self (docs/kernels.md): updates in
    row-major order of the indices; mean divides by 1 + the number of updates
    (integers with floor)."""
    x, u = gen(dt, (4, 3), "unit" if dt in FLOATS else "any"), gen(dt, (2, 3))
    i = np.array([[0, 3, 1], [0, -1, 1]], np.int64)
    reductions = ["update", "add"] if dt == "bool" else SCATTER_REDUCTIONS

    def expect_one(reduction):
        o, n = up(x, dt).copy(), np.ones(x.shape, np.int64)
        for pos in np.ndindex(*i.shape):
            tgt = (i[pos] % x.shape[0], pos[1])
            v = up(u, dt)[pos]
            if reduction == "update":
                o[tgt] = v
            elif reduction in ("add", "mean"):
                o[tgt] = o[tgt] + v
                n[tgt] += 1
            elif reduction == "mul":
                o[tgt] = o[tgt] * v
            else:
                o[tgt] = (np.maximum if reduction == "max" else np.minimum)(o[tgt], v)
        if reduction == "mean":
            o = o / n if is_float(dt) else np.floor_divide(o, n.astype(dt))
        return out(dt, o)
    body = ['r_%s = R.scatter_elements(x, i, u, axis=0, reduction="%s")' % (r, r)
            for r in reductions]
    return Frag([("x", dt, x), ("i", "int64", i), ("u", dt, u)], body,
                ["r_" + r for r in reductions],
                errstate(lambda: [expect_one(r) for r in reductions]))


# --------------------------------------------------------------------------
# repeat, tile, flip, dynamic_strided_slice, quantize/dequantize, topk,
# einsum, gradient checkpoints
# --------------------------------------------------------------------------


_layout("repeat", ["r0 = R.repeat(x, 2, axis=1)", "r1 = R.repeat(x, 3)",
                   "r2 = R.repeat(x, 2, axis=-1)"],
        lambda x: [np.repeat(x, 2, axis=1), np.repeat(x, 3), np.repeat(x, 2, axis=-1)])
_layout("tile", ["r0 = R.tile(x, [2, 1, 3])", "r1 = R.tile(x, [2])",
                 "r2 = R.tile(x, [2, 1, 1, 2])"],
        lambda x: [np.tile(x, [2, 1, 3]), np.tile(x, [2]), np.tile(x, [2, 1, 1, 2])])
_layout("flip", ["r0 = R.flip(x, axis=1)", "r1 = R.flip(x, axis=-1)"],
        lambda x: [np.flip(x, 1), np.flip(x, -1)])


def _split_pad(x):
    """(a, b, c) -> (a, b // 2, c, b % 2) of a (2, 3, 4) input: b = 3 is
    padding, which pad_value's default fills with 0."""
    o = np.zeros((2, 2, 4, 2), x.dtype)
    for b in range(3):
        o[:, b // 2, :, b % 2] = x[:, b, :]
    return o


_layout("layout_transform", [
    "r0 = R.layout_transform(x, index_map=lambda a, b, c: (a, c, b))",
    "r1 = R.layout_transform(x, index_map=lambda a, b, c: (a, b // 2, c, b % 2))",
    "r2 = R.layout_transform(x, index_map=T.index_map(lambda a, b, c: (a * 3 + b, c), "
    "index_dtype=\"int32\"))"],
    lambda x: [x.transpose(0, 2, 1), _split_pad(x), x.reshape(6, 4)])


# The output's shape comes from the values of begin/end/strides: a host form.
@spec("dynamic_strided_slice", ALL)
def _dynamic_strided_slice(dt):
    x = gen(dt, (4, 5))
    b, e, st = (np.array(v, np.int64) for v in ([3, 1], [-5, 100], [-1, 2]))
    return Frag([("x", dt, x), ("b", "int64", b), ("e", "int64", e), ("st", "int64", st)],
                ["r = R.dynamic_strided_slice(x, b, e, st)"], ["r"],
                lambda: [out(dt, x[3:-5:-1, 1:100:2])])


def _f32(x):
    return np.asarray(x, np.float32)


def _saturate(v, dt):
    """TIR's max(min(v, hi), lo), then the cast."""
    if dt in INTS:
        lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
    else:
        lo, hi = -65504.0, 65504.0
    return cast(np.clip(v, lo, hi), dt)


# Computes in float32 (float64 data in float64): x / scale, rounded half to
# even for an integer out_dtype, plus the zero point, saturated.
@spec("quantize", FLOATS)
def _quantize(dt):
    x = cast(rng.uniform(-300, 300, (3, 4)), dt)
    s, z = _f32([0.5, 2.0, 1.5, 0.25]), np.array([3, -2, 0, 100], np.int8)
    s0, z0, zf = _f32(0.75), np.array(7, np.uint8), _f32(0.5)

    def expect():
        c = np.float64 if dt == "float64" else np.float32
        xv = np.asarray(x, c)
        q = np.rint(xv / s.astype(c)) + z.astype(c)
        u = np.rint(xv / c(s0)) + c(z0)
        h = xv / c(s0) + c(zf)
        return [out("int8", _saturate(q, "int8")), out("uint8", _saturate(u, "uint8")),
                out("float16", _saturate(h, "float16"))]
    return Frag([("x", dt, x), ("s", "float32", s), ("z", "int8", z), ("s0", "float32", s0),
                 ("z0", "uint8", z0), ("zf", "float32", zf)],
                ['q = R.quantize(x, s, z, axis=1, out_dtype="int8")',
                 'u = R.quantize(x, s0, z0, out_dtype="uint8")',
                 'h = R.quantize(x, s0, zf, out_dtype="float16")'], ["q", "u", "h"],
                errstate(expect))


# x - zero_point in int32 (float32 for float data), times scale in float32.
@spec("dequantize", NON_BOOL)
def _dequantize(dt):
    x = gen(dt, (3, 4), "wide")
    s, z = _f32([0.5, 2.0, 1.5, 0.25]), np.array([3, -2, 0, 1], np.int8)
    s0, z0 = _f32(6000.5), np.array(-4, np.int8)

    def sub(zp):
        if dt in INTS:
            return (np.asarray(x).astype(np.int32) - zp.astype(np.int32)).astype(np.float32)
        return np.asarray(x, np.float32) - zp.astype(np.float32)
    return Frag([("x", dt, x), ("s", "float32", s), ("z", "int8", z), ("s0", "float32", s0),
                 ("z0", "int8", z0)],
                ["d = R.dequantize(x, s, z, axis=1)",
                 'h = R.dequantize(x, s0, z0, out_dtype="float16")'], ["d", "h"],
                errstate(lambda: [out("float32", sub(z) * s),
                                  out("float16", _saturate(sub(z0) * s0, "float16"))]))


@spec("topk", ALL)
def _topk(dt):
    x = gen(dt, (3, 6))
    desc, asc = _stable_order(x, dt, True), _stable_order(x, dt, False)
    col = _stable_order(x.T, dt, True).T
    return Frag([("x", dt, x)], [
        "t = R.topk(x, 2)", "v = t[0]", "i = t[1]",
        'a = R.topk(x, 3, axis=1, ret_type="values", largest=False)',
        'b = R.topk(x, 2, axis=0, ret_type="indices", dtype="int64")',
        'c = R.topk(x, 0, ret_type="values")'], ["v", "i", "a", "b", "c"],
        lambda: [out(dt, np.take_along_axis(x, desc[:, :2], 1)), out("int32", desc[:, :2]),
                 out(dt, np.take_along_axis(x, asc[:, :3], 1)), out("int64", col[:2]),
                 out(dt, np.take_along_axis(x, desc, 1))], sym=True)


def _multinomial(prob, u, idx, dt):
    """TVM's get_sample_index on running sums rounded to the prob dtype."""
    outv = np.zeros((len(u), 1), np.int64)
    for i in range(len(u)):
        acc, c = 0.0, []
        for x in up(prob[idx[i, 0]], dt):
            acc = float(np.array(acc + x).astype(dt))
            c.append(acc)
        below = np.nonzero(u[i, 0] < np.array(c))[0]
        outv[i, 0] = below[0] if len(below) else len(c) - 1
    return outv


@spec("multinomial_from_uniform", ["float16", "float32", "float64"])
def _multinomial_from_uniform(dt):
    prob = rng.uniform(0.05, 1, (3, 7))
    prob = cast(prob / prob.sum(axis=1, keepdims=True), dt)
    u = cast(rng.uniform(0, 1, (5, 1)), dt)
    idx = np.array([[0], [2], [1], [2], [0]], np.int64)
    i32 = idx.astype(np.int32)
    return Frag([("p", dt, prob), ("u", dt, u), ("s", "int64", idx), ("t", "int32", i32)],
                ["r = R.multinomial_from_uniform(p, u, s)",
                 'q = R.multinomial_from_uniform(p, u, t, dtype="int32")'], ["r", "q"],
                lambda: [out("int64", _multinomial(prob, up(u, dt), idx, dt)),
                         out("int32", _multinomial(prob, up(u, dt), idx, dt))])


def _iou(a, b):
    al, at, ar, ab = min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])
    bl, bt, br, bb = min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])
    w = max(0.0, min(ar, br) - max(al, bl))
    h = max(0.0, min(ab, bb) - max(at, bt))
    area = h * w
    u = (ar - al) * (ab - at) + (br - bl) * (bb - bt) - area
    return 0.0 if u <= 0 else area / u


def _nms(boxes, scores, max_out, iou_t, score_t):
    """TOPI's all-class NMS: per (batch, class) the selected boxes in order."""
    sel = {}
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            order = np.argsort(-scores[b, c], kind="stable")
            s = scores[b, c][order].copy()
            valid = int(np.sum(s > score_t))
            picked = []
            for j in range(valid):
                if s[j] > -1 and len(picked) < max_out and s[j] > score_t:
                    picked.append((int(order[j]), float(s[j])))
                    for k in range(j + 1, valid):
                        if s[k] > 0 and _iou(boxes[b, order[j]], boxes[b, order[k]]) >= iou_t:
                            s[k] = -1.0
            sel[b, c] = picked
    return sel


def _nms_onnx(boxes, scores, *a):
    sel = _nms(boxes, scores, *a)
    rows = [(b, c, i) for (b, c), picked in sorted(sel.items()) for i, _ in picked]
    o = np.zeros((scores.size, 3), np.int64)
    o[:len(rows)] = np.array(rows, np.int64).reshape(-1, 3)
    return [out("int64", o), out("int64", np.array([len(rows)]))]


def _nms_tf(boxes, scores, *a):
    sel = _nms(boxes, scores, *a)
    nb, nc, n = scores.shape
    idx, sc, cnt = np.zeros((nb, nc * n, 2), np.int64), np.zeros((nb, nc * n)), []
    for b in range(nb):
        rows = [(c, i, v) for c in range(nc) for i, v in sel[b, c]]
        for r, (c, i, v) in enumerate(rows):
            idx[b, r], sc[b, r] = (c, i), v
        cnt.append(len(rows))
    return [out("int64", idx), out("float32", sc), out("int64", np.array(cnt))]


@spec("vision.all_class_non_max_suppression", FLOATS)
def _all_class_nms(dt):
    corner = rng.integers(0, 6, (2, 6, 2)).astype(np.float64)
    boxes = cast(np.concatenate([corner, corner + rng.integers(1, 4, (2, 6, 2))], -1), dt)
    scores = cast(rng.permutation(48).reshape(2, 4, 6) / 64.0, dt)
    m, t, st = np.array(3, np.int64), np.array(0.3, np.float32), np.array(0.2, np.float32)
    body = ["r = R.vision.all_class_non_max_suppression(b, s, m, t, st)", "r0 = r[0]", "r1 = r[1]",
            'f = R.vision.all_class_non_max_suppression(b, s, m, t, st, "tensorflow")',
            "f0 = f[0]", "f1 = f[1]", "f2 = f[2]"]
    args = (up(boxes, dt), up(scores, dt), 3, float(np.float32(0.3)), float(np.float32(0.2)))
    return Frag([("b", dt, boxes), ("s", dt, scores), ("m", "int64", m), ("t", "float32", t),
                 ("st", "float32", st)], body, ["r0", "r1", "f0", "f1", "f2"],
                lambda: _nms_onnx(*args) + _nms_tf(*args))


@spec("einsum", NON_BOOL)
def _einsum(dt):
    a, b, v, c = (gen(dt, sh, "small") for sh in [(2, 3), (3, 4), (4,), (3, 3)])
    cases = [("r", "(a, b)", "ij,jk->ik", (a, b)), ("t", "(a,)", "ij->ji", (a,)),
             ("d", "(c,)", "ii->i", (c,)), ("u", "(a, b, v)", "ij,jk,k", (a, b, v)),
             ("w", "(c,)", "ii", (c,)), ("o", "(v, v)", "i,j", (v, v))]

    def expect():
        wide = np.float64 if is_float(dt) else np.int64
        return [out(dt, np.einsum(sub, *[np.asarray(o).astype(wide) for o in ops]))
                for _, _, sub, ops in cases]
    return Frag([("a", dt, a), ("b", dt, b), ("v", dt, v), ("c", dt, c)],
                ['%s = R.einsum(%s, "%s")' % (n, args, sub) for n, args, sub, _ in cases],
                [n for n, _, _, _ in cases], errstate(expect))


# Identities: legalize-ops forwards the value, as TVM does.
for _op in ["grad.start_checkpoint", "grad.end_checkpoint"]:
    _layout(_op, ["r0 = R.%s(x)" % _op], lambda x: [x])
_layout("hint_on_device", ["r0 = R.hint_on_device(x, R.device(1, 0))"], lambda x: [x])
_layout("grad.no_grad", ["r0 = R.grad.no_grad(x)"], lambda x: [x])


@spec("nonzero", ALL)
def _nonzero(dt):
    x = gen(dt, (3, 4))
    x[rng.random((3, 4)) < 0.4] = 0
    return Frag([("x", dt, x)], ["r = R.nonzero(x)"], ["r"],
                lambda: [out("int64", np.stack(np.nonzero(x)))])


def np_unique(x, sorted=True, index=False, inverse=False, counts=False, axis=None):
    """TVM's relax.run.unique: numpy's unique with the groups reordered by
    first occurrence when not sorted; index, inverse (1-D) and counts
    follow as requested; one output alone is returned bare."""
    vals, idx, inv, cnt = np.unique(x, return_index=True, return_inverse=True,
                                    return_counts=True, axis=axis)
    inv = inv.reshape(-1)
    if not sorted:
        order = np.argsort(idx, kind="stable")
        vals = np.take(vals, order, axis=0 if axis is None else axis)
        idx, cnt = idx[order], cnt[order]
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        inv = rank[inv]
    outs = [vals] + [a.astype(np.int64) for a, want in ((idx, index), (inv, inverse),
                                                       (cnt, counts)) if want]
    return outs[0] if len(outs) == 1 else tuple(outs)


def repeats(dt, shape):
    """Values of `dt` from a pool of four, so that some repeat."""
    if dt == "bool":
        return rng.random(shape) < 0.5
    pool = np.array([3, -1, 0, 2] if dt not in ("uint8",) else [3, 1, 0, 2])
    if dt in FLOATS:
        pool = pool * 0.5
    return cast(pool[rng.integers(0, 4, shape)], dt)


@spec("unique", ALL)
def _unique(dt):
    x = repeats(dt, (4, 3))
    x[2] = x[0]  # a repeated row for axis=0
    x[:, 2] = x[:, 1]  # a repeated column for axis=-1
    return Frag([("x", dt, x)],
                ["a = R.unique(x)",
                 "b = R.unique(x, sorted=False, return_index=True, return_inverse=True, "
                 "return_counts=True)",
                 "b0 = b[0]", "b1 = b[1]", "b2 = b[2]", "b3 = b[3]",
                 "c = R.unique(x, axis=0, return_inverse=True)", "c0 = c[0]", "c1 = c[1]",
                 "d = R.unique(x, sorted=False, return_counts=True, axis=-1)",
                 "d0 = d[0]", "d1 = d[1]"],
                ["a", "b0", "b1", "b2", "b3", "c0", "c1", "d0", "d1"],
                lambda: [out(dt, np_unique(x))]
                + [out(t, v) for t, v in zip([dt, "int64", "int64", "int64"],
                                             np_unique(x, False, True, True, True))]
                + [out(t, v) for t, v in zip([dt, "int64"], np_unique(x, inverse=True, axis=0))]
                + [out(t, v) for t, v in zip([dt, "int64"],
                                             np_unique(x, False, counts=True, axis=1))],
                sym=True)


# --------------------------------------------------------------------------
# creation
# --------------------------------------------------------------------------


def _fill(op, value):
    @spec(op, ALL)
    def build(dt):
        return Frag([], ['r = R.%s((2, 3), "%s")' % (op, dt)], ["r"],
                    lambda: [out(dt, np.full((2, 3), value))])


_fill("zeros", 0)
_fill("ones", 1)


@spec("full", ALL)
def _full(dt):
    return Frag([], ['r = R.full((2, 3), R.const(1, "int32"), "%s")' % dt,
                     's = R.full((4,), R.const(0, "float32"), "%s")' % dt], ["r", "s"],
                lambda: [out(dt, np.ones((2, 3))), out(dt, np.zeros(4))])


def _fill_like(op, value):
    @spec(op, ALL)
    def build(dt):
        x = gen(dt, (2, 3))
        return Frag([("x", dt, x)], ["r = R.%s(x)" % op, 's = R.%s(x, dtype="int32")' % op],
                    ["r", "s"], lambda: [out(dt, np.full((2, 3), value)),
                                         out("int32", np.full((2, 3), value))], sym=True)


_fill_like("zeros_like", 0)
_fill_like("ones_like", 1)


@spec("full_like", ALL)
def _full_like(dt):
    x = gen(dt, (2, 3))
    return Frag([("x", dt, x)], ['r = R.full_like(x, R.const(1, "int32"))',
                                 's = R.full_like(x, R.const(2.5, "float32"), dtype="float32")'],
                ["r", "s"], lambda: [out(dt, np.ones((2, 3))),
                                     out("float32", np.full((2, 3), 2.5))], sym=True)


# bool included, as TVM's arange: each value start + i * step converted to
# bool (nonzero is true).
@spec("arange", ALL)
def _arange(dt):
    return Frag([], ['r = R.arange(1, 10, 2, dtype="%s")' % dt,
                     's = R.arange(5, dtype="%s")' % dt], ["r", "s"],
                lambda: [out(dt, np.arange(1, 10, 2)), out(dt, np.arange(5))])


# --------------------------------------------------------------------------
# convolutions, pools, batch_norm (numpy oracles in NC... layout; other
# layouts are transposes of the same arrays)
# --------------------------------------------------------------------------


def _conv(x, w, strides, pad, dil, groups):
    """x (N, C, *S), w (O, C / groups, *K): TVM's conv with padding
    (before..., after...)."""
    import itertools
    s = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pad[i], pad[s + i]) for i in range(s)])
    ks = w.shape[2:]
    outs = [(xp.shape[2 + i] - dil[i] * (ks[i] - 1) - 1) // strides[i] + 1 for i in range(s)]
    o_ch, cg = w.shape[0], w.shape[1]
    og = o_ch // groups
    res = np.zeros((x.shape[0], o_ch) + tuple(outs))
    for tap in itertools.product(*[range(k) for k in ks]):
        sl = xp[(slice(None), slice(None)) + tuple(
            slice(tap[i] * dil[i], tap[i] * dil[i] + strides[i] * (outs[i] - 1) + 1, strides[i])
            for i in range(s))]
        for g in range(groups):
            res[:, g * og:(g + 1) * og] += np.einsum(
                "nc...,oc->no...", sl[:, g * cg:(g + 1) * cg], w[g * og:(g + 1) * og, :, *tap])
    return res


def _conv_transpose(x, w, strides, pad, out_pad, dil, groups):
    """x (N, C, *S), w (C, O / groups, *K): every input scatters its window."""
    import itertools
    s = x.ndim - 2
    ks, ins = w.shape[2:], x.shape[2:]
    full = [(ins[i] - 1) * strides[i] + dil[i] * (ks[i] - 1) + 1 for i in range(s)]
    cg, og = x.shape[1] // groups, w.shape[1]
    res = np.zeros((x.shape[0], og * groups) + tuple(f + out_pad[i] for i, f in enumerate(full)))
    for tap in itertools.product(*[range(k) for k in ks]):
        dst = (slice(None),) + tuple(
            slice(tap[i] * dil[i], tap[i] * dil[i] + strides[i] * (ins[i] - 1) + 1, strides[i])
            for i in range(s))
        for g in range(groups):
            part = np.einsum("nc...,co->no...", x[:, g * cg:(g + 1) * cg],
                             w[g * cg:(g + 1) * cg, :, *tap])
            res[(dst[0], slice(g * og, (g + 1) * og)) + dst[1:]] += part
    lens = [full[i] - pad[i] - pad[s + i] + out_pad[i] for i in range(s)]
    return res[(slice(None), slice(None)) + tuple(slice(pad[i], pad[i] + lens[i])
                                                  for i in range(s))]


@spec("nn.conv1d", FLOATS)
def _nn_conv1d(dt):
    x, w = gen(dt, (2, 4, 9)), gen(dt, (6, 2, 3))
    return Frag([("x", dt, x), ("w", dt, w)],
                ["r = R.nn.conv1d(x, w, strides=2, padding=[1, 2], dilation=2, groups=2)"], ["r"],
                lambda: [out(dt, _conv(up(x, dt), up(w, dt), [2], [1, 2], [2], 2))], sym=True)


@spec("nn.conv2d", FLOATS)
def _nn_conv2d(dt):
    x, w = gen(dt, (2, 3, 7, 6)), gen(dt, (4, 3, 3, 2))
    xh, wh = np.transpose(x, (0, 2, 3, 1)), np.transpose(w, (2, 3, 1, 0))
    return Frag([("x", dt, x), ("w", dt, w), ("xh", dt, xh), ("wh", dt, wh)],
                ["r = R.nn.conv2d(x, w, strides=[2, 1], padding=[1, 0, 0, 1])",
                 's = R.nn.conv2d(xh, wh, padding=1, dilation=[1, 2], data_layout="NHWC", '
                 'kernel_layout="HWIO")'], ["r", "s"],
                lambda: [out(dt, _conv(up(x, dt), up(w, dt), [2, 1], [1, 0, 0, 1], [1, 1], 1)),
                         out(dt, np.transpose(_conv(up(x, dt), up(w, dt), [1, 1], [1, 1, 1, 1],
                                                    [1, 2], 1), (0, 2, 3, 1)))], sym=True)


@spec("nn.conv3d", FLOATS)
def _nn_conv3d(dt):
    x, w = gen(dt, (1, 2, 4, 5, 3)), gen(dt, (3, 2, 2, 3, 2))
    return Frag([("x", dt, x), ("w", dt, w)],
                ["r = R.nn.conv3d(x, w, strides=[1, 2, 1], padding=[0, 1, 1, 1, 0, 0])"], ["r"],
                lambda: [out(dt, _conv(up(x, dt), up(w, dt), [1, 2, 1], [0, 1, 1, 1, 0, 0],
                                       [1, 1, 1], 1))], sym=True)


@spec("nn.conv1d_transpose", FLOATS)
def _nn_conv1d_transpose(dt):
    x, w = gen(dt, (2, 4, 5)), gen(dt, (4, 3, 3))
    return Frag([("x", dt, x), ("w", dt, w)],
                ["r = R.nn.conv1d_transpose(x, w, strides=2, padding=[1, 0], output_padding=1, "
                 "groups=2)"], ["r"],
                lambda: [out(dt, _conv_transpose(up(x, dt), up(w, dt), [2], [1, 0], [1], [1],
                                                 2))], sym=True)


@spec("nn.conv2d_transpose", FLOATS)
def _nn_conv2d_transpose(dt):
    x, w = gen(dt, (1, 3, 4, 3)), gen(dt, (3, 2, 3, 2))
    return Frag([("x", dt, x), ("w", dt, w)],
                ["r = R.nn.conv2d_transpose(x, w, strides=[2, 1], padding=[1, 1, 0, 0], "
                 "dilation=[1, 2])"], ["r"],
                lambda: [out(dt, _conv_transpose(up(x, dt), up(w, dt), [2, 1], [1, 1, 0, 0],
                                                 [0, 0], [1, 2], 1))], sym=True)


def _pool(x, kind, size, strides, pad, dil, ceil, include_pad):
    """TVM's pools on x (N, C, *S): windows over the data padded by `pad`
    (and, with ceil_mode, by stride - 1 more that never counts); a last
    window starting in the bottom padding is dropped."""
    import itertools
    s = x.ndim - 2
    ins = x.shape[2:]
    outs = []
    for i in range(s):
        num = ins[i] + pad[i] + pad[s + i] - dil[i] * (size[i] - 1) - 1
        if ceil:
            num += strides[i] - 1
        n = num // strides[i] + 1
        if ceil and (n - 1) * strides[i] >= ins[i] + pad[i]:
            n -= 1
        outs.append(n)
    extra = [strides[i] - 1 if ceil else 0 for i in range(s)]
    widths = [(0, 0), (0, 0)] + [(pad[i], pad[s + i] + extra[i] + size[i] * dil[i])
                                 for i in range(s)]
    data = np.pad(x, widths)
    real = np.pad(np.ones(x.shape), widths)
    counted = np.ones(x.shape[:2] + tuple(ins[i] + pad[i] + pad[s + i] for i in range(s)))
    counted = np.pad(counted, [(0, 0), (0, 0)] + [(0, extra[i] + size[i] * dil[i])
                                                  for i in range(s)])
    res = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(n) for n in outs]):
        win = (slice(None), slice(None)) + tuple(
            slice(o[i] * strides[i], o[i] * strides[i] + dil[i] * (size[i] - 1) + 1, dil[i])
            for i in range(s))
        at = (slice(None), slice(None)) + o
        d, r = data[win].reshape(x.shape[:2] + (-1,)), real[win].reshape(x.shape[:2] + (-1,))
        if kind == "max":
            res[at] = np.where(r > 0, d, -np.inf).max(axis=-1)
        else:
            c = counted[win] if include_pad else real[win]
            res[at] = d.sum(axis=-1) / np.maximum(c.reshape(x.shape[:2] + (-1,)).sum(axis=-1), 1)
    return res


def _pool_case(op, kind, shape, body, args):
    @spec(op, FLOATS)
    def build(dt):
        x = gen(dt, shape)
        xl = np.moveaxis(x, 1, -1)
        return Frag([("x", dt, x), ("xl", dt, xl)], body, ["r", "s"],
                    lambda: [out(dt, _pool(up(x, dt), kind, *args[0])),
                             out(dt, np.moveaxis(_pool(up(x, dt), kind, *args[1]), 1, -1))],
                    sym=True)


_pool_case("nn.max_pool1d", "max", (2, 3, 9),
           ["r = R.nn.max_pool1d(x, pool_size=3, strides=2, padding=1, ceil_mode=True)",
            's = R.nn.max_pool1d(xl, pool_size=2, dilation=2, layout="NWC")'],
           [([3], [2], [1, 1], [1], True, False), ([2], [1], [0, 0], [2], False, False)])
_pool_case("nn.max_pool2d", "max", (1, 2, 7, 6),
           ["r = R.nn.max_pool2d(x, pool_size=[3, 2], strides=2, padding=[1, 0, 1, 1])",
            's = R.nn.max_pool2d(xl, pool_size=2, strides=2, ceil_mode=True, layout="NHWC")'],
           [([3, 2], [2, 2], [1, 0, 1, 1], [1, 1], False, False),
            ([2, 2], [2, 2], [0, 0, 0, 0], [1, 1], True, False)])
_pool_case("nn.max_pool3d", "max", (1, 2, 4, 5, 3),
           ["r = R.nn.max_pool3d(x, pool_size=2, strides=[1, 2, 1], padding=[0, 1, 0, 1, 0, 1])",
            's = R.nn.max_pool3d(xl, pool_size=[2, 1, 2], layout="NDHWC")'],
           [([2, 2, 2], [1, 2, 1], [0, 1, 0, 1, 0, 1], [1, 1, 1], False, False),
            ([2, 1, 2], [1, 1, 1], [0] * 6, [1, 1, 1], False, False)])
_pool_case("nn.avg_pool1d", "avg", (2, 3, 9),
           ["r = R.nn.avg_pool1d(x, pool_size=3, strides=2, padding=1, ceil_mode=True)",
            's = R.nn.avg_pool1d(xl, pool_size=3, padding=[2, 1], count_include_pad=False, '
            'layout="NWC")'],
           [([3], [2], [1, 1], [1], True, True), ([3], [1], [2, 1], [1], False, False)])
_pool_case("nn.avg_pool2d", "avg", (1, 2, 7, 6),
           ["r = R.nn.avg_pool2d(x, pool_size=3, strides=2, padding=1)",
            's = R.nn.avg_pool2d(xl, pool_size=[2, 3], strides=2, padding=[1, 0, 0, 1], '
            'ceil_mode=True, count_include_pad=True, layout="NHWC")'],
           [([3, 3], [2, 2], [1, 1, 1, 1], [1, 1], False, False),
            ([2, 3], [2, 2], [1, 0, 0, 1], [1, 1], True, True)])
_pool_case("nn.avg_pool3d", "avg", (1, 2, 4, 5, 3),
           ["r = R.nn.avg_pool3d(x, pool_size=2, strides=2, padding=1)",
            's = R.nn.avg_pool3d(xl, pool_size=[3, 2, 2], dilation=[1, 2, 1], padding=1, '
            'count_include_pad=False, layout="NDHWC")'],
           [([2, 2, 2], [2, 2, 2], [1] * 6, [1, 1, 1], False, True),
            ([3, 2, 2], [1, 1, 1], [1] * 6, [1, 2, 1], False, False)])


def _adaptive(x, outs):
    """Output o of n averages inputs [floor(o * in / n), ceil((o + 1) * in / n))."""
    import itertools
    s = x.ndim - 2
    ins = x.shape[2:]
    res = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(n) for n in outs]):
        win = tuple(slice(o[i] * ins[i] // outs[i], -(-(o[i] + 1) * ins[i] // outs[i]))
                    for i in range(s))
        res[(slice(None), slice(None)) + o] = x[(slice(None), slice(None)) + win].mean(
            axis=tuple(range(2, 2 + s)))
    return res


def _adaptive_case(op, shape, size_r, size_s, layout):
    @spec(op, FLOATS)
    def build(dt):
        x = gen(dt, shape)
        xl = np.moveaxis(x, 1, -1)
        s_attr = "" if size_s is None else "output_size=%s, " % (size_s,)
        outs_s = list(shape[2:]) if size_s is None else list(size_s)
        return Frag([("x", dt, x), ("xl", dt, xl)],
                    ["r = R.%s(x, output_size=%s)" % (op, size_r),
                     's = R.%s(xl, %slayout="%s")' % (op, s_attr, layout)], ["r", "s"],
                    lambda: [out(dt, _adaptive(up(x, dt), size_r)),
                             out(dt, np.moveaxis(_adaptive(up(x, dt), outs_s), 1, -1))],
                    sym=True)


_adaptive_case("nn.adaptive_avg_pool1d", (2, 3, 7), [3], None, "NWC")
_adaptive_case("nn.adaptive_avg_pool2d", (1, 2, 5, 7), [2, 3], [1, 1], "NHWC")
_adaptive_case("nn.adaptive_avg_pool3d", (1, 2, 4, 5, 3), [2, 2, 3], None, "NDHWC")


@spec("nn.batch_norm", FLOATS)
def _nn_batch_norm(dt):
    x, g, b = gen(dt, (2, 3, 4)), gen(dt, (3,)), gen(dt, (3,))
    m, v = gen(dt, (3,)), gen(dt, (3,), "pos")
    x2, g2 = gen(dt, (4, 2)), gen(dt, (2,))
    m2, v2 = gen(dt, (2,)), gen(dt, (2,), "pos")

    def expect():
        X, G, B, M, V = (up(a, dt) for a in (x, g, b, m, v))
        sh = (1, 3, 1)
        inf = (X - M.reshape(sh)) / np.sqrt(V.reshape(sh) + 1e-5) * G.reshape(sh) + B.reshape(sh)
        X2, G2, M2, V2 = (up(a, dt) for a in (x2, g2, m2, v2))
        mean, var = X2.mean(axis=0), X2.var(axis=0)
        tr = (X2 - mean) / np.sqrt(var + 1e-3) * G2
        return [out(dt, inf), out(dt, M), out(dt, V), out(dt, tr),
                out(dt, 0.75 * M2 + 0.25 * mean), out(dt, 0.75 * V2 + 0.25 * var)]
    return Frag([("x", dt, x), ("g", dt, g), ("b", dt, b), ("m", dt, m), ("v", dt, v),
                 ("x2", dt, x2), ("g2", dt, g2), ("m2", dt, m2), ("v2", dt, v2)],
                ["t = R.nn.batch_norm(x, g, b, m, v, axis=1, training=False)",
                 "r0 = t[0]", "r1 = t[1]", "r2 = t[2]",
                 "u = R.nn.batch_norm(x2, g2, m2, m2, v2, axis=-1, epsilon=1e-3, center=False, "
                 "momentum=0.25)",
                 "s0 = u[0]", "s1 = u[1]", "s2 = u[2]"],
                ["r0", "r1", "r2", "s0", "s1", "s2"], expect)


# --------------------------------------------------------------------------
# gather_elements, gather_nd, scatter_nd, slice_scatter, nn.pad,
# nn.pixel_shuffle, median, image.resize2d, image.grid_sample
# --------------------------------------------------------------------------


@spec("gather_elements", ALL)
def _gather_elements(dt):
    x = gen(dt, (3, 4))
    i0 = np.array([[2, 0, 1, -1], [0, 1, 2, 0]], np.int64)
    i1 = np.array([[3, 0], [1, 1], [-4, 2]], np.int32)
    return Frag([("x", dt, x), ("i", "int64", i0), ("j", "int32", i1)],
                ["r = R.gather_elements(x, i, axis=0)", "s = R.gather_elements(x, j, axis=-1)"],
                ["r", "s"], lambda: [out(dt, np.take_along_axis(x, i0 % 3, 0)),
                                     out(dt, np.take_along_axis(x, i1 % 4, 1))])


@spec("gather_nd", ALL)
def _gather_nd(dt):
    x = gen(dt, (2, 3, 4))
    i = np.array([[1, 2], [0, -1], [1, 0]], np.int64)
    b = np.array([[[2], [0]], [[1], [1]]], np.int64)
    return Frag([("x", dt, x), ("i", "int64", i), ("b", "int64", b)],
                ["r = R.gather_nd(x, i)", "s = R.gather_nd(x, b, batch_dims=1)"], ["r", "s"],
                lambda: [out(dt, np.stack([x[1, 2], x[0, 2], x[1, 0]])),
                         out(dt, np.stack([np.stack([x[0, 2], x[0, 0]]),
                                           np.stack([x[1, 1], x[1, 1]])]))])


ND_REDUCTIONS = ["update", "add", "mul", "min", "max"]


@spec("scatter_nd", ALL)
def _scatter_nd(dt):
    """topi's scatter_nd: updates applied in row-major order of the index
    rows, so a repeated row reduces (or, for update, the last one wins)."""
    x, u = gen(dt, (4, 3), "unit" if dt in FLOATS else "any"), gen(dt, (3, 3), "small")
    i = np.array([[1], [-1], [1]], np.int64)
    reductions = ["update"] if dt == "bool" else ND_REDUCTIONS

    def expect_one(reduction):
        o = up(x, dt).copy()
        for r in range(3):
            t, v = i[r, 0] % 4, up(u, dt)[r]
            if reduction == "update":
                o[t] = v
            elif reduction == "add":
                o[t] = cast(o[t] + v, dt)
            elif reduction == "mul":
                o[t] = cast(o[t] * v, dt)
            elif reduction == "min":
                o[t] = np.minimum(o[t], v)
            else:
                o[t] = np.maximum(o[t], v)
        return out(dt, o)

    body = ['r_%s = R.scatter_nd(x, i, u, reduction="%s")' % (r, r) for r in reductions]
    return Frag([("x", dt, x), ("i", "int64", i), ("u", dt, u)], body,
                ["r_" + r for r in reductions],
                errstate(lambda: [expect_one(r) for r in reductions]))


@spec("slice_scatter", ALL)
def _slice_scatter(dt):
    x, s, t = gen(dt, (4, 5)), gen(dt, (2, 5)), gen(dt, (4, 2))

    def expect():
        a, b = x.copy(), x.copy()
        a[0:4:2] = s
        b[:, 1:5:2] = t
        return [out(dt, a), out(dt, b)]

    return Frag([("x", dt, x), ("s", dt, s), ("t", dt, t)],
                ["r = R.slice_scatter(x, s, 0, 4, 2)", "q = R.slice_scatter(x, t, 1, 5, 2, axis=1)"],
                ["r", "q"], expect)


@spec("nn.pad", ALL)
def _nn_pad(dt):
    x = gen(dt, (3, 4))
    w = ((1, 2), (2, 1))
    fill = cast(np.array(1.5 if dt in FLOATS else 1), dt)
    return Frag([("x", dt, x)], [
        "c = R.nn.pad(x, [1, 2, 2, 1], pad_value=%s)" % ("1.5" if dt in FLOATS else "1.0"),
        'f = R.nn.pad(x, [1, 2, 2, 1], pad_mode="reflect")',
        'e = R.nn.pad(x, [1, 2, 2, 1], pad_mode="replicate")',
        'w = R.nn.pad(x, [1, 2, 2, 1], pad_mode="circular")'], ["c", "f", "e", "w"],
        lambda: [out(dt, np.pad(x, w, constant_values=fill)), out(dt, np.pad(x, w, "reflect")),
                 out(dt, np.pad(x, w, "edge")), out(dt, np.pad(x, w, "wrap"))], sym=False)


@spec("nn.pixel_shuffle", ALL)
def _nn_pixel_shuffle(dt):
    x = gen(dt, (2, 8, 2, 3))
    r = x.reshape(2, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 4, 6)
    return Frag([("x", dt, x)], ["r = R.nn.pixel_shuffle(x, 2)"], ["r"], lambda: [out(dt, r)],
                sym=True)


def _lower_median(x, axis, dt):
    """The (n - 1) // 2 element of the stable ascending order, NaN last."""
    order = _stable_order(np.moveaxis(x, axis, -1), dt, False)
    k = (x.shape[axis] - 1) // 2
    idx = order[..., k]
    vals = np.take_along_axis(np.moveaxis(x, axis, -1), idx[..., None], -1)[..., 0]
    return vals, idx


@spec("median", ALL)
def _median(dt):
    x = gen(dt, (3, 4))
    if dt in FLOATS:
        x[1, 2] = np.nan
    v1, i1 = _lower_median(x, 1, dt)
    v0, i0 = _lower_median(x, 0, dt)
    flat = np.sort(x.reshape(-1), kind="stable") if dt != "bool" else np.sort(x.reshape(-1))
    return Frag([("x", dt, x)], [
        "t = R.median(x, axis=1)", "v = t[0]", "i = t[1]",
        "k = R.median(x, axis=0, keepdims=True)", "kv = k[0]", "ki = k[1]",
        "a = R.median(x)"], ["v", "i", "kv", "ki", "a"],
        lambda: [out(dt, v1), out("int64", i1), out(dt, v0[None]), out("int64", i0[None]),
                 out(dt, flat[(x.size - 1) // 2])], sym=True)


def _resize_coord(o, n_in, n_out, mode):
    scale = n_in / n_out
    if mode == "half_pixel":
        return (o + 0.5) * scale - 0.5
    if mode == "align_corners":
        return o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0 * o
    return o * scale


def _resize(x, oh, ow, method, mode):
    n, c, h, w = x.shape
    ys = _resize_coord(np.arange(oh, dtype=np.float64), h, oh, mode)
    xs = _resize_coord(np.arange(ow, dtype=np.float64), w, ow, mode)
    if method == "nearest_neighbor":
        yi = np.clip(np.floor(ys + 1e-5).astype(int), 0, h - 1)
        xi = np.clip(np.floor(xs + 1e-5).astype(int), 0, w - 1)
        return x[:, :, yi][:, :, :, xi]
    y0, x0 = np.floor(ys), np.floor(xs)
    ty, tx = (ys - y0)[:, None], (xs - x0)[None, :]
    y0, x0 = y0.astype(int), x0.astype(int)
    cy = lambda i: np.clip(i, 0, h - 1)
    cx = lambda i: np.clip(i, 0, w - 1)
    g = lambda yy, xx: x[:, :, cy(yy)][:, :, :, cx(xx)]
    top = g(y0, x0) * (1 - tx) + g(y0, x0 + 1) * tx
    bottom = g(y0 + 1, x0) * (1 - tx) + g(y0 + 1, x0 + 1) * tx
    return top * (1 - ty) + bottom * ty


@spec("image.resize2d", FLOATS)
def _image_resize2d(dt):
    x = gen(dt, (1, 2, 3, 4))
    xn = x.transpose(0, 2, 3, 1).copy()
    return Frag([("x", dt, x), ("y", dt, xn)], [
        "a = R.image.resize2d(x, R.shape([5, 7]))",
        'b = R.image.resize2d(x, (6, 3), method="nearest_neighbor", '
        'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
        'c = R.image.resize2d(y, R.shape([5, 7]), layout="NHWC", '
        'coordinate_transformation_mode="align_corners")'], ["a", "b", "c"],
        lambda: [out(dt, _resize(up(x, dt), 5, 7, "linear", "half_pixel")),
                 out(dt, _resize(up(x, dt), 6, 3, "nearest_neighbor", "asymmetric")),
                 out(dt, _resize(up(x, dt), 5, 7, "linear", "align_corners")
                     .transpose(0, 2, 3, 1))])


def _grid_sample(x, g, align, padding):
    n, c, h, w = x.shape
    res = np.zeros((n, c, g.shape[1], g.shape[2]))

    def source(v, size):
        v = (v + 1) * (size - 1) / 2 if align else ((v + 1) * size - 1) / 2
        return np.clip(v, 0, size - 1) if padding == "border" else v

    for b in range(n):
        for i in range(g.shape[1]):
            for j in range(g.shape[2]):
                sx, sy = source(g[b, i, j, 0], w), source(g[b, i, j, 1], h)
                x0, y0 = int(np.floor(sx)), int(np.floor(sy))
                tx, ty = sx - x0, sy - y0
                acc = np.zeros(c)
                for yy, xx, wt in ((y0, x0, (1 - ty) * (1 - tx)), (y0, x0 + 1, (1 - ty) * tx),
                                   (y0 + 1, x0, ty * (1 - tx)), (y0 + 1, x0 + 1, ty * tx)):
                    if 0 <= yy < h and 0 <= xx < w:
                        acc = acc + x[b, :, yy, xx] * wt
                res[b, :, i, j] = acc
    return res


@spec("image.grid_sample", FLOATS)
def _image_grid_sample(dt):
    x, g = gen(dt, (1, 2, 3, 4)), gen(dt, (1, 2, 3, 2), "unit")
    g[0, 0, 0] = cast(np.array([1.2, -1.3]), dt)
    return Frag([("x", dt, x), ("g", dt, g)], [
        "a = R.image.grid_sample(x, g)",
        'b = R.image.grid_sample(x, g, padding_mode="border", align_corners=True)'], ["a", "b"],
        lambda: [out(dt, _grid_sample(up(x, dt), up(g, dt), False, "zeros")),
                 out(dt, _grid_sample(up(x, dt), up(g, dt), True, "border"))])


# --------------------------------------------------------------------------
# stack, meshgrid, one_hot, outer, eye/eye_like, hamming_window, ewise_fma,
# collapse_sum_like/_to, bucketize
# --------------------------------------------------------------------------


@spec("stack", ALL)
def _stack(dt):
    x, y = gen(dt, (2, 3)), gen(dt, (2, 3))
    return Frag([("x", dt, x), ("y", dt, y)],
                ["r = R.stack((x, y, x), axis=1)", "s = R.stack((y,))", "t = R.stack((x, y), -1)"],
                ["r", "s", "t"], lambda: [out(dt, np.stack([x, y, x], 1)), out(dt, np.stack([y])),
                                          out(dt, np.stack([x, y], -1))], sym=True)


@spec("meshgrid", ALL)
def _meshgrid(dt):
    a, b, c = gen(dt, (2,)), gen(dt, (3,)), gen(dt, (3,))
    ij = np.meshgrid(a, b, c, indexing="ij")
    xy = np.meshgrid(b, c, indexing="xy")
    return Frag([("a", dt, a), ("b", dt, b), ("c", dt, c)],
                ["g = R.meshgrid((a, b, c))", "g0 = g[0]", "g1 = g[1]", "g2 = g[2]",
                 'h = R.meshgrid((b, c), indexing="xy")', "h0 = h[0]", "h1 = h[1]"],
                ["g0", "g1", "g2", "h0", "h1"],
                lambda: [out(dt, v) for v in ij + xy])


def _prim(dt, v):
    return "R.prim_value(T.%s(%s))" % (dt, ("True" if v else "False") if dt == "bool" else v)


@spec("one_hot", ALL)
def _one_hot(dt):
    i = np.array([[0, 3], [-1, 2]], np.int64)
    j = np.array([1, 0, 2], np.int32)
    on, off = (True, False) if dt == "bool" else (3, 1) if dt in INTS else (1.5, -0.5)

    def hot(idx, depth, axis):
        h = np.moveaxis(np.arange(depth) == idx[..., None], -1, axis)
        return np.where(h, on, off)
    return Frag([("i", "int64", i), ("j", "int32", j)],
                ["r = R.one_hot(i, %s, %s, depth=4)" % (_prim(dt, on), _prim(dt, off)),
                 "s = R.one_hot(j, %s, %s, 3, axis=0)" % (_prim(dt, on), _prim(dt, off))],
                ["r", "s"], lambda: [out(dt, hot(i, 4, -1)), out(dt, hot(j, 3, 0))])


@spec("outer", ALL)
def _outer(dt):
    a, b = gen(dt, (3,)), gen(dt, (4,))
    return Frag([("a", dt, a), ("b", dt, b)], ["r = R.outer(a, b)"], ["r"],
                errstate(lambda: [out(dt, np.outer(a, b) if dt == "bool" else
                                      np.outer(up(a, dt), up(b, dt)).astype(up(a, dt).dtype))]),
                sym=True)


@spec("eye", ALL)
def _eye(dt):
    return Frag([], ['r = R.eye(3, 4, k=1, dtype="%s")' % dt, 's = R.eye(3, dtype="%s")' % dt,
                     't = R.eye(2, 5, -1, "%s")' % dt], ["r", "s", "t"],
                lambda: [out(dt, np.eye(3, 4, 1)), out(dt, np.eye(3)), out(dt, np.eye(2, 5, -1))])


@spec("eye_like", ALL)
def _eye_like(dt):
    x = gen(dt, (3, 4))
    return Frag([("x", dt, x)], ["r = R.eye_like(x)", 's = R.eye_like(x, 2, dtype="%s")' % dt],
                ["r", "s"], lambda: [out(dt, np.eye(3, 4)), out(dt, np.eye(3, 4, 2))], sym=True)


def _hamming(n, periodic, alpha, beta):
    if n == 1:
        return np.ones(1)
    d = n if periodic else n - 1
    return alpha - beta * np.cos(2 * np.pi * np.arange(n) / d)


@spec("hamming_window", FLOATS)
def _hamming_window(dt):
    return Frag([], ['r = R.hamming_window(8, True, 0.54, 0.46, dtype="%s")' % dt,
                     's = R.hamming_window(5, False, 0.5, 0.5, "%s")' % dt,
                     't = R.hamming_window(1, False, 0.54, 0.46, "%s")' % dt], ["r", "s", "t"],
                lambda: [out(dt, _hamming(8, True, 0.54, 0.46)), out(dt, _hamming(5, False, 0.5, 0.5)),
                         out(dt, _hamming(1, False, 0.54, 0.46))])


@spec("ewise_fma", ALL)
def _ewise_fma(dt):
    a, b, c = gen(dt, (2, 3)), gen(dt, (2, 3)), gen(dt, (2, 3))

    def expect():
        if dt == "bool":
            return [out(dt, (a & b) | c)]
        if is_float(dt):
            return [out(dt, up(a, dt) * up(b, dt) + up(c, dt))]
        return [out(dt, a * b + c)]
    return Frag([("a", dt, a), ("b", dt, b), ("c", dt, c)], ["r = R.ewise_fma(a, b, c)"], ["r"],
                errstate(expect), sym=True)


def _collapse(x, shape, dt):
    lead = x.ndim - len(shape)
    axes = tuple(d for d in range(x.ndim) if d < lead or (shape[d - lead] == 1 and x.shape[d] != 1))
    s = up(x, dt).sum(axis=axes, keepdims=True) if is_float(dt) else x.sum(axis=axes, keepdims=True,
                                                                          dtype=x.dtype)
    return s.reshape(shape)


@spec("collapse_sum_like", NON_BOOL)
def _collapse_sum_like(dt):
    x, t = gen(dt, (2, 3, 4)), gen(dt, (3, 1))
    return Frag([("x", dt, x), ("t", dt, t)], ["r = R.collapse_sum_like(x, t)"], ["r"],
                errstate(lambda: [out(dt, _collapse(x, (3, 1), dt))]))


@spec("collapse_sum_to", NON_BOOL)
def _collapse_sum_to(dt):
    x = gen(dt, (2, 3, 4))
    return Frag([("x", dt, x)], ["r = R.collapse_sum_to(x, (1, 4))", "s = R.collapse_sum_to(x, (2, 3, 1))",
                                 "t = R.collapse_sum_to(x, ())"], ["r", "s", "t"],
                errstate(lambda: [out(dt, _collapse(x, (1, 4), dt)), out(dt, _collapse(x, (2, 3, 1), dt)),
                                  out(dt, _collapse(x, (), dt))]))


@spec("bucketize", ALL)
def _bucketize(dt):
    x = gen(dt, (2, 5))
    b = np.array([False, True]) if dt == "bool" else np.unique(gen(dt, (6,)))
    return Frag([("x", dt, x), ("b", dt, b)],
                ["r = R.bucketize(x, b)", "s = R.bucketize(x, b, out_int32=True, right=True)"],
                ["r", "s"], lambda: [out("int64", np.searchsorted(b, x, side="left")),
                                     out("int32", np.searchsorted(b, x, side="right"))])
# losses, dropout, channel norms and gradients (kernels/cpu/Training.cpp)
# --------------------------------------------------------------------------


def _nll_parts(p, t, w, ignore):
    """Per target: the prediction it picks and its weight (0 if ignored)."""
    tc = np.where(t == ignore, 0, t)
    picked = np.take_along_axis(p, tc[:, None, ...], axis=1)[:, 0]
    wt = np.where(t == ignore, 0.0, w[tc])
    return tc, picked, wt


def _nll_loss(p, t, w, reduction, ignore=-100):
    _, picked, wt = _nll_parts(p, t, w, ignore)
    loss = -picked * wt
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.sum() / wt.sum()


def _nll_loss_backward(g, p, t, w, reduction, ignore=-100):
    tc, _, wt = _nll_parts(p, t, w, ignore)
    g = np.asarray(g, np.float64)
    scale = g if reduction == "none" else np.full(t.shape, g)
    if reduction == "mean":
        scale = scale / wt.sum()
    r = np.zeros_like(p)
    for idx in np.ndindex(*t.shape):
        r[(idx[0], tc[idx]) + idx[1:]] = -wt[idx] * scale[idx]
    return r


def _nll_inputs(dt):
    p, w = gen(dt, (2, 3, 2)), gen(dt, (3,), "pos")
    t = rng.integers(0, 3, (2, 2)).astype("int64")
    t[0, 0] = 1  # ignore_index=1 below drops at least one target
    return p, t, w


@spec("nn.nll_loss", FLOATS)
def _nn_nll_loss(dt):
    p, t, w = _nll_inputs(dt)
    P, W = up(p, dt), up(w, dt)
    ones = np.ones(3)
    return Frag([("p", dt, p), ("t", "int64", t), ("w", dt, w)],
                ["r0 = R.nn.nll_loss(p, t)", "r1 = R.nn.nll_loss(p, t, w, reduction=\"sum\")",
                 "r2 = R.nn.nll_loss(p, t, w, \"none\", ignore_index=1)",
                 "r3 = R.nn.nll_loss(p, t, w, ignore_index=1)"], ["r0", "r1", "r2", "r3"],
                lambda: [out(dt, _nll_loss(P, t, ones, "mean")), out(dt, _nll_loss(P, t, W, "sum")),
                         out(dt, _nll_loss(P, t, W, "none", 1)),
                         out(dt, _nll_loss(P, t, W, "mean", 1))])


@spec("grad.nll_loss_backward", FLOATS)
def _grad_nll_loss_backward(dt):
    p, t, w = _nll_inputs(dt)
    gs, gn = gen(dt, ()), gen(dt, (2, 2))
    P, W = up(p, dt), up(w, dt)
    ones = np.ones(3)
    return Frag([("p", dt, p), ("t", "int64", t), ("w", dt, w), ("gs", dt, gs), ("gn", dt, gn)],
                ["r0 = R.grad.nll_loss_backward(gs, p, t, w)",
                 "r1 = R.grad.nll_loss_backward(gs, p, t, reduction=\"sum\")",
                 "r2 = R.grad.nll_loss_backward(gn, p, t, w, \"none\", ignore_index=1)"],
                ["r0", "r1", "r2"],
                lambda: [out(dt, _nll_loss_backward(up(gs, dt), P, t, W, "mean")),
                         out(dt, _nll_loss_backward(up(gs, dt), P, t, ones, "sum")),
                         out(dt, _nll_loss_backward(up(gn, dt), P, t, W, "none", 1))])


@spec("nn.cross_entropy_with_logits", FLOATS)
def _nn_cross_entropy(dt):
    x, y, u, v = gen(dt, (2, 3)), gen(dt, (2, 3)), gen(dt, (3,)), gen(dt, (3,))
    return Frag([("x", dt, x), ("y", dt, y), ("u", dt, u), ("v", dt, v)],
                ["r0 = R.nn.cross_entropy_with_logits(x, y)",
                 "r1 = R.nn.cross_entropy_with_logits(u, v)"], ["r0", "r1"],
                lambda: [out(dt, -(up(x, dt) * up(y, dt)).sum() / 2),
                         out(dt, -(up(u, dt) * up(v, dt)).sum())])


@spec("nn.dropout", ALL)
def _nn_dropout(dt):
    x = gen(dt, (2, 3))
    return Frag([("x", dt, x)], ["d = R.nn.dropout(x, rate=0.3)", "r0 = d[0]", "r1 = d[1]"],
                ["r0", "r1"], lambda: [out(dt, x), out(dt, np.ones((2, 3)))], sym=True)


def _channel_norm(x, g, b, groups, axes, eps=1e-5, center=True, scale=True):
    n, c = x.shape[:2]
    xs = x.reshape((n, groups, c // groups) + x.shape[2:])
    red = (2,) + tuple(a + 1 for a in axes)
    mean = xs.mean(axis=red, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=red, keepdims=True)
    y = ((xs - mean) / np.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if scale:
        y = y * g.reshape(shape)
    if center:
        y = y + b.reshape(shape)
    return y


@spec("nn.group_norm", FLOATS)
def _nn_group_norm(dt):
    x, g, b = gen(dt, (2, 4, 3)), gen(dt, (4,)), gen(dt, (4,))
    X, G, B = up(x, dt), up(g, dt), up(b, dt)
    return Frag([("x", dt, x), ("g", dt, g), ("b", dt, b)],
                ["r0 = R.nn.group_norm(x, g, b, 2, 1, [2])",
                 "r1 = R.nn.group_norm(x, g, b, num_groups=4, channel_axis=1, axes=2, "
                 "epsilon=1e-3, center=False)"], ["r0", "r1"],
                lambda: [out(dt, _channel_norm(X, G, B, 2, [2])),
                         out(dt, _channel_norm(X, G, B, 4, [2], 1e-3, center=False))], sym=True)


@spec("nn.instance_norm", FLOATS)
def _nn_instance_norm(dt):
    x, g, b = gen(dt, (2, 3, 2, 2)), gen(dt, (3,)), gen(dt, (3,))
    X, G, B = up(x, dt), up(g, dt), up(b, dt)
    return Frag([("x", dt, x), ("g", dt, g), ("b", dt, b)],
                ["r0 = R.nn.instance_norm(x, g, b, 1, [2, 3])",
                 "r1 = R.nn.instance_norm(x, g, b, 1, [2, 3], scale=False)"], ["r0", "r1"],
                lambda: [out(dt, _channel_norm(X, G, B, 3, [2, 3])),
                         out(dt, _channel_norm(X, G, B, 3, [2, 3], scale=False))], sym=True)


@spec("grad.take_backward", NON_BOOL)
def _grad_take_backward(dt):
    x, g, g2 = gen(dt, (3, 4)), gen(dt, (5, 4)), gen(dt, (5,))
    i = np.array([0, 2, -1, 2, 1], "int64")
    j = np.array([11, 0, 5, 5, 3], "int64")

    def expect():
        r0 = np.zeros((3, 4), np.float64 if is_float(dt) else np.int64)
        np.add.at(r0, i % 3, up(g, dt))
        r1 = np.zeros(12, r0.dtype)
        np.add.at(r1, j, up(g2, dt))
        return [out(dt, r0), out(dt, r1.reshape(3, 4))]
    return Frag([("x", dt, x), ("g", dt, g), ("g2", dt, g2), ("i", "int64", i), ("j", "int64", j)],
                ["r0 = R.grad.take_backward(g, x, i, axis=0)",
                 "r1 = R.grad.take_backward(g2, x, j)"], ["r0", "r1"], errstate(expect))


def _pool_grad(g, x, k, s, pad, is_max, include_pad):
    """TOPI's pool_grad on NCHW with square windows and dilation 1."""
    r = np.zeros_like(x)
    H, W = x.shape[2:]
    for n, c, oh, ow in np.ndindex(*g.shape):
        h0, w0 = oh * s - pad, ow * s - pad
        taps = [(h, w) for h in range(h0, h0 + k) for w in range(w0, w0 + k)
                if 0 <= h < H and 0 <= w < W]
        if not taps:
            continue
        if is_max:
            h, w = max(taps, key=lambda t: (x[n, c][t], -taps.index(t)))
            r[n, c, h, w] += g[n, c, oh, ow]
            continue
        if include_pad:
            cnt = (min(h0 + k, H + pad) - h0) * (min(w0 + k, W + pad) - w0)
        else:
            cnt = len(taps)
        for t in taps:
            r[(n, c) + t] += g[n, c, oh, ow] / cnt
    return r


@spec("grad.max_pool2d_backward", FLOATS)
def _grad_max_pool2d_backward(dt):
    x, dy = gen(dt, (1, 2, 5, 5)), gen(dt, (1, 2, 2, 2))
    return Frag([("x", dt, x), ("dy", dt, dy)],
                ["r0 = R.grad.max_pool2d_backward(dy, x, pool_size=[2, 2], strides=[2, 2])"],
                ["r0"], lambda: [out(dt, _pool_grad(up(dy, dt), up(x, dt), 2, 2, 0, True, False))])


@spec("grad.avg_pool2d_backward", FLOATS)
def _grad_avg_pool2d_backward(dt):
    x, dy = gen(dt, (1, 2, 5, 5)), gen(dt, (1, 2, 3, 3))
    X, DY = up(x, dt), up(dy, dt)
    return Frag([("x", dt, x), ("dy", dt, dy)],
                ["r0 = R.grad.avg_pool2d_backward(dy, x, [3, 3], [2, 2], [1, 1, 1, 1], "
                 "ceil_mode=True, count_include_pad=True)",
                 "r1 = R.grad.avg_pool2d_backward(dy, x, [3, 3], [2, 2], [1, 1, 1, 1])"],
                ["r0", "r1"], lambda: [out(dt, _pool_grad(DY, X, 3, 2, 1, False, True)),
                                       out(dt, _pool_grad(DY, X, 3, 2, 1, False, False))])
