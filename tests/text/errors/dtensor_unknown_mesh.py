# ERROR: no device mesh "mesh[1]" in the module's global infos
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[1]", "R")):
        return x
