# R.call_py_func calls a Python function of the IRModule's pyfuncs, which
# graft cannot run: legalize-ops stops at the call, naming the op, the
# binding and the Python function.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops cannot lower R.call_py_func in binding 'y' of function 'main': it calls the Python function 'my_relu', which graft cannot run (TVM runs it from the IRModule's Python functions; graft builds have no Python)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.exp(x)
        y = R.call_py_func("my_relu", (a,), sinfo_args=(R.Tensor((4,), "float32"),))
        return y
