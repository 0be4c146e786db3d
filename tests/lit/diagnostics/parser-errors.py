# Parser errors, one split each: the diagnostic must be the expected-error
# written on (or pointing at) the line it concerns.
# RUN: %graft opt %s --split-input-file --verify-diagnostics -p canonicalize-bindings
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, z)  # expected-error {{undefined name 'z'}}
        return y

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        # expected-error@below {{unknown op R.frobnicate}}
        y = R.frobnicate(x)
        return y

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
            return y
# expected-error@-1 {{unexpected indent}}

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), w: R.Tensor((3, 5), dtype="float32")) -> R.Tensor:
        y = R.matmul(x, w)
        # expected-error@above {{reduction lengths of the two inputs to be equal, but got 4 and 3}}
        return y
