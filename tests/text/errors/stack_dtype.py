# ERROR: R.stack expects all input tensors to have the same dtype, but got float32 and int32
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((2, 3), "int32")):
    y = R.stack((x, z))
    return y
