# ERROR: R.nn.pixel_shuffle expects data of at least 3 dimensions, but got 2
@R.function
def main(x: R.Tensor((4, 2), "float32")):
    y = R.nn.pixel_shuffle(x, 2)
    return y
