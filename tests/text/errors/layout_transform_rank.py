# ERROR: R.layout_transform expects the input's number of dimensions to equal the index map's number of parameters, but got 2 and 1
@R.function
def main(x: R.Tensor((4, 4), "float32")):
    y = R.layout_transform(x, index_map=lambda i: (i // 4, i % 4))
    return y
