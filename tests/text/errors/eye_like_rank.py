# ERROR: R.eye_like expects a 2-D tensor, but got 3 dimensions
@R.function
def main(x: R.Tensor((2, 3, 4), "float32")):
    y = R.eye_like(x)
    return y
