# ERROR: R.collapse_sum_to cannot collapse data dim 1 (3) into target dim 0 (4): a target dim must equal the data's or be 1
@R.function
def main(x: R.Tensor((2, 3), "float32")):
    y = R.collapse_sum_to(x, (4,))
    return y
