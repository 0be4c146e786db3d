# build-cuda fuses as build-cpu does (the groups run as NVRTC-compiled kernels on the GPU): the chain
# around the matmul becomes two fused kernels,
# the matmul a kernel call, and the Primitive functions keep their high-level ops.
# PIPELINE: build-cuda
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 4), dtype="float32") = R.exp(x)
            b: R.Tensor((4, 4), dtype="float32") = R.negative(a)
            m: R.Tensor((4, 4), dtype="float32") = R.matmul(b, w)
            c: R.Tensor((4, 4), dtype="float32") = R.add(m, x)
            d: R.Tensor((4, 4), dtype="float32") = R.tanh(c)
            R.output(d)
        return d


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_add_tanh(m: R.Tensor((4, 4), dtype="float32"), x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            c: R.Tensor((4, 4), dtype="float32") = R.add(m, x)
            d: R.Tensor((4, 4), dtype="float32") = R.tanh(c)
            R.output(d)
        return d

    @R.function(private=True)
    def fused_exp_negative(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4, 4), dtype="float32") = R.exp(x)
            b: R.Tensor((4, 4), dtype="float32") = R.negative(a)
            R.output(b)
        return b

    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((4, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", w, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[1], param=w, annotation=R.Tensor((4, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(4), R.prim_value(0), R.prim_value(4), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((4, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", w, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(4), R.prim_value(0), R.prim_value(4), R.str("ErrorContext(fn=main, loc=param[1], param=w, annotation=R.Tensor((4, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        storage: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        R.vm.kill_object(storage)
        __1: R.Object = R.call_packed("graft.fused.fused_exp_negative", x, alloc)
        storage_1: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc_1: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage_1, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        R.vm.kill_object(storage_1)
        __2: R.Object = R.call_packed("graft.matmul", alloc, w, R.dtype("float32"), alloc_1)
        R.vm.kill_object(alloc)
        storage_2: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc_2: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage_2, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        R.vm.kill_object(storage_2)
        __3: R.Object = R.call_packed("graft.fused.fused_add_tanh", alloc_1, x, alloc_2)
        R.vm.kill_object(alloc_1)
        return alloc_2
