# ERROR: R.slice_scatter expects start to be an integer, but got dtype float32
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 5), "float32")):
    y = R.slice_scatter(x, s, R.prim_value(T.float32(0)), 2, 1)
    return y
