# DIFF: functions["main"].body.blocks[0].bindings[0].value.sinfo_args[0].dtype
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_pure_packed("my_func", x, sinfo_args=R.Tensor((4,), "float32"))
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_pure_packed("my_func", x, sinfo_args=R.Tensor((4,), "float16"))
        return y
