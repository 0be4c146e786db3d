# ERROR: R.slice_scatter expects src of the data's shape outside axis 0, but got data (4, 5) and src (2, 4)
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 4), "float32")):
    y = R.slice_scatter(x, s, 0, 2, 1)
    return y
