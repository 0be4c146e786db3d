# C = B folds (C read B); D = (A, C) becomes (A, B), a new value whose struct
# info is sharper; E = D renames D's definition to E, which takes that struct
# info, and the return reads the new E.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor(("v", 4096), "float16"), B: R.Tensor((6144, 4096), "float16")):
        with R.dataflow():
            C = B
            D: R.Tuple(R.Tensor(dtype="float16", ndim=2), R.Tensor((6144, 4096), "float16")) = (A, C)
            E = D
            R.output(E)
        return E


@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor(("v", 4096), "float16"), B: R.Tensor((6144, 4096), "float16")):
        v = T.int64()
        with R.dataflow():
            E: R.Tuple(R.Tensor((v, 4096), "float16"), R.Tensor((6144, 4096), "float16")) = (A, B)
            R.output(E)
        return E
