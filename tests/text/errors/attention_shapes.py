# ERROR: R.nn.attention expects the head dim of query and key to be equal, but got 64 and 32
@R.function
def main(q: R.Tensor((2, 16, 8, 64), "float16"), k: R.Tensor((2, 16, 8, 32), "float16"), v: R.Tensor((2, 16, 8, 32), "float16")):
    o = R.nn.attention(q, k, v)
    return o
