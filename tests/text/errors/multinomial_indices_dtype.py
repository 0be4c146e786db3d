# ERROR: R.multinomial_from_uniform expects sample_indices to have a signed integer dtype, but got uint8
@R.function
def main(p: R.Tensor((3, 5), "float32"), u: R.Tensor((6, 1), "float32"), s: R.Tensor((6, 1), "uint8")):
    y = R.multinomial_from_uniform(p, u, s)
    return y
