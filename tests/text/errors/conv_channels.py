# ERROR: R.nn.conv2d expects the data's channels to equal the weight's input channels times groups, but got 4 and 3
@R.function
def main(x: R.Tensor((1, 4, 8, 8), "float32"), w: R.Tensor((8, 3, 3, 3), "float32")):
    y = R.nn.conv2d(x, w)
    return y
