# ERROR: R.nn.nll_loss expects targets of shape (N, d1..dk) for predictions of shape (N, C, d1..dk), but got a scalar
@R.function
def main(p: R.Tensor((2, 5), "float32"), t: R.Tensor((), "int64")):
    y = R.nn.nll_loss(p, t)
    return y
