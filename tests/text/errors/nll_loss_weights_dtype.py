# ERROR: R.nn.nll_loss expects the operands to have the same dtype, but got float32 and float16
@R.function
def main(p: R.Tensor((2, 5), "float32"), t: R.Tensor((2,), "int64"), w: R.Tensor((5,), "float16")):
    y = R.nn.nll_loss(p, t, w)
    return y
