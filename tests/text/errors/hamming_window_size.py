# ERROR: R.hamming_window expects window_size to be positive, but got 0
@R.function
def main():
    y = R.hamming_window(0, True, 0.54, 0.46, dtype="float32")
    return y
