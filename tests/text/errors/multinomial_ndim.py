# ERROR: R.multinomial_from_uniform expects uniform_sample to be a 2-D tensor, but got 1 dimensions
@R.function
def main(p: R.Tensor((3, 5), "float32"), u: R.Tensor((6,), "float32"), s: R.Tensor((6, 1), "int64")):
    y = R.multinomial_from_uniform(p, u, s)
    return y
