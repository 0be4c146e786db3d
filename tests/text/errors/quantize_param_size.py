# ERROR: R.quantize expects scale to be a scalar or to have the input's dim 1 (4) elements, but got shape (3,)
@R.function
def main(x: R.Tensor((2, 4), "float32"), s: R.Tensor((3,), "float32"), z: R.Tensor((4,), "int8")):
    y = R.quantize(x, s, z, axis=1)
    return y
