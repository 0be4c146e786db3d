# ERROR: unknown op R.frobnicate: annotate the binding or register the op
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.frobnicate(x)
    return y
