# ERROR: R.image.resize2d expects layout "NCHX" to be a layout of NCHW (unknown axis 'X')
@R.function
def main(x: R.Tensor((1, 3, 4, 4), "float32")):
    y = R.image.resize2d(x, R.shape([2, 2]), layout="NCHX")
    return y
