# TVM's test_vm_builtin_alloc_tensor_raises_error: R.builtin.alloc_tensor must
# have been lowered by lower-alloc-tensor first.
# PIPELINE: lower-runtime-builtin
# EXPECT-ERROR: pass lower-runtime-builtin needs R.builtin.alloc_tensor lowered first (run lower-alloc-tensor before it)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor:
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        alloc = R.builtin.alloc_tensor(R.shape([m, n]), runtime_device_index=0, dtype="float32")
        _ = R.call_packed("test.op.identity", x, alloc, sinfo_args=(R.Tensor(ndim=2, dtype="float32")))
        gv0 = alloc
        return gv0
