# graft addition for well-formed output: reads that TVM's planner does not see.
# The constant c and the reshape v are lifted into the open region; c is read by
# the `if` condition and v by the returned tuple (a SeqExpr body), so both become
# outputs and are unpacked at their bindings.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8,), "float32"), flag: R.Tensor((), "bool")) -> R.Tuple(R.Tensor((2, 4), "float32"), R.Tensor((), "bool")):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        a0: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float32")
        k0 = R.call_packed("fill", flag, a0, sinfo_args=(R.Tuple,))
        v: R.Tensor((2, 4), "float32") = R.reshape(a0, R.shape([2, 4]))
        c: R.Tensor((), "bool") = R.const(True, "bool")
        if c:
            r: R.Tensor((), "bool") = flag
        else:
            r: R.Tensor((), "bool") = R.const(False, "bool")
        return (v, r)


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object) = (s0,)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(flag: R.Tensor((), dtype="bool"), a0: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((), dtype="bool"), R.Tensor((2, 4), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        R.call_packed("fill", flag, a0, sinfo_args=(R.Tuple,))
        v: R.Tensor((2, 4), dtype="float32") = R.reshape(a0, R.shape([2, 4]))
        c: R.Tensor((), dtype="bool") = R.const(True, "bool")
        gv: R.Tuple(R.Tensor((), dtype="bool"), R.Tensor((2, 4), dtype="float32")) = (c, v)
        return gv

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((), dtype="bool")):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        cls = Expected
        gv: R.Tuple(R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object),))
        s0: R.Object = gv[0]
        a0: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        gv_1: R.Tuple(R.Tensor((), dtype="bool"), R.Tensor((2, 4), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (flag, a0), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((), dtype="bool"), R.Tensor((2, 4), dtype="float32")),))
        v: R.Tensor((2, 4), dtype="float32") = gv_1[1]
        c: R.Tensor((), dtype="bool") = gv_1[0]
        if c:
            r: R.Tensor((), dtype="bool") = flag
        else:
            r: R.Tensor((), dtype="bool") = R.const(False, "bool")
        return (v, r)
