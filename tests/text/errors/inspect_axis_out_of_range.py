# ERROR: R.inspect.tensor_shape_i reads shape[2] of a tensor with only 2 dimensions
@R.function
def main(x: R.Tensor((2, 3), "float32")):
    d = x.shape[2]
    return d
