# ERROR: R.scatter_nd expects the last dim of indices (2, k) to be a constant
@R.function
def main(x: R.Tensor((4,), "float32"), i: R.Tensor((2, "k"), "int64"), u: R.Tensor((2,), "float32")):
    y = R.scatter_nd(x, i, u)
    return y
