# ERROR: R.stack expects all input tensors to have the same ndim, but got 2 and 1
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((3,), "float32")):
    y = R.stack((x, z))
    return y
