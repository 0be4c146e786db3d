# ERROR: both branches of an if must end with a binding to the same name
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
    if c:
        y = x
    else:
        z = x
    return x
