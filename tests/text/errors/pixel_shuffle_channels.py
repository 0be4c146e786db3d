# ERROR: R.nn.pixel_shuffle expects channels divisible by upscale_factor^2 (4), but got 6
@R.function
def main(x: R.Tensor((1, 6, 2, 2), "float32")):
    y = R.nn.pixel_shuffle(x, 2)
    return y
