# ERROR: R.vision.all_class_non_max_suppression expects scores to be a 3-D tensor, but got 2 dimensions
@R.function
def main(b: R.Tensor((1, 5, 4), "float32"), s: R.Tensor((1, 5), "float32"), m: R.Tensor((), "int64"), t: R.Tensor((), "float32")):
    y = R.vision.all_class_non_max_suppression(b, s, m, t, t)
    return y
