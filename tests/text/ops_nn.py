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
