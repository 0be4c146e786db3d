# Shape ops, effects and devices: shape_of, tensor_to_shape, shape_to_tensor,
# print, assert_op, hint_on_device, to_vdevice.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Misc:
    I.module_global_infos({"vdevice": [I.vdevice("cuda", 0), I.vdevice("llvm", 0)]})

    @R.function
    def shapes(x: R.Tensor(("n", 4), "float32"), t: R.Tensor((2,), "int64"), u: R.Tensor(ndim=1, dtype="int64")) -> R.Shape(["n", 4]):
        s = R.shape_of(x)
        a = R.tensor_to_shape(t)
        b = R.tensor_to_shape(u)
        c = R.shape_to_tensor(s)
        d = R.shape_to_tensor(R.shape([1, 2, 3]))
        return s

    @R.function(pure=False)
    def effects(x: R.Tensor((), "bool"), y: R.Tensor((2,), "float32"), p: R.Prim("bool")) -> R.Tensor((2,), "float32"):
        R.print(y)
        R.print(y, x, format="y={} x={}")
        R.print(format="nothing")
        R.assert_op(x)
        R.assert_op(x, y, format="failed: {}")
        R.assert_op(p, format="prim condition")
        R.assert_op(R.const(True, "bool"), [y], format="list args")
        return y

    @R.function
    def devices(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        a = R.hint_on_device(x, R.device(2, 0))
        b = R.hint_on_device(x, R.device(device_type=1, index=0), "global")
        d = R.to_vdevice(x, "llvm:0")
        e = R.to_vdevice(a, dst_vdevice="cuda")
        return a
