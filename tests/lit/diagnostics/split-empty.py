# Two separators in a row leave an empty split: an error at the second one.
# RUN: not %graft opt %s --split-input-file 2>&1 | FileCheck %s
from tvm.script import ir as I, relax as R


@R.function
def first(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x

# -----
# -----
# CHECK: split-empty.py:[[@LINE-1]]:1: error: split 2 holds no code: two '# -----' lines in a row, or one at the start or end of the file

@R.function
def second(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x
