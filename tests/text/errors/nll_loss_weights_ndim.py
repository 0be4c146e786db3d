# ERROR: R.nn.nll_loss expects weights to have 1 dimension, but got 2
@R.function
def main(p: R.Tensor((2, 5), "float32"), t: R.Tensor((2,), "int64"), w: R.Tensor((5, 1), "float32")):
    y = R.nn.nll_loss(p, t, w)
    return y
