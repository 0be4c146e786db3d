# ERROR: R.image.resize2d expects data of 4 dimensions, as its layout says, but got 3
@R.function
def main(x: R.Tensor((3, 4, 4), "float32")):
    y = R.image.resize2d(x, R.shape([2, 2]))
    return y
