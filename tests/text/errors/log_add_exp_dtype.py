# ERROR: R.log_add_exp expects the operands to have the same dtype, but got float32 and int32
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((2, 3), "int32")):
    y = R.log_add_exp(x, z)
    return y
