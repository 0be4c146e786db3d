# ERROR: if/else is not allowed inside a dataflow block
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")):
    with R.dataflow():
        if c:
            y = x
        else:
            y = x
        R.output(y)
    return y
