# ERROR: '(' was never closed
# Fuzzer finding (2026-12-02): a bracket left open at the end of a prim_func
# joined the rest of the file into its body; the printer then put the next
# function after it, which re-parsed as part of the prim_func.
from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(N: T.int64) -> T.bool:
        T.ret(N % T.int64(4) == T.int64(0)
