# DIFF: functions["main"].body.blocks[0].bindings[0].value.values[0]
# n is declared in the body but defined by no param or match_cast: its use is
# not a definition, so the two (distinct) n never pair.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main() -> R.Shape(ndim=1):
        n = T.int64()
        s = R.shape([n])
        return s


@I.ir_module
class B:
    @R.function
    def main() -> R.Shape(ndim=1):
        n = T.int64()
        s = R.shape([n])
        return s
