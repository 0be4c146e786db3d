# ERROR: R.nn.nll_loss expects predictions (N, C, d1..dk) and targets (N, d1..dk) to have the same k, but got 1 and 0
@R.function
def main(p: R.Tensor((2, 5, 3), "float32"), t: R.Tensor((2,), "int64")):
    y = R.nn.nll_loss(p, t)
    return y
