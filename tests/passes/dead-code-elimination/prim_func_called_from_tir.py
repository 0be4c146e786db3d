# A PrimFunc that only another PrimFunc's body calls is reachable: the call
# in the TIR body counts as a use, so only the uncalled one goes.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        cls = Before
        y = R.call_tir(cls.add_tensors, (x, x), out_sinfo=R.Tensor((16,), "float32"))
        return y

    @T.prim_func(private=True)
    def add_tensors(a: T.Buffer((16,), "float32"), b: T.Buffer((16,), "float32"), c: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("add"):
                vi = T.axis.remap("S", [i])
                c[vi] = Before.add_scalars(a[vi], b[vi])

    @T.prim_func(private=True)
    def add_scalars(x: T.float32, y: T.float32) -> T.float32:
        return x + y

    @T.prim_func(private=True)
    def unused(x: T.float32) -> T.float32:
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        cls = Expected
        y = R.call_tir(cls.add_tensors, (x, x), out_sinfo=R.Tensor((16,), "float32"))
        return y

    @T.prim_func(private=True)
    def add_tensors(a: T.Buffer((16,), "float32"), b: T.Buffer((16,), "float32"), c: T.Buffer((16,), "float32")):
        # with T.block("root"):
        for i in range(16):
            with T.block("add"):
                vi = T.axis.spatial(16, i)
                T.reads(a[vi], b[vi])
                T.writes(c[vi])
                c[vi] = Expected.add_scalars(a[vi], b[vi])

    @T.prim_func(private=True)
    def add_scalars(x: T.float32, y: T.float32) -> T.float32:
        return x + y
