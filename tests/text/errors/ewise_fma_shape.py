# ERROR: R.ewise_fma expects its 3 arguments to have the same shape, but dim 1 is 3, 3 and 4
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((2, 4), "float32")):
    y = R.ewise_fma(x, x, z)
    return y
