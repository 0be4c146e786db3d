# TVM's test_transform_remove_purity_checking: pure functions (nested ones
# too) get relax.force_pure; call_pure_packed becomes a direct packed call and
# invoke_pure_closure becomes invoke_closure; impure functions stay as they are.
# PIPELINE: remove-purity-checking
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def base(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        y = R.add(x, x)
        z = R.add(x, y)
        return z

    @R.function
    def use_call_pure_packed(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        y = R.add(x, x)
        z = R.call_pure_packed("vm.builtin.copy", y, sinfo_args=(R.Tensor((), dtype="int32")))
        return z

    @R.function
    def use_invoke_pure_closure(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        cls = Before
        closure = R.make_closure(cls.base, ())
        res = R.invoke_pure_closure(closure, (x,), sinfo_args=R.Tensor((), "int32"))
        return res

    @R.function(pure=False)
    def impure_func() -> R.Object:
        y = R.print(format="I am impure!")
        return y

    @R.function
    def nested_pure_func() -> R.Tensor((), "int32"):
        @R.function
        def nested(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
            y = R.add(x, x)
            q = R.call_pure_packed("vm.builtin.copy", y, sinfo_args=(R.Tensor((), dtype="int32")))
            return q

        z = R.const(1, dtype="int32")
        w = nested(z)
        return w

    @R.function(pure=False)
    def nested_impure_func() -> R.Tensor((), "int32"):
        @R.function(pure=False)
        def nested() -> R.Object:
            x = R.print(format="Oops!")
            return x

        y = R.const(1, dtype="int32")
        z = nested()
        return y


@I.ir_module
class Expected:
    @R.function
    def base(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        z = R.add(x, y)
        return z

    @R.function
    def use_call_pure_packed(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        z = R.call_packed("vm.builtin.copy", y, sinfo_args=(R.Tensor((), dtype="int32")))
        return z

    @R.function
    def use_invoke_pure_closure(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        closure = R.make_closure(cls.base, ())
        res = R.invoke_closure(closure, (x,), sinfo_args=R.Tensor((), "int32"))
        return res

    @R.function(pure=False)
    def impure_func() -> R.Object:
        y = R.print(format="I am impure!")
        return y

    @R.function
    def nested_pure_func() -> R.Tensor((), "int32"):
        R.func_attr({"relax.force_pure": True})

        @R.function
        def nested(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
            R.func_attr({"relax.force_pure": True})
            y = R.add(x, x)
            q = R.call_packed("vm.builtin.copy", y, sinfo_args=(R.Tensor((), dtype="int32")))
            return q

        z = R.const(1, dtype="int32")
        w = nested(z)
        return w

    @R.function(pure=False)
    def nested_impure_func() -> R.Tensor((), "int32"):
        @R.function(pure=False)
        def nested() -> R.Object:
            x = R.print(format="Oops!")
            return x

        y = R.const(1, dtype="int32")
        z = nested()
        return y
