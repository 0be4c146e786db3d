# graft.image.resize2d takes no region of interest: tf_crop_and_resize is
# refused by name instead of resizing the whole image.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.image.resize2d in binding 'r' of function 'main' has coordinate_transformation_mode "tf_crop_and_resize", which graft.image.resize2d does not take
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 3, 4, 4), "float32")):
        r = R.image.resize2d(x, (2, 2), coordinate_transformation_mode="tf_crop_and_resize")
        return r
