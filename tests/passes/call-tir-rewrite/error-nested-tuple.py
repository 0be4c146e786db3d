# v0.23 rejects nested tuple outputs ("call_tir expects Tuple of
# TensorStructInfo"); the snapshot flattens them.
# PIPELINE: call-tir-rewrite
# EXPECT-ERROR: call_tir expects Tuple of TensorStructInfo
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((4,), "float32"), R.Tuple(R.Tensor((2,), "int32"))):
        y = R.call_dps_packed("test.nested", (x,), out_sinfo=R.Tuple(R.Tensor((4,), "float32"), R.Tuple(R.Tensor((2,), "int32"))))
        return y
