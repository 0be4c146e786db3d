# A failing split is reported at its line in the file (not in the split),
# prints nothing, and does not stop the splits after it; the exit code is the
# worst of the splits' (2 for a parse error).
# RUN: not %graft opt %s --split-input-file -p to-non-dataflow > %t.out 2> %t.err
# RUN: FileCheck %s --check-prefix=OUT < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def first(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def second(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return R.add(x, undefined_var)
# ERR: split-error-location.py:[[@LINE-1]]:25: error: undefined name 'undefined_var'

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def third(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x

# OUT-LABEL: def first(
# OUT: {{^# -----$}}
# OUT-NEXT: {{^# -----$}}
# OUT-NEXT: # from tvm.script
# OUT: def third(
