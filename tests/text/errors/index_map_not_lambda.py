# ERROR: expected an index map: a lambda or T.index_map(lambda ...)
@R.function
def main(x: R.Tensor((16,), "float32")):
    y = R.layout_transform(x, index_map=[1, 2])
    return y
