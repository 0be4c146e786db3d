# --split-input-file: each part between `# -----` lines is a module of its
# own, run through the pipeline on its own, and printed with the same
# separator between the outputs.
# RUN: %graft opt %s --split-input-file -p to-non-dataflow | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def first(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            y = R.add(x, x)
            R.output(y)
        return y

# CHECK-LABEL: def first(
# CHECK-NOT: R.dataflow
# CHECK: return y
# CHECK-NEXT: {{^# -----$}}
# CHECK-NOT: def first(
# CHECK-LABEL: def second(
# CHECK-NOT: R.dataflow
# CHECK: return z

# -----

from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def second(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            z = R.multiply(x, x)
            R.output(z)
        return z
