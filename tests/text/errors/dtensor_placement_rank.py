# ERROR: placement "S[0], R" has 2 entries but the device mesh has 1 dimensions
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "S[0], R")):
        return x
