# Ops called through the Python module as TVM's tests write them: relax.const,
# relax.call_tir, relax.op.X and relax.op.nn.X name R.const, R.call_tir, R.X and
# R.nn.X, and print as those.
from tvm import relax
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Spellings:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        c = relax.const(1.0, "float32")
        y = relax.op.add(x, c)
        z = relax.op.nn.relu(y)
        w = relax.call_tir(Spellings.copy, (z,), out_sinfo=R.Tensor((2, 3), "float32"))
        v = relax.op.call_tir(Spellings.copy, (w,), out_sinfo=x.struct_info)
        return v

    @T.prim_func(private=True)
    def copy(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj]
