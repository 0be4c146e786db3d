# ERROR: R.gather_elements expects signed integer indices, but got float32
@R.function
def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 3), "float32")):
    y = R.gather_elements(x, i)
    return y
