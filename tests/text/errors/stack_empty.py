# ERROR: R.stack expects at least one tensor in the input tuple
@R.function
def main():
    y = R.stack(())
    return y
