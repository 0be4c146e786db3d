# Unused bindings inside if branches go; a binding read only by a branch
# stays. An if whose value is unused but which prints stays whole.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        a = R.multiply(x, x)
        if c:
            dead1 = R.add(x, x)
            r1 = R.add(a, x)
            q = r1
        else:
            dead2 = R.multiply(a, a)
            q = x
        if c:
            _ = R.print(x, format="{}")
            dead3 = R.add(x, x)
            p = x
        else:
            p = x
        return q


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        a = R.multiply(x, x)
        if c:
            r1 = R.add(a, x)
            q = r1
        else:
            q = x
        if c:
            _ = R.print(x, format="{}")
            p = x
        else:
            p = x
        return q
