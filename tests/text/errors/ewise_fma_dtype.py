# ERROR: R.ewise_fma expects its 3 arguments to have the same dtype, but got float32, float32 and float16
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((2, 3), "float16")):
    y = R.ewise_fma(x, x, z)
    return y
