# A relax.inspect op whose value the struct info does not know is read at run
# time: it becomes vm.builtin.tensor_<field> with its R.Prim result. (A known
# one is an R.prim_value already: BlockBuilder normalized it.)
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor, axis: R.Prim("int64"), y: R.Tensor((2, 3), "int8")):
        a = R.inspect.tensor_dtype_bits(x)
        b = x.ndim
        c = x.shape[axis]
        d = x.strides[1]
        e = x.elem_offset
        f = y.strides[0]
        return (a, b, c, d, e, f)


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor, axis: R.Prim("int64"), y: R.Tensor((2, 3), "int8")):
        a = R.call_packed("vm.builtin.tensor_dtype_bits", x, sinfo_args=(R.Prim("uint8"),))
        b = R.call_packed("vm.builtin.tensor_ndim", x, sinfo_args=(R.Prim("int32"),))
        c = R.call_packed("vm.builtin.tensor_shape_i", x, axis, sinfo_args=(R.Prim("int64"),))
        d = R.call_packed("vm.builtin.tensor_stride_i", x, R.prim_value(1), sinfo_args=(R.Prim("int64"),))
        e = R.call_packed("vm.builtin.tensor_elem_offset", x, sinfo_args=(R.Prim("uint64"),))
        f = R.prim_value(3)
        return (a, b, c, d, e, f)
