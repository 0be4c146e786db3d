# ERROR: R.nn.instance_norm expects beta to have 1 dimension, but got 2
@R.function
def main(x: R.Tensor((2, 4, 3), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4, 1), "float32")):
    y = R.nn.instance_norm(x, g, b, 1, [2])
    return y
