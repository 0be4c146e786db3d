# ERROR: R.scatter_nd expects updates of the data's dtype float32, but got float16
@R.function
def main(x: R.Tensor((4,), "float32"), i: R.Tensor((2, 1), "int64"), u: R.Tensor((2,), "float16")):
    y = R.scatter_nd(x, i, u)
    return y
