# ERROR: R.multinomial_from_uniform expects uniform_sample and sample_indices to have shape (n, 1), but got (6, 2) and (6, 1)
@R.function
def main(p: R.Tensor((3, 5), "float32"), u: R.Tensor((6, 2), "float32"), s: R.Tensor((6, 1), "int64")):
    y = R.multinomial_from_uniform(p, u, s)
    return y
