# ERROR: an if/else branch must end with a binding
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
    if c:
        y = R.add(x, x)
        pass
    else:
        y = x
    return y
