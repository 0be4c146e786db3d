# ERROR: R.slice_scatter expects start to be an R.prim_value, but got R.Prim
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 5), "float32"), b: R.Prim("int64")):
    y = R.slice_scatter(x, s, b, 2, 1)
    return y
