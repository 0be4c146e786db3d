# ERROR: R.gather_nd expects int64 indices, but got int32
@R.function
def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 1), "int32")):
    y = R.gather_nd(x, i)
    return y
