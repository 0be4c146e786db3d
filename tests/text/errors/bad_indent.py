# ERROR: unindent does not match any outer indentation level
@R.function
def main(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
    return y
