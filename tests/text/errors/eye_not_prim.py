# ERROR: R.eye expects n to be a R.prim_value
@R.function
def main(x: R.Tensor((2, 3), "float32")):
    y = R.eye(x)
    return y
