# A ruler that is almost a separator is refused rather than read as a
# comment, which would silently merge two splits.
# RUN: not %graft opt %s --split-input-file 2>&1 | FileCheck %s
from tvm.script import ir as I, relax as R


@R.function
def first(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x

  # -----
# CHECK: split-bad-separator.py:[[@LINE-1]]:3: error: malformed split separator: write '# -----' alone on its line, at column 1

@R.function
def second(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x
