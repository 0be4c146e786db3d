# Unused results of impure calls stay (R.print, a packed call), and so does
# what they read; the unused pure add goes. Outside a dataflow block only.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.multiply(x, x)
        _ = R.print(y, format="{}")
        z = R.call_packed("my_side_effect", x, sinfo_args=R.Object)
        unused = R.add(x, x)
        return x


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.multiply(x, x)
        _ = R.print(y, format="{}")
        z = R.call_packed("my_side_effect", x, sinfo_args=R.Object)
        return x
