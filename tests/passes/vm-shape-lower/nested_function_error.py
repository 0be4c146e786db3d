# graft case: a nested function is a violated precondition (TVM throws
# "VMShapeLower do not work for local functions"); nothing is changed.
# PIPELINE: vm-shape-lower
# EXPECT-ERROR: pass vm-shape-lower needs lambda-lifted functions (function 'main' holds a nested function)

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2,), "float32")):
        @R.function
        def inner(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            return y

        return x
