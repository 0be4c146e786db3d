# ERROR: R.scatter_nd expects updates.shape = indices.shape[:-1] + data.shape[K:] (2, 5), but got data (4, 5), indices (2, 1), updates (2, 4)
@R.function
def main(x: R.Tensor((4, 5), "float32"), i: R.Tensor((2, 1), "int64"), u: R.Tensor((2, 4), "float32")):
    y = R.scatter_nd(x, i, u)
    return y
