# Neural-network ops: activations, softmax, normalizations.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class NN:
    @R.function
    def activations(x: R.Tensor((2, 8), "float32")) -> R.Tensor((2, 8), "float32"):
        with R.dataflow():
            a = R.nn.relu(x)
            b = R.nn.gelu(a)
            c = R.nn.gelu_tanh(b)
            d = R.nn.silu(c)
            e = R.nn.softmax(d)
            f = R.nn.softmax(e, axis=0)
            g = R.nn.log_softmax(f, axis=-1)
            R.output(g)
        return g

    @R.function
    def norms(x: R.Tensor(("n", 8), "float16"), gamma: R.Tensor((8,), "float16"), beta: R.Tensor((8,), "float16")) -> R.Tensor(("n", 8), "float16"):
        n = T.int64()
        a = R.nn.layer_norm(x, gamma, beta, axes=[-1])
        b = R.nn.layer_norm(x, gamma, beta, axes=-1, epsilon=1e-6, center=False, scale=True)
        c = R.nn.rms_norm(x, gamma)
        d = R.nn.rms_norm(x, gamma, axes=[1], epsilon=1e-6)
        e = R.nn.relu(x)
        return a

    @R.function
    def attention(q: R.Tensor((2, "s", 8, 64), "float16"), k: R.Tensor((2, "t", 2, 64), "float16"), v: R.Tensor((2, "t", 2, 32), "float16"), b: R.Tensor((1, 8, 1, "t"), "float16")) -> R.Tensor((2, "s", 8, 32), "float16"):
        s = T.int64()
        t = T.int64()
        a = R.nn.attention(q, k, v)
        c = R.nn.attention(q, k, v, scale=0.125, causal_mask="TopLeft")
        d = R.nn.attention(q, k, v, b, causal_mask="BottomRight")
        e = R.nn.attention(q, k, v, bias=b, scale=0.5, causal_mask=None, window_size=None)
        f = R.nn.attention_bias(q, k, v, b, scale=None, causal_mask="TopLeft", window_size=None)
        return d
