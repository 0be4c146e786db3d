# Fuzzer finding (2026-12-02): a prim_func body token stream "2 .real" printed
# as "2.real", which lexes as the number "2." and a name.
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(N: T.int64):
        T.evaluate(2 .real)
