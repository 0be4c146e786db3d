# Axis separators ask for a physical layout of several flat memory axes
# (TIR's lowering); graft's kernel writes one flat buffer, so legalize-ops
# refuses the call, naming the binding and the attribute.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.layout_transform in binding 'y' of function 'main' has axis_separators [1]; graft.layout_transform writes one flat buffer and takes no axis separators
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), "float32")):
        y = R.layout_transform(x, index_map=lambda i: (i // 4, i % 4), axis_separators=[1])
        return y
