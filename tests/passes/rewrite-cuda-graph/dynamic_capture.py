# TVM test_dynamic_capture: the capture_symbolic_vars hint makes the input's n
# capturable. The capture function gets its own n through a trailing
# `shape_expr: R.Shape([n])` parameter; the launch passes R.shape([n]) both as the
# last capture argument and as the cache key after the launch index.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def inc(xh: T.handle, yh: T.handle):
        n = T.int64()
        x = T.match_buffer(xh, (n,), "float32")
        y = T.match_buffer(yh, (n,), "float32")
        for i in range(n):
            y[i] = x[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        R.func_attr({"relax.rewrite_cuda_graph.capture_symbolic_vars": ["n"], "relax.force_pure": True})
        cls = Before
        s0: R.Object = R.memory.alloc_storage(R.shape([64]), 0, "global", "float32")
        a: R.Tensor((n,), "float32") = R.memory.alloc_tensor(s0, 0, R.shape([n]), "float32")
        k0 = cls.inc(x, a)
        s1: R.Object = R.memory.alloc_storage(R.shape([64]), 0, "global", "float32")
        b: R.Tensor((n,), "float32") = R.memory.alloc_tensor(s1, 0, R.shape([n]), "float32")
        k1 = cls.inc(a, b)
        c: R.Tensor((n,), "float32") = R.builtin.alloc_tensor(R.shape([n]), "float32", 0, "global")
        k2 = cls.inc(b, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def inc(xh: T.handle, yh: T.handle):
        n = T.int64()
        x = T.match_buffer(xh, (n,), "float32")
        y = T.match_buffer(yh, (n,), "float32")
        for i in range(n):
            y[i] = x[i] + T.float32(1)

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(a: R.Tensor(("n",), dtype="float32"), b: R.Tensor(("n",), dtype="float32"), shape_expr: R.Shape(["n"])) -> R.Tuple:
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        k1: R.Tuple = cls.inc(a, b)
        R.tuple()
        return R.tuple()

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.rewrite_cuda_graph.capture_symbolic_vars": ["n"], "relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        a: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        k0: R.Tuple = cls.inc(x, a)
        s1: R.Object = gv[1]
        b: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        gv1: R.Tuple = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (a, b, R.shape([n])), R.prim_value(0), R.shape([n])), sinfo_args=(R.Tuple,))
        c: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        k2: R.Tuple = cls.inc(b, c)
        return c
