# ERROR: R.multinomial_from_uniform expects uniform_sample and sample_indices to have the same number of rows, but got 6 and 4
@R.function
def main(p: R.Tensor((3, 5), "float32"), u: R.Tensor((6, 1), "float32"), s: R.Tensor((4, 1), "int64")):
    y = R.multinomial_from_uniform(p, u, s)
    return y
