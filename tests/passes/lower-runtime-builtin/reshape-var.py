# TVM's test_vm_reshape_may_be_var: the shape argument of R.reshape may be a
# var; the call becomes vm.builtin.reshape with the result as sinfo_args.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor([16], "float32"), shape: R.Shape) -> R.Tensor(dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        reshape = R.reshape(A, shape)
        return reshape


@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor([16], "float32"), shape: R.Shape) -> R.Tensor(dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        reshape = R.call_packed("vm.builtin.reshape", A, shape, sinfo_args=R.Tensor(shape, dtype="float32"))
        return reshape
