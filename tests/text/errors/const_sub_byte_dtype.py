# ERROR: R.const: unsupported dtype 'int4'
@R.function
def main():
    c = R.const([1, 2], "int4")
    return c
