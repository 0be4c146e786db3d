# TVM test_null_value: R.null_value() has no arguments, so it is static, but it is
# not a kernel launch and starts no region; with no storages nothing changes.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tuple(R.Object):
        io: R.Object = R.null_value()
        packed: R.Tuple(R.Object) = (io,)
        res: R.Tuple(R.Object) = packed
        return res


@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tuple(R.Object):
        io: R.Object = R.null_value()
        packed: R.Tuple(R.Object) = (io,)
        res: R.Tuple(R.Object) = packed
        return res
