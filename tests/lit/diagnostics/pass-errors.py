# Pass failures. Without -p each split runs its own `# PIPELINE:` line. A
# violated precondition names no line: it is expected with @unknown.
# RUN: %graft opt %s --split-input-file --verify-diagnostics
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        b = R.add(a, a)
        return b

# expected-error@unknown {{pass kill-after-last-use needs function 'main' to be impure or relax.force_pure (run remove-purity-checking first)}}

# -----

# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="bool")) -> R.Tensor((), dtype="bool"):
        s = R.sum(x)
        return s

# expected-error@unknown {{graft.sum takes only integer or floating-point dtypes there}}

# -----

# verify-each names the pass that broke the IR, at the first use of what
# it removed, with the function printed in an unlocated note.
# PIPELINE: test-drop-binding
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        # expected-error@below {{IR is not well-formed after pass 'test-drop-binding': var 'y' is used in function 'main' but not defined}}
        z = R.multiply(y, x)
        return z

# expected-note@unknown {{function 'main' after the pass:}}
