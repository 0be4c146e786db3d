# ERROR: R.one_hot expects on_value to be a R.prim_value
@R.function
def main(x: R.Tensor((3,), "int32"), v: R.Tensor((), "int32")):
    y = R.one_hot(x, v, 0, depth=2)
    return y
