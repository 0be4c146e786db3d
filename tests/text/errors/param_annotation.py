# ERROR: parameter 'x' needs a struct info annotation
@R.function
def main(x):
    return x
