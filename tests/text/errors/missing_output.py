# ERROR: a dataflow block must end with R.output(...)
@R.function
def main(x: R.Tensor((4,), "float32")):
    with R.dataflow():
        y = R.add(x, x)
    return x
