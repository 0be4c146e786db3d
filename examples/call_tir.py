# A module with PrimFunc kernels called through R.call_tir and
# R.call_dps_packed, ready for the VM finalize pipeline:
#
#   graft opt examples/call_tir.py -p finalize
#
# shows each lowering step's result with --print-after-all: dataflow blocks
# become plain blocks, calls get explicit output allocations, the planner
# reuses storage, allocations and kills become VM builtins, symbolic shapes go
# through the shape heap, and every function gets a global_symbol.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 4), "float32")
        B = T.match_buffer(b, (n, 4), "float32")
        for i, j in T.grid(n, 4):
            B[i, j] = A[i, j] + T.float32(1)

    @T.prim_func(private=True)
    def scale(a: T.handle, b: T.handle, m: T.int64):
        A = T.match_buffer(a, (m, 4), "float32")
        B = T.match_buffer(b, (m, 4), "float32")
        for i, j in T.grid(m, 4):
            B[i, j] = A[i, j] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n, 4), "float32"))
            b = R.call_tir(cls.scale, (a,), out_sinfo=R.Tensor((n, 4), "float32"), tir_vars=R.shape([n]))
            c = R.call_tir(cls.add_one, (b,), out_sinfo=R.Tensor((n, 4), "float32"))
            R.output(c)
        return c

    @R.function
    def packed(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        with R.dataflow():
            y = R.call_dps_packed("my_runtime.relu", (x,), out_sinfo=R.Tensor((8,), "float32"))
            R.output(y)
        return y
