# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(f: R.Callable((R.Tensor(("m",), "float32"),), R.Tensor(("m",), "float32"))):
        return f
