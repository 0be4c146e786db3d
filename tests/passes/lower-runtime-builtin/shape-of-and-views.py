# shape_of and ensure_zero_offset become builtins with their result struct
# info; a view that sets nothing is its input, a view that sets some fields
# gets the others from its input (shape, dtype, offset 0) and calls the pure
# ExternFunc runtime.TVMTensorCreateView, whose derive function infers the
# view's struct info (TVM's form).
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 4), "float32")) -> R.Shape([4, 4]):
        s = R.shape_of(x)
        a = R.memory.view(x)
        b = R.memory.view(x, dtype=R.dtype("int32"))
        c = R.memory.ensure_zero_offset(b)
        return s


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 4), "float32")) -> R.Shape([4, 4]):
        s = R.call_packed("vm.builtin.shape_of", x, sinfo_args=(R.Shape([4, 4]),))
        a = x
        b = R.ExternFunc("runtime.TVMTensorCreateView", R.Callable(derive_func="tvm.relax.struct_info.infer_view_sinfo", purity=True))(x, R.shape([4, 4]), R.dtype("int32"), R.prim_value(0))
        c = R.call_packed("vm.builtin.ensure_zero_offset", b, sinfo_args=(R.Tensor((4, 4), "int32"),))
        return s
