# ERROR: extern_func_arity.py:5:21: error: R.ExternFunc expects ("symbol", struct_info=None)
from tvm.script import relax as R
@R.function
def main(x: R.Tensor((4,), "float32")):
    f = R.ExternFunc("f", R.Callable((R.Tensor,), R.Tensor), struct_info=R.Callable((R.Tensor,), R.Tensor))
    return x
