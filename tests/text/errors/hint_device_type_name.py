# ERROR: unknown device type 'tpu'
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.hint_on_device(x, R.device("tpu", 0))
    return y
