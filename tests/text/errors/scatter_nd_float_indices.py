# ERROR: R.scatter_nd expects integer indices, but got float32
@R.function
def main(x: R.Tensor((4,), "float32"), i: R.Tensor((2, 1), "float32"), u: R.Tensor((2,), "float32")):
    y = R.scatter_nd(x, i, u)
    return y
