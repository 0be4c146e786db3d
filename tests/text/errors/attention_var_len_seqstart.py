# ERROR: R.nn.attention_var_len expects input seqstart_q to be a R.Tensor, but got R.Shape
@R.function
def main(q: R.Tensor((1, 10, 2, 8), "float32"), s: R.Shape([3]), m: R.Tensor((), "int32")):
    y = R.nn.attention_var_len(q, q, q, s, m)
    return y
