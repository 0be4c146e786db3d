# ERROR: R.hint_on_device expects input data to be a R.Tensor, but got R.Shape
@R.function
def main(x: R.Shape([2, 3])):
    y = R.hint_on_device(x, tvm.cpu())
    return y
