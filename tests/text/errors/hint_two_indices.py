# ERROR: R.cuda takes one device index
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.hint_on_device(x, R.cuda(0, 1))
    return y
