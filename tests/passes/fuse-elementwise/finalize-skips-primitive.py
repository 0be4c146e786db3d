# The finalize pipeline lowers main around the fused kernel call and leaves the Primitive
# function as fuse-elementwise made it: private, with its dataflow block and high-level ops.
# PIPELINE: fuse-elementwise,finalize
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.add(x, y)
            b: R.Tensor((4, 8), dtype="float32") = R.exp(a)
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_add_exp(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.add(x, y)
            b: R.Tensor((4, 8), dtype="float32") = R.exp(a)
            R.output(b)
        return b

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((4, 8), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((4, 8), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(4), R.prim_value(0), R.prim_value(8), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((4, 8), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(4), R.prim_value(0), R.prim_value(8), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((4, 8), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        storage: R.Object = R.vm.alloc_storage(R.shape([128]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((4, 8), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4, 8]), R.dtype("float32"), R.prim_value(0))
        R.vm.kill_object(storage)
        __1: R.Object = R.call_packed("graft.fused.fused_add_exp", x, y, alloc)
        return alloc
