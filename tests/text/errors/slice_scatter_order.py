# ERROR: R.slice_scatter expects start <= end, but got start 3 and end 1
@R.function
def main(x: R.Tensor((4, 5), "float32"), s: R.Tensor((2, 5), "float32")):
    y = R.slice_scatter(x, s, 3, 1, 1)
    return y
