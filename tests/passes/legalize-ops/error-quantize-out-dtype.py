# TVM's quantize takes a uint16 out_dtype, which no kernel tensor holds:
# legalize-ops refuses it by name.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.quantize in binding 'q' of function 'main' has out_dtype uint16, which no kernel tensor can hold
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), s: R.Tensor((), "float32"), z: R.Tensor((), "int8")):
        q = R.quantize(x, s, z, out_dtype="uint16")
        return q
