# ERROR: R.nn.prelu expects axis 2 to be in range [-2, 2)
@R.function
def main(x: R.Tensor((2, 8), "float32"), a: R.Tensor((8,), "float32")):
    y = R.nn.prelu(x, a, axis=2)
    return y
