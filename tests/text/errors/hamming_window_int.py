# ERROR: R.hamming_window expects a float dtype, but got int32
@R.function
def main():
    y = R.hamming_window(8, True, 0.54, 0.46, dtype="int32")
    return y
