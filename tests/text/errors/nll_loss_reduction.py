# ERROR: R.nn.nll_loss expects reduction to be "none", "mean" or "sum", but got "avg"
@R.function
def main(p: R.Tensor((2, 5), "float32"), t: R.Tensor((2,), "int64")):
    y = R.nn.nll_loss(p, t, reduction="avg")
    return y
