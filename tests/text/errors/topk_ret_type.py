# ERROR: R.topk expects ret_type to be "both", "values" or "indices", but got "all"
@R.function
def main(x: R.Tensor((2, 8), "float32")):
    y = R.topk(x, k=2, ret_type="all")
    return y
