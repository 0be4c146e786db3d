# ERROR: R.nn.attention_var_len expects keys to have 4 dimensions (batch, sequence length, heads, head dim), but got 3
@R.function
def main(q: R.Tensor((1, 10, 2, 8), "float32"), k: R.Tensor((10, 2, 8), "float32"), s: R.Tensor((3,), "int32"), m: R.Tensor((), "int32")):
    y = R.nn.attention_var_len(q, k, k, s, m)
    return y
