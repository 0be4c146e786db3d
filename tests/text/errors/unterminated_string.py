# ERROR: unterminated string literal
@R.function
def main(x: R.Tensor((4,), "float32)):
    return x
