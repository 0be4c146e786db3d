@I.ir_module
class Sugared:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        s = R.memory.alloc_storage(R.shape([16]), 0, "global", "float32")
        y = R.memory.alloc_tensor(s, 0, R.shape([4]), "float32")
        return y

@I.ir_module
class Printed:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        s: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        return y
