# ERROR: R.meshgrid expects all input tensors to have the same dtype, but got int32 and float32
@R.function
def main(x: R.Tensor((3,), "float32"), z: R.Tensor((2,), "int32")):
    y = R.meshgrid((x, z))
    return y
