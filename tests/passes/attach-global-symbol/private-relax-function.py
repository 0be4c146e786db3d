# A public function keeps its symbol; a private one (such as a generated
# cuda_graph_alloc) gets its GlobalVar's name, which code generation needs.
# PIPELINE: attach-global-symbol
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple:
        gv = R.tuple()
        return gv


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x

    @R.function
    def cuda_graph_alloc() -> R.Tuple:
        gv = R.tuple()
        return gv
