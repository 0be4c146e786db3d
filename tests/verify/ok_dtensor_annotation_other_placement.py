# VERIFY: ok
# An annotation whose placement differs from the propagated one is a
# less-than-static mismatch (TVM's kFailL1), so it stands, as in TVM's
# sharded Expected modules.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "S[1]"), w: R.DTensor((4, 4), "float32", "mesh[0]", "S[0]")):
        y: R.DTensor((4, 4), "float32", "mesh[0]", "R") = R.matmul(x, w)
        return y
