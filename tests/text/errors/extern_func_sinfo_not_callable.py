# ERROR: extern_func_sinfo_not_callable.py:5:35: error: R.ExternFunc's struct info must be R.Callable
from tvm.script import relax as R
@R.function
def main(x: R.Tensor((4,), "float32")):
    f = R.ExternFunc("f", R.Tensor((4,), "float32"))
    return x
