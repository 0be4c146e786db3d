# After an `if`. TVM stops killing for the rest of the sequence once it has
# met an `if`, and never kills an outer var whose last use is in a branch.
# graft does better, safely: the `if` binding counts as one use of every
# outer var it reads, so `a` (read only by the then branch) dies right after
# the `if`, and `b`, `r` and `c` get their kills after it as usual. Inside a
# branch, branch-local vars die after their last use there; a var a branch
# returns (`u`) stays alive, because codegen copies it into the `if`'s
# register.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(cond: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        if cond:
            t = R.add(a, x)
            u = R.add(t, t)
            r = u
        else:
            r = R.subtract(x, x)
        c = R.add(r, b)
        d = R.add(c, c)
        return d


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(cond: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        if cond:
            t = R.add(a, x)
            u = R.add(t, t)
            _ = R.memory.kill_tensor(t)
            r = u
        else:
            r = R.subtract(x, x)
        _ = R.memory.kill_tensor(a)
        c = R.add(r, b)
        _ = R.memory.kill_tensor(b)
        _ = R.memory.kill_tensor(r)
        d = R.add(c, c)
        _ = R.memory.kill_tensor(c)
        return d
