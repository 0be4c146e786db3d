# ERROR: R.slice_scatter expects src to have the slice's 2 elements along axis 0, but got 3
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((3, 5), "float32")):
    y = R.slice_scatter(x, s, 0, 4, 2)
    return y
