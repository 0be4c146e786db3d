# `t[i]` of a tuple of constants is constant-bound: the binding stays and its
# uses read the constant.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main():
        t = (R.const(0, "int64"), R.const(1, "int64"))
        a = t[0]
        b = t[1]
        s = R.add(a, b)
        return s


@I.ir_module
class Expected:
    @R.function
    def main():
        t = (R.const(0, "int64"), R.const(1, "int64"))
        a = t[0]
        b = t[1]
        s = R.add(R.const(0, "int64"), R.const(1, "int64"))
        return s
