# ERROR: placement "S[2]" shards axis 2 of a tensor of 2 dimensions
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "S[2]")):
        return x
