# Losses, dropout, group/instance norm, the gradient ops, wrap_param and
# call_py_func, TVM's spellings: optional weights left out or given,
# attributes positional or by keyword, shapes known, symbolic or unknown.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Training:
    @R.function
    def losses(p: R.Tensor(("n", 5, 3), "float32"), t: R.Tensor(("n", 3), "int64"), w: R.Tensor((5,), "float32"), c: R.Tensor((5,), "float32"), s: R.Tensor((), "int32"), u: R.Tensor(dtype="float32", ndim=3)) -> R.Tensor((), "float32"):
        n = T.int64()
        a = R.nn.nll_loss(p, t)
        b = R.nn.nll_loss(p, t, w, reduction="sum", ignore_index=1)
        d = R.nn.nll_loss(p, t, w, "none")
        e = R.nn.nll_loss(c, s, reduction="none")
        f = R.nn.nll_loss(u, t, reduction="none")
        g = R.nn.cross_entropy_with_logits(p, p)
        h = R.nn.cross_entropy_with_logits(c, c)
        gp = R.grad.nll_loss_backward(a, p, t)
        gw = R.grad.nll_loss_backward(b, p, t, w, reduction="sum", ignore_index=1)
        return a

    @R.function
    def norms(x: R.Tensor((2, 4, 3, 3), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32"), h: R.Tensor((2, "c", 5), "float16"), hg: R.Tensor(("c",), "float16")) -> R.Tensor((2, 4, 3, 3), "float32"):
        c = T.int64()
        y = R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])
        z = R.nn.group_norm(x, g, b, 4, 1, 3, 1e-3, False, False)
        i = R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2, 3])
        j = R.nn.instance_norm(h, hg, hg, 1, [2], epsilon=1e-6, center=False)
        k = R.nn.dropout(x)
        l = R.nn.dropout(h, rate=0.1)
        m = R.grad.no_grad(k)
        return i

    @R.function
    def backward(dy: R.Tensor((1, 2, 2, 2), "float32"), x: R.Tensor((1, 2, 4, 4), "float32"), e: R.Tensor((3, 8), "float32"), ge: R.Tensor((5, 8), "float32"), idx: R.Tensor((5,), "int32")) -> R.Tensor((3, 8), "float32"):
        a = R.grad.max_pool2d_backward(dy, x, pool_size=[2, 2], strides=[2, 2])
        b = R.grad.avg_pool2d_backward(dy, x, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], True, True, "NCHW", "NCHW")
        c = R.grad.take_backward(ge, e, idx, axis=0)
        d = R.grad.take_backward(ge, e, idx)
        return c

    @R.function
    def params(w: R.Tensor((4, 4), "float16"), v: R.Tensor(("n",), "int8")) -> R.Tensor((4, 4), "float32"):
        n = T.int64()
        a = R.wrap_param(w)
        b = R.wrap_param(w, dtype="float16")
        c = R.wrap_param(v, "float32")
        return a

    @R.function
    def python(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor((2, 3), "float32"):
        a = R.call_py_func("my_relu", (x,), sinfo_args=(R.Tensor((2, 3), "float32"),))
        b = R.call_py_func("pair", (a, y), sinfo_args=(R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((3,), "float32")),))
        return a
