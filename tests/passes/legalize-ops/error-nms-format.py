# TVM's inference types any output_format but "onnx" as TensorFlow's; TOPI
# computes only the two, so another format is refused by name.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.vision.all_class_non_max_suppression in binding 'r' of function 'main' has output_format "coco"; graft.vision.all_class_non_max_suppression takes "onnx" or "tensorflow"
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(b: R.Tensor((1, 5, 4), "float32"), s: R.Tensor((1, 2, 5), "float32"), m: R.Tensor((), "int64"), t: R.Tensor((), "float32")):
        r = R.vision.all_class_non_max_suppression(b, s, m, t, t, "coco")
        return r
