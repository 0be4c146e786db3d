# Symbolic declarations beyond T.int64(): other scalar dtypes, T.Var with a
# name, and a constant among several targets (the name stands for it).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Decls:
    @R.function
    def mixed(x: R.Tensor(("N", 16, "H", "W"), "float32")) -> R.Tensor(("N", 16, "H", "W"), "float32"):
        N, C, H, W = T.int64(), T.int64(16), T.int64(), T.int64()
        y: R.Tensor((N, C, H, W), "float32") = R.nn.relu(x)
        return y

    @R.function
    def named(x: R.Tensor(("batch", 4), "float32")) -> R.Tensor(("batch", 4), "float32"):
        batch = T.Var("batch", "int64")
        y: R.Tensor((batch, 4), "float32") = R.nn.relu(x)
        return y

    @R.function
    def other_dtypes(a: R.Prim(value="bits"), b: R.Prim(value="t")) -> R.Prim("uint8"):
        bits = T.uint8()
        t = T.float16()
        return a
