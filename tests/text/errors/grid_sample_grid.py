# ERROR: R.image.grid_sample expects a grid of shape (N, H_out, W_out, 2), but got (1, 4, 2)
@R.function
def main(x: R.Tensor((1, 3, 4, 4), "float32"), g: R.Tensor((1, 4, 2), "float32")):
    y = R.image.grid_sample(x, g)
    return y
