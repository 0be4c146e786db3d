# ERROR: R.nn.nll_loss expects targets dim 1 to equal predictions dim 2, but got 4 and 3
@R.function
def main(p: R.Tensor((2, 5, 3), "float32"), t: R.Tensor((2, 4), "int64")):
    y = R.nn.nll_loss(p, t)
    return y
