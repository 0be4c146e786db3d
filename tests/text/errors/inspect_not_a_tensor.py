# ERROR: R.inspect.tensor_dtype_bits expects input tensor to be a R.Tensor, but got R.Tuple
@R.function
def main(x: R.Tuple(R.Tensor((2,), "float32"))):
    b = x.dtype.bits
    return b
