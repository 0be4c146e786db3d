# ERROR: R.image.resize2d expects size to be a 2-dim shape, but got ndim 3
@R.function
def main(x: R.Tensor((1, 3, 4, 4), "float32")):
    y = R.image.resize2d(x, R.shape([2, 2, 2]))
    return y
