# ERROR: R.slice_scatter expects src of the data's rank 2, but got rank 1
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2,), "float32")):
    y = R.slice_scatter(x, s, 0, 2, 1)
    return y
