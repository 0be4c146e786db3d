# ERROR: R.one_hot expects integer indices, but got float32
@R.function
def main(x: R.Tensor((3,), "float32")):
    y = R.one_hot(x, 1, 0, depth=2)
    return y
