# ERROR: R.scatter_nd expects data and updates of known dtypes, but got unknown and float32
@R.function
def main(x: R.Tensor((4,)), i: R.Tensor((2, 1), "int64"), u: R.Tensor((2,), "float32")):
    y = R.scatter_nd(x, i, u)
    return y
