# TVM's test_vm_reshape_using_tensor_to_shape: tensor_to_shape and reshape
# both become builtins carrying their result struct info.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor([16], "float32"), shape_tensor: R.Tensor([2], "int64")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"relax.force_pure": True})
        shape = R.tensor_to_shape(shape_tensor)
        reshape = R.reshape(A, shape)
        return reshape


@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor([16], "float32"), shape_tensor: R.Tensor([2], "int64")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"relax.force_pure": True})
        shape = R.call_packed("vm.builtin.tensor_to_shape", shape_tensor, sinfo_args=R.Shape(ndim=2))
        reshape = R.call_packed("vm.builtin.reshape", A, shape, sinfo_args=R.Tensor(shape, dtype="float32"))
        return reshape
