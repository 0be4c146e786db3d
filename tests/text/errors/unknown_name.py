# ERROR: undefined name 'zz'
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.add(x, zz)
    return y
