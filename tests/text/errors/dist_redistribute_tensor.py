# ERROR: R.dist.redistribute expects argument input to be a DTensor, but got R.Tensor
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.Tensor((4, 4), "float32")):
        z = R.dist.redistribute(x, "mesh[0]", "S[0]")
        return z
