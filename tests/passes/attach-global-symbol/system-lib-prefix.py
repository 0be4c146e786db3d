# TVM's test_system_lib_prefix: a private PrimFunc gets the module's
# system_lib_prefix in its symbol, its GlobalVar is renamed to match, and the
# call_tir follows the new name.
# PIPELINE: attach-global-symbol
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    I.module_attrs({"system_lib_prefix": "hello_"})

    @T.prim_func(private=True)
    def tir_zeros(x: T.Buffer((2,), "float32")):
        x[0] = T.float32(0)

    @R.function(private=True)
    def main() -> R.Tensor((2,), "float32"):
        cls = Before
        gv0 = R.call_tir(cls.tir_zeros, (), out_sinfo=R.Tensor((2,), dtype="float32"))
        return gv0


@I.ir_module
class Expected:
    I.module_attrs({"system_lib_prefix": "hello_"})

    @T.prim_func
    def hello_tir_zeros(x: T.Buffer((2,), "float32")):
        T.func_attr({"global_symbol": "hello_tir_zeros"})
        x[0] = T.float32(0)

    @R.function
    def main() -> R.Tensor((2,), "float32"):
        cls = Expected
        gv0 = R.call_tir(cls.hello_tir_zeros, (), out_sinfo=R.Tensor((2,), dtype="float32"))
        return gv0
