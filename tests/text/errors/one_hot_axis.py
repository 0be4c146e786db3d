# ERROR: R.one_hot expects axis in [0, 1], but got 2
@R.function
def main(x: R.Tensor((3,), "int32")):
    y = R.one_hot(x, 1, 0, depth=2, axis=2)
    return y
