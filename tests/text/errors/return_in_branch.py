# ERROR: return is only allowed at the end of a function body
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
    if c:
        return x
    else:
        y = x
    return y
