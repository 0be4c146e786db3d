# ERROR: R.call_py_func expects exactly one output struct info in sinfo_args, but got 0
@R.function
def main(x: R.Tensor((2,), "float32")):
    y = R.call_py_func("f", (x,))
    return y
