# A chain of var-to-var copies folds to the root var: every copy goes away
# and the result reads the parameter directly.
# RUN: %graft opt %s -p canonicalize-bindings | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        a = x
        b = a
        c = b
        d = c
        e = d
        return e

# CHECK-LABEL: def main(
# CHECK-NEXT: return x
