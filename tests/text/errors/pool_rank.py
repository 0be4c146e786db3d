# ERROR: R.nn.max_pool2d expects data to have 4 dimensions, as its layout says, but got 3
@R.function
def main(x: R.Tensor((1, 4, 8), "float32")):
    y = R.nn.max_pool2d(x)
    return y
