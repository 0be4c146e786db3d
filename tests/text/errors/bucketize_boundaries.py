# ERROR: R.bucketize expects 1-D boundaries, but got ndim 2
@R.function
def main(x: R.Tensor((3,), "float32"), b: R.Tensor((2, 2), "float32")):
    y = R.bucketize(x, b)
    return y
