# ERROR: R.add takes a DTensor and a Tensor; a distributed op takes DTensors only
@I.ir_module
class M:
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2))]})

    @R.function
    def main(x: R.DTensor((4, 4), "float32", "mesh[0]", "R"), y: R.Tensor((4, 4), "float32")):
        z = R.add(x, y)
        return z
