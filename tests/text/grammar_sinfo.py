# Every struct-info annotation form, in signatures and on bindings, and vdevices;
# a var's struct info (`x.struct_info`) in sinfo_args= and annotations.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class SInfo:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0), I.vdevice("cuda", 1, "global")]})

    @R.function
    def tensors(
        a: R.Tensor((2, 3), "float32"),
        b: R.Tensor([2, 3], "float32"),
        c: R.Tensor((2, 3), dtype="float16"),
        d: R.Tensor(shape=(2, 3), dtype="int8"),
        e: R.Tensor("float32"),
        f: R.Tensor(dtype="float32", ndim=2),
        g: R.Tensor(ndim=3),
        h: R.Tensor,
        i: R.Tensor(()),
        j: R.Tensor((), "bool"),
        k: R.Tensor((4,)),
        l: R.Tensor(dtype="uint8"),
        m: R.Tensor((2, 3), "bfloat16"),
    ) -> R.Tensor:
        return a

    @R.function
    def tensors_with_vdevice(
        a: R.Tensor((2, 3), "float32", "llvm"),
        b: R.Tensor((2, 3), "float32", vdevice="cuda"),
        c: R.Tensor((2, 3), "float32", vdevice="cuda:1"),
        d: R.Tensor((2, 3), "float32", vdevice="cuda:1:global"),
        e: R.Tensor(dtype="float32", ndim=2, vdevice="cuda:0"),
    ) -> R.Tensor((2, 3), "float32", vdevice="cuda:1"):
        return c

    @R.function
    def shapes(a: R.Shape([2, 3]), b: R.Shape(ndim=2), c: R.Shape, d: R.Shape(ndim=-1), e: R.Shape([])) -> R.Shape:
        return a

    @R.function
    def prims(a: R.Prim("int64"), b: R.Prim("float32"), c: R.Prim("bool"), d: R.Prim(value=4), e: R.Prim("int32")) -> R.Prim("int64"):
        return a

    @R.function
    def objects(a: R.Object, b: R.Object(), c: R.Any, d: R.Any()) -> R.Any:
        return a

    @R.function
    def tuples(a: R.Tuple, b: R.Tuple(), c: R.Tuple(R.Tensor, R.Object), d: R.Tuple(R.Tuple(R.Shape([1])), R.Prim("int64")), e: R.Tuple([R.Tensor((1,), "float32")])) -> R.Tuple:
        return a

    @R.function
    def callables(
        a: R.Callable,
        b: R.Callable((R.Tensor((2,), "float32"),), R.Tensor((2,), "float32")),
        c: R.Callable([R.Tensor((2,), "float32"), R.Object], R.Tuple, False),
        d: R.Callable((), R.Object, True),
        e: R.Callable(ret=R.Tensor((2,), "float32"), purity=True),
        f: R.Callable(params=[R.Shape], ret=R.Shape, purity=False),
    ) -> R.Callable:
        return a

    @R.function
    def binding_annotations(x: R.Tensor((2, 3), "float32")) -> R.Object:
        a: R.Tensor((2, 3), "float32") = R.add(x, x)
        b: R.Tensor(dtype="float32", ndim=2) = R.add(x, x)
        c: R.Tensor = R.add(x, x)
        d: R.Object = R.add(x, x)
        e: R.Any = R.add(x, x)
        f: R.Object = x
        g: R.Shape(ndim=2) = R.shape_of(x)
        h: R.Tuple(R.Tensor((2, 3), "float32"), R.Object) = (x, x)
        return d

    @R.function
    def var_struct_info(x: R.Tensor((2, 3), "float32"), y: R.Tensor(("n",), "int64")) -> R.Tensor(("n",), "int64"):
        a = R.call_pure_packed("my_func", x, sinfo_args=[x.struct_info])
        b = R.call_pure_packed("my_func", a, sinfo_args=y.struct_info)
        c: y.struct_info = R.call_pure_packed("my_func", b, sinfo_args=(y.struct_info,))
        return c

    @R.function
    def to_device(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32", vdevice="cuda:0"):
        y = R.to_vdevice(x, "cuda:0")
        return y
