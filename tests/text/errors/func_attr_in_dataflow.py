# ERROR: R.func_attr is not allowed inside a dataflow block
@R.function
def main(x: R.Tensor((4,), "float32")):
    with R.dataflow():
        R.func_attr({"num_input": 1})
        y = R.add(x, x)
        R.output(y)
    return y
