# Cases where nothing is planned (each function is unchanged):
# - if_cond (TVM test_if_cond): c is an if condition; a is a branch result.
# - if_then_else (TVM test_if_then_else): a reaches the branch results.
# - cross_block_use (TVM test_cross_block_use): a is used in the branches'
#   blocks, not its own block; b and b2 are branch results.
# - reshape_param (TVM test_reshape_param): reshapes of parameters hold no
#   token; the alloc is returned.
# - with_dataflow (TVM test_with_dataflow): the alloc in a dataflow block is
#   the function's output.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def all_neg(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def if_cond(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        c = R.builtin.alloc_tensor(R.shape([]), R.dtype("bool"), R.prim_value(0))
        _ = cls.all_neg(x, c)
        if c:
            y = x
        else:
            a = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
            _1 = cls.f(x, a)
            y = a
        return x

    @R.function
    def if_then_else(cond: R.Tensor((), "bool"), x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        if cond:
            z = a
        else:
            z = a
        return x

    @R.function
    def cross_block_use(cond: R.Tensor((), "bool"), x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        if cond:
            b = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
            _1 = cls.f(a, b)
            z = b
        else:
            b2 = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
            _2 = cls.f(a, b2)
            z = b2
        return x

    @R.function
    def reshape_param(x: R.Tensor((2, 50), "float32"), y: R.Tensor((100,), "float32")) -> R.Tensor((2, 25, 2), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        lv = R.reshape(x, R.shape([2, 25, 2]))
        lv1 = R.reshape(y, R.shape([2, 25, 2]))
        a = R.builtin.alloc_tensor(R.shape([2, 25, 2]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(lv, a)
        return a

    @R.function
    def with_dataflow(x: R.Tensor((10,), "float32")) -> R.Tensor((10,), "float32"):
        cls = Before
        with R.dataflow():
            a = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
            _ = cls.f(x, a)
            gv = a
            R.output(gv)
        return gv


@I.ir_module
class Expected:
    @T.prim_func
    def all_neg(a: T.handle, b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def cross_block_use(cond: R.Tensor((), dtype="bool"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        a: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, a)
        if cond:
            b: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            cls.f(a, b)
            z: R.Tensor((2, 3), dtype="float32") = b
        else:
            b2: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            cls.f(a, b2)
            z: R.Tensor((2, 3), dtype="float32") = b2
        return x

    @R.function
    def if_cond(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        c: R.Tensor((), dtype="bool") = R.builtin.alloc_tensor(R.shape([]), R.dtype("bool"), R.prim_value(0), R.str("global"))
        cls.all_neg(x, c)
        if c:
            y: R.Tensor((2, 3), dtype="float32") = x
        else:
            a: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            cls.f(x, a)
            y: R.Tensor((2, 3), dtype="float32") = a
        return x

    @R.function
    def if_then_else(cond: R.Tensor((), dtype="bool"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        a: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, a)
        if cond:
            z: R.Tensor((2, 3), dtype="float32") = a
        else:
            z: R.Tensor((2, 3), dtype="float32") = a
        return x

    @R.function
    def reshape_param(x: R.Tensor((2, 50), dtype="float32"), y: R.Tensor((100,), dtype="float32")) -> R.Tensor((2, 25, 2), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        lv: R.Tensor((2, 25, 2), dtype="float32") = R.reshape(x, R.shape([2, 25, 2]))
        lv1: R.Tensor((2, 25, 2), dtype="float32") = R.reshape(y, R.shape([2, 25, 2]))
        a: R.Tensor((2, 25, 2), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 25, 2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(lv, a)
        return a

    @R.function
    def with_dataflow(x: R.Tensor((10,), dtype="float32")) -> R.Tensor((10,), dtype="float32"):
        cls = Expected
        with R.dataflow():
            a: R.Tensor((10,), dtype="float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            cls.f(x, a)
            gv: R.Tensor((10,), dtype="float32") = a
            R.output(gv)
        return gv
