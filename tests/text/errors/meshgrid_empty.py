# ERROR: R.meshgrid expects at least one 1-D tensor in the input tuple
@R.function
def main():
    y = R.meshgrid(())
    return y
