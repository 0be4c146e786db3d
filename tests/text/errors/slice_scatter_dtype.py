# ERROR: R.slice_scatter expects src of the data's dtype float32, but got int32
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 5), "int32")):
    y = R.slice_scatter(x, s, 0, 2, 1)
    return y
