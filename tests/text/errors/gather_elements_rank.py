# ERROR: R.gather_elements expects indices of the data's rank 2, but got rank 3
@R.function
def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 3, 1), "int64")):
    y = R.gather_elements(x, i, axis=1)
    return y
