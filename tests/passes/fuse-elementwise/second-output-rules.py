# A value read inside a group and again later becomes a second output only when its shape is
# the root's and no outside reader comes before the root: `p` (another shape) and `u` (read by
# the matmul before the root) stay outside, so the groups start after them; `v` becomes an output.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")):
        with R.dataflow():
            p: R.Tensor((8, 4), dtype="float32") = R.permute_dims(x, axes=[1, 0])
            q: R.Tensor((8, 4), dtype="float32") = R.exp(p)
            r: R.Tensor((4, 8), dtype="float32") = R.permute_dims(q, axes=[1, 0])
            u: R.Tensor((4, 8), dtype="float32") = R.sin(r)
            mm: R.Tensor((4, 8), dtype="float32") = R.matmul(u, w)
            v: R.Tensor((4, 8), dtype="float32") = R.cos(u)
            z: R.Tensor((4, 8), dtype="float32") = R.add(v, mm)
            o: R.Tensor((4, 8), dtype="float32") = R.tanh(z)
            R.output(p, v, o)
        return (p, v, o)


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_cos_add_tanh(u: R.Tensor((4, 8), dtype="float32"), mm: R.Tensor((4, 8), dtype="float32")) -> R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((4, 8), dtype="float32")):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            v: R.Tensor((4, 8), dtype="float32") = R.cos(u)
            z: R.Tensor((4, 8), dtype="float32") = R.add(v, mm)
            o: R.Tensor((4, 8), dtype="float32") = R.tanh(z)
            R.output(v, o)
        return (v, o)

    @R.function(private=True)
    def fused_exp_permute_dims_sin(p: R.Tensor((8, 4), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            q: R.Tensor((8, 4), dtype="float32") = R.exp(p)
            r: R.Tensor((4, 8), dtype="float32") = R.permute_dims(q, axes=[1, 0])
            u: R.Tensor((4, 8), dtype="float32") = R.sin(r)
            R.output(u)
        return u

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((4, 8), dtype="float32"), R.Tensor((4, 8), dtype="float32")):
        with R.dataflow():
            p: R.Tensor((8, 4), dtype="float32") = R.permute_dims(x, axes=[1, 0])
            u = R.call_dps_packed("graft.fused.fused_exp_permute_dims_sin", (p,), out_sinfo=R.Tensor((4, 8), dtype="float32"))
            mm: R.Tensor((4, 8), dtype="float32") = R.matmul(u, w, out_dtype="void")
            fused_cos_add_tanh_out = R.call_dps_packed("graft.fused.fused_cos_add_tanh", (u, mm), out_sinfo=[R.Tensor((4, 8), dtype="float32"), R.Tensor((4, 8), dtype="float32")])
            v: R.Tensor((4, 8), dtype="float32") = fused_cos_add_tanh_out[0]
            o: R.Tensor((4, 8), dtype="float32") = fused_cos_add_tanh_out[1]
            R.output(p, v, o)
        return (p, v, o)
