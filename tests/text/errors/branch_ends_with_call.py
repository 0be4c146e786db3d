# ERROR: both branches of an if must end with a binding to the same name ('_' and 'y')
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
    if c:
        y = R.add(x, x)
        R.print(y, format="{}")
    else:
        y = x
    return y
