# ERROR: R.nn.pad expects pad_width of 2 * ndim entries (4), but got 2
@R.function
def main(x: R.Tensor((2, 3), "float32")):
    y = R.nn.pad(x, [1, 1])
    return y
