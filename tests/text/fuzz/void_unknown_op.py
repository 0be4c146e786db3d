# Fuzzer finding (2026-12-02): a void binding of an op the registry does not
# know printed as a bare statement, which lost the annotation that the op's
# struct info comes from, so the printed text did not parse again.
from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        _: R.Tuple = R.my_custom_effect(x)
        return x

# The same for a packed call whose struct info comes from the annotation
# (no `sinfo_args`): it keeps its binding.
@I.ir_module
class Packed:
    @R.function
    def main(x: R.Shape(ndim=1)) -> R.Shape(ndim=1):
        R.func_attr({"relax.force_pure": True})
        _: R.Tuple = R.call_packed("vm.check", x, note=[R.Tuple()])
        R.call_packed("vm.check_void", x, sinfo_args=[R.Tuple()])
        return x
