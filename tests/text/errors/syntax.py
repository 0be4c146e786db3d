# ERROR: expected ',' or ')'
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.add(x y)
    return y
