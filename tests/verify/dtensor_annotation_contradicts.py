# VERIFY: struct info of 'y' in function 'main' contradicts the inferred struct info: annotated R.DTensor((8, 8), "float32"
# The global views contradict; a placement that differs alone would not (TVM
# reports only a redistribution-reconcilable mismatch there).
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "R")):
        y: R.DTensor((8, 8), "float32", "mesh[0]", "R") = R.nn.relu(x)
        return y
