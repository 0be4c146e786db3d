# ERROR: R.hint_on_device expects a device, R.device(type, index) or a constructor such as tvm.cpu() or tvm.cuda(0), got 'tvm.tpu(...)'
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.hint_on_device(x, tvm.tpu())
    return y
