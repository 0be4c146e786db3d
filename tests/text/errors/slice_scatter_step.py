# ERROR: R.slice_scatter expects step >= 1, but got 0
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 5), "float32")):
    y = R.slice_scatter(x, s, 0, 2, 0)
    return y
