# ERROR: R.call_py_func expects its arguments as a tuple, but got R.Tensor
@R.function
def main(x: R.Tensor((2,), "float32")):
    y = R.call_py_func("f", x, sinfo_args=(R.Tensor((2,), "float32"),))
    return y
