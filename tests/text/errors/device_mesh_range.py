# ERROR: the device range holds 3 devices but the mesh shape needs 4
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2, 2), I.Range(0, 3))]})

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        return x
