# ERROR: R.vision.all_class_non_max_suppression expects boxes to be a 3-D tensor, but got an unknown rank
@R.function
def main(b: R.Tensor(dtype="float32"), s: R.Tensor((1, 2, 5), "float32"), m: R.Tensor((), "int64"), t: R.Tensor((), "float32")):
    y = R.vision.all_class_non_max_suppression(b, s, m, t, t)
    return y
