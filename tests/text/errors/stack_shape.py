# ERROR: R.stack expects all input tensors to have identical shapes, but dimension 1 differs: 3 vs 4
@R.function
def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((2, 4), "float32")):
    y = R.stack((x, z), axis=2)
    return y
