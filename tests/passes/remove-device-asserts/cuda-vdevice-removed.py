# A condition placed on a CUDA vdevice is a device value: the check goes.
# PIPELINE: remove-device-asserts
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    I.module_global_infos({"vdevice": [I.vdevice("cuda", 0, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((4,), dtype="float32", vdevice="cuda:0:global"):
        s: R.Tensor((), dtype="float32", vdevice="cuda:0:global") = R.sum(x, axis=None, keepdims=False)
        ok: R.Tensor((), dtype="bool", vdevice="cuda:0:global") = R.greater(s, R.const(0.0, "float32"))
        chk: R.Tuple = R.assert_op(ok, format=R.str("sum must be positive"))
        return x


@I.ir_module
class Expected:
    I.module_global_infos({"vdevice": [I.vdevice("cuda", 0, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((4,), dtype="float32", vdevice="cuda:0:global"):
        return x
