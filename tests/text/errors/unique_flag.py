# ERROR: R.unique expects return_index to be an R.prim_value of a constant, but got R.Prim
@R.function
def main(x: R.Tensor((2, 3), "float32"), f: R.Prim("bool")):
    y = R.unique(x, return_index=f)
    return y
