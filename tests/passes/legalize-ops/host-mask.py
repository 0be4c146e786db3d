# A bool-mask index_tensor and nonzero have a data-dependent output size:
# they become graft.host.* packed calls that return a fresh tensor (the
# runtime counts, allocates and fills), allowed in a dataflow block. Ops on
# such a result need a match_cast that names its size (see
# error-unknown-shape.py).
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), m: R.Tensor((4,), "bool")):
        k = T.int64()
        with R.dataflow():
            a = R.index_tensor(x, (m,))
            b = R.nonzero(m)
            a1 = R.match_cast(a, R.Tensor((k, 3), "float32"))
            c = R.exp(a1)
            R.output(b, c)
        return (b, c)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32"), m: R.Tensor((4,), dtype="bool")) -> R.Tuple(R.Tensor(dtype="int64", ndim=2), R.Tensor(dtype="float32", ndim=2)):
        k = T.int64()
        with R.dataflow():
            a: R.Tensor(dtype="float32", ndim=2) = R.call_pure_packed("graft.host.index_tensor_mask", x, m, sinfo_args=(R.Tensor(dtype="float32", ndim=2),))
            b: R.Tensor(dtype="int64", ndim=2) = R.call_pure_packed("graft.host.nonzero", m, sinfo_args=(R.Tensor(dtype="int64", ndim=2),))
            a1: R.Tensor((k, 3), dtype="float32") = R.match_cast(a, R.Tensor((k, 3), dtype="float32"))
            c = R.call_dps_packed("graft.exp", (a1,), out_sinfo=R.Tensor((k, 3), dtype="float32"))
            R.output(b, c)
        return (b, c)
