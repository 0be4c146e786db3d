# ERROR: struct_info_of_non_var.py:5:48: error: 'q' is not a Relax var, so it has no struct_info
from tvm.script import relax as R
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.call_pure_packed("f", x, sinfo_args=[q.struct_info])
    return y
