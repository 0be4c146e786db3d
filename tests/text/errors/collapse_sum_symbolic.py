# ERROR: R.collapse_sum_like cannot match data dim 1 (n) with target dim 1 (m): unknown or symbolic; consider R.match_cast first
@R.function
def main(x: R.Tensor((2, "n"), "float32"), t: R.Tensor((2, "m"), "float32")):
    y = R.collapse_sum_like(x, t)
    return y
