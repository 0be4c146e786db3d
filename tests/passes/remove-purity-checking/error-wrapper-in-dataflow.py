# Found by graft difftest --lowered: a masked copy's host call, unwrapped in
# its dataflow block, became an impure call there and verify-each failed. The
# pass states the precondition now and changes nothing.
# PIPELINE: remove-purity-checking
# EXPECT-ERROR: pass remove-purity-checking needs no dataflow block around a purity wrapper it unwraps (run to-non-dataflow first); function 'main'
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32"), m: R.Tensor((4,), "bool")) -> R.Tensor(dtype="float32", ndim=1):
        with R.dataflow():
            y = R.call_pure_packed("graft.host.index_tensor_mask", x, m, sinfo_args=(R.Tensor(dtype="float32", ndim=1),))
            R.output(y)
        return y
