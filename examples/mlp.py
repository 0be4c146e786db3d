# A two-layer perceptron with a symbolic batch size, written the way TVM's
# own tests write Relax. `graft print examples/mlp.py` parses, verifies and
# prints it in canonical form. The upper bound on batch gives every
# intermediate a storage of constant size, so a CUDA build captures the
# layers in a CUDA graph (docs/cuda-graphs.md).
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("batch", 784), dtype="float32"),
        w1: R.Tensor((784, 128), dtype="float32"),
        b1: R.Tensor((128,), dtype="float32"),
        w2: R.Tensor((128, 10), dtype="float32"),
    ) -> R.Tensor(("batch", 10), dtype="float32"):
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"batch": 1024}})
        batch = T.int64()
        with R.dataflow():
            h = R.matmul(x, w1)
            h1 = R.add(h, b1)
            a = R.nn.relu(h1)
            logits = R.matmul(a, w2)
            probs = R.nn.softmax(logits, axis=-1)
            R.output(probs)
        return probs
