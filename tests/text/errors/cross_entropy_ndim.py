# ERROR: R.nn.cross_entropy_with_logits expects predictions and labels to have the same number of dimensions, but got 2 and 1
@R.function
def main(p: R.Tensor((2, 5), "float32"), l: R.Tensor((5,), "float32")):
    y = R.nn.cross_entropy_with_logits(p, l)
    return y
