# ERROR: R.scatter_nd expects updates of rank data.ndim + indices.ndim - indices.shape[-1] - 1, but got data (4, 5), indices (2, 1), updates (2,)
@R.function
def main(x: R.Tensor((4, 5), "float32"), i: R.Tensor((2, 1), "int64"), u: R.Tensor((2,), "float32")):
    y = R.scatter_nd(x, i, u)
    return y
