# ERROR: R.add
@R.function
def main(x: R.Tensor((4,), "float32"), y: R.Tensor((5,), "float32")):
    z = R.add(x, y)
    return z
