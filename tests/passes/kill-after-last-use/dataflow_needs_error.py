# A kill is impure: it cannot go into a dataflow block, so the pass stops
# before changing anything.
# PIPELINE: kill-after-last-use
# EXPECT-ERROR: pass kill-after-last-use needs no dataflow block where it inserts a kill (run to-non-dataflow first); function 'main', after binding 'b'
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            a = R.add(x, x)
            b = R.add(a, a)
            c = R.add(b, b)
            R.output(c)
        return c
