# Calls of runtime ops (call forms, allocation, shape ops) and of other
# functions stay as they are: nothing changes.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_dps_packed("graft.exp", (x,), out_sinfo=R.Tensor((4,), "float32"))
        s = R.shape_of(y)
        z = R.call_pure_packed("test.copy", y, sinfo_args=(R.Tensor((4,), "float32"),))
        a = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return z


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_dps_packed("graft.exp", (x,), out_sinfo=R.Tensor((4,), "float32"))
        s = R.shape_of(y)
        z = R.call_pure_packed("test.copy", y, sinfo_args=(R.Tensor((4,), "float32"),))
        a = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return z
