# ERROR: R.nn.conv2d expects data_layout "NCHX" to be a layout of NCHW (unknown axis 'X')
@R.function
def main(x: R.Tensor((1, 4, 8, 8), "float32"), w: R.Tensor((8, 4, 3, 3), "float32")):
    y = R.nn.conv2d(x, w, data_layout="NCHX")
    return y
