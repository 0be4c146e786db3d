# Injective ops join the group of their elementwise readers: permute_dims, a reshape whose target
# dims are constants or dims of its operand (n is dim 0 of the operand), flatten, and a dtype
# change; the group is one Primitive function with symbolic shapes of its own.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4, 8), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor(("n * 32",), dtype="float16"):
        n = T.int64()
        with R.dataflow():
            a: R.Tensor((n, 4, 8), dtype="float32") = R.add(x, b)
            p: R.Tensor((n, 8, 4), dtype="float32") = R.permute_dims(a, axes=[0, 2, 1])
            e: R.Tensor((n, 8, 4), dtype="float32") = R.exp(p)
            r: R.Tensor((n, 32), dtype="float32") = R.reshape(e, R.shape([n, 32]))
            f: R.Tensor((n * 32,), dtype="float32") = R.flatten(r)
            h: R.Tensor((n * 32,), dtype="float16") = R.astype(f, dtype="float16")
            R.output(h)
        return h


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_add_permute_dims_exp_reshape_flatten_astype(x: R.Tensor(("n", 4, 8), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor(("n * 32",), dtype="float16"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((n, 4, 8), dtype="float32") = R.add(x, b)
            p: R.Tensor((n, 8, 4), dtype="float32") = R.permute_dims(a, axes=[0, 2, 1])
            e: R.Tensor((n, 8, 4), dtype="float32") = R.exp(p)
            r: R.Tensor((n, 32), dtype="float32") = R.reshape(e, R.shape([n, 32]))
            f: R.Tensor((n * 32,), dtype="float32") = R.flatten(r)
            h: R.Tensor((n * 32,), dtype="float16") = R.astype(f, dtype="float16")
            R.output(h)
        return h

    @R.function
    def main(x: R.Tensor(("n", 4, 8), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor(("n * 32",), dtype="float16"):
        with R.dataflow():
            h = R.call_dps_packed("graft.fused.fused_add_permute_dims_exp_reshape_flatten_astype", (x, b), out_sinfo=R.Tensor((n * 32,), dtype="float16"))
            R.output(h)
        return h
