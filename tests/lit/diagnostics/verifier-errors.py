# Verifier errors (docs/verifier.md): graft opt verifies its input before
# any pass runs and reports every violation, each next to its binding.
# RUN: %graft opt %s --split-input-file --verify-diagnostics -p canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            R.print(x, format="{}")  # expected-error {{impure call in a dataflow block: R.print}}
            gv = R.add(x, x)
            R.output(gv)
        return gv

# -----

from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    # expected-error@below {{pure function 'main' contains an impure call to R.print}}
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.print(x, format="{}")  # expected-note {{the impure call to R.print is here}}
        return x

# -----

from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        n = T.int64()
        y: R.Tensor((n,), "float32") = R.add(x, x)
        # expected-error@above {{symbolic var 'n' is used in function 'main' but not defined}}
        # Each undefined symbolic var is reported once, at its first use.
        z: R.Tensor((n,), "float32") = R.multiply(y, y)
        return x
