# ERROR: R.nn.nll_loss expects targets to have an integer dtype, but got float32
@R.function
def main(p: R.Tensor((2, 5), "float32"), t: R.Tensor((2,), "float32")):
    y = R.nn.nll_loss(p, t)
    return y
