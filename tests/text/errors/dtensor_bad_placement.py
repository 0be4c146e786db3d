# ERROR: invalid placement "S[x]" (expected e.g. "S[0], R")
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "S[x]")):
        return x
