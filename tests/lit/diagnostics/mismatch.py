# What --verify-diagnostics says when the diagnostics are not the expected
# ones: an expected error that did not come, and a reported error that no
# comment expects, each located; the exit code is 1.
# RUN: not %graft opt %s --verify-diagnostics -p canonicalize-bindings 2>&1 | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            R.print(x, format="{}")
# CHECK-DAG: mismatch.py:[[@LINE-1]]:20: error: unexpected error: impure call in a dataflow block: R.print
            gv = R.add(x, x)  # expected-error {{gv is fine}}
# CHECK-DAG: mismatch.py:[[@LINE-1]]:33: error: expected error "gv is fine" was not produced
            R.output(gv)
        return gv
