# ERROR: R.gather_nd expects batch_dims at most the indices' rank - 1 (1), but got 2
@R.function
def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 1), "int64")):
    y = R.gather_nd(x, i, batch_dims=2)
    return y
