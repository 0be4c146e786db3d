# ERROR: R.outer expects two 1-D tensors, but got ndim 2 and 1
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((3,), "float32")):
    y = R.outer(x, z)
    return y
