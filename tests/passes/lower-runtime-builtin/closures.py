# make_closure becomes vm.builtin.make_closure (an Object), invoke_closure a
# call_builtin_with_ctx of vm.builtin.invoke_closure with the closure first.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def add_one(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.add(x, y)
        return z

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Before
        c = R.make_closure(cls.add_one, (x,))
        r = R.invoke_closure(c, (x,), sinfo_args=R.Tensor((4,), "float32"))
        return r


@I.ir_module
class Expected:
    @R.function
    def add_one(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.add(x, y)
        return z

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Expected
        c = R.call_packed("vm.builtin.make_closure", cls.add_one, x, sinfo_args=(R.Object,))
        r = R.call_builtin_with_ctx("vm.builtin.invoke_closure", (c, x), sinfo_args=R.Tensor((4,), "float32"))
        return r
