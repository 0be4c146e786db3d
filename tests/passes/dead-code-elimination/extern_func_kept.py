# An ExternFunc is always an entry: a module holding only one is unchanged.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    ext = R.ExternFunc("extern_func")


@I.ir_module
class Expected:
    ext = R.ExternFunc("extern_func")
