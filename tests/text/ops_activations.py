# nn.leakyrelu and nn.softplus, TVM's spellings: attributes positional or by
# keyword, the defaults printed.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Activations:
    @R.function
    def main(x: R.Tensor((2, "n"), "float32"), h: R.Tensor(ndim=3, dtype="float16")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        a = R.nn.leakyrelu(x)
        b = R.nn.leakyrelu(a, alpha=0.25)
        c = R.nn.leakyrelu(h, 0.5)
        d = R.nn.softplus(b)
        e = R.nn.softplus(d, beta=2.0, threshold=10.0)
        f = R.nn.softplus(h, 0.5)
        return e

    @R.function
    def prelu(x: R.Tensor((2, 3, 4), "float32"), a: R.Tensor((3,), "float32"), b: R.Tensor((4,), "float32")) -> R.Tensor((2, 3, 4), "float32"):
        p = R.nn.prelu(x, a)
        q = R.nn.prelu(p, b, axis=-1)
        r = R.nn.prelu(q, a, 1)
        return r
