# ERROR: R.gather_nd expects the last dim of indices (2, 3) to be at most the data's rank minus batch_dims (2 for data (2, 3))
@R.function
def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 3), "int64")):
    y = R.gather_nd(x, i)
    return y
