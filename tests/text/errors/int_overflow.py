# ERROR: integer literal out of range
@R.function
def main(x: R.Tensor((99999999999999999999999,), "float32")):
    return x
