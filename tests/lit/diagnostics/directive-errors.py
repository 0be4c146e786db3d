# A malformed expected-error comment, or one pointing outside its split, is
# bad input (exit 2), reported where it is written; the other splits still run.
# RUN: not %graft opt %s --split-input-file --verify-diagnostics -p canonicalize-bindings 2>&1 | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x  # expected-error {{a brace is missing}
# CHECK: directive-errors.py:[[@LINE-1]]:21: error: malformed directive; write '# expected-error {{[{][{]}}MESSAGE{{[}][}]}}' (or expected-note), optionally with @above, @below, @+N, @-N or @unknown after the kind

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x  # expected-error@+9 {{past the end of the split}}
# CHECK: directive-errors.py:[[@LINE-1]]:21: error: @+9 points to line [[#@LINE+8]], outside lines 15-25 of this split

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x
# expected-error@below {{nothing below}}
# CHECK: directive-errors.py:[[@LINE-1]]:3: error: @below: no line below it in this split
