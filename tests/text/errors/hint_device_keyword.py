# ERROR: R.device got an unexpected keyword argument 'device'
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.hint_on_device(x, R.device(device=1))
    return y
