# ERROR: R.multinomial_from_uniform expects uniform_sample to have a float dtype (float16, float32 or float64), but got int32
@R.function
def main(p: R.Tensor((3, 5), "float32"), u: R.Tensor((6, 1), "int32"), s: R.Tensor((6, 1), "int64")):
    y = R.multinomial_from_uniform(p, u, s)
    return y
