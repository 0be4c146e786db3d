# A private function named in entry-functions is kept although nothing calls
# it; the other private function goes.
# PIPELINE: dead-code-elimination{entry-functions=keep}
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(private=True)
    def keep(x: R.Tensor((4,), "float32")):
        return x

    @R.function(private=True)
    def drop(x: R.Tensor((4,), "float32")):
        return x

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        return x


@I.ir_module
class Expected:
    @R.function(private=True)
    def keep(x: R.Tensor((4,), "float32")):
        return x

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        return x
