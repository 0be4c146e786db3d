# ERROR: R.ewise_fma expects its 3 arguments to have the same ndim, but got 2 and 1
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((3,), "float32")):
    y = R.ewise_fma(x, x, z)
    return y
