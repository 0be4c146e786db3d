# ERROR: R.one_hot expects on_value and off_value to have the same dtype, but got int64 and float64
@R.function
def main(x: R.Tensor((3,), "int32")):
    y = R.one_hot(x, 1, 0.5, depth=2)
    return y
