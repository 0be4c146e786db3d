# ERROR: R.meshgrid expects each input tensor to be 1-D, but input 1 has ndim 2
@R.function
def main(x: R.Tensor((3,), "float32"), z: R.Tensor((2, 3), "float32")):
    y = R.meshgrid((x, z))
    return y
