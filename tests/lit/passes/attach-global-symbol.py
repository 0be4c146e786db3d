# TVM's test_system_lib_prefix: a private PrimFunc gets the module's
# system_lib_prefix in its symbol, its GlobalVar is renamed to match, and the
# call_tir follows the new name.
# RUN: %graft opt %s -p attach-global-symbol | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "hello_"})

    @T.prim_func(private=True)
    def tir_zeros(x: T.Buffer((2,), "float32")):
        x[0] = T.float32(0)

    @R.function(private=True)
    def main() -> R.Tensor((2,), "float32"):
        cls = Module
        gv0 = R.call_tir(cls.tir_zeros, (), out_sinfo=R.Tensor((2,), dtype="float32"))
        return gv0

# CHECK: @T.prim_func
# CHECK-LABEL: def hello_tir_zeros(
# CHECK: @R.function
# CHECK-LABEL: def main(
# CHECK: gv0 = R.call_tir(cls.hello_tir_zeros, R.tuple(), out_sinfo=R.Tensor((2,), dtype="float32"))
