//===- ir/ops/SamplingVisionOps.cpp - Sampling and detection ops ----------===//
//
// multinomial_from_uniform (src/relax/op/tensor/sampling.cc) and
// vision.all_class_non_max_suppression (src/relax/op/vision/nms.cc), with
// TVM's inference: TVM's is_float()/is_int() take no bfloat16 and no
// unsigned type, and its dims checks are strict where it asks the analyzer
// to prove equality.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// TVM's DataType::is_float(): float16/32/64, not bfloat16.
bool isTvmFloat(DataType t) { return t.code == DataType::Float && t.lanes == 1; }

llvm::Expected<StructInfo> inferMultinomialFromUniform(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  const TensorSInfoNode *t[3] = {};
  for (unsigned i = 0; i < 3; ++i) {
    auto a = tensorArg(call, i);
    if (!a)
      return a.takeError();
    t[i] = *a;
  }
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  for (unsigned i = 0; i < 2; ++i)
    if (!isTvmFloat(t[i]->dtype))
      return opError(call, "expects " + argName(call, i) +
                               " to have a float dtype (float16, float32 or float64), but got " +
                               t[i]->dtype.str());
  if (!t[2]->dtype.isInt())
    return opError(call, "expects " + argName(call, 2) +
                             " to have a signed integer dtype, but got " + t[2]->dtype.str());
  VDevice vdev = t[0]->vdevice;
  if (t[0]->ndim < 0 || t[1]->ndim < 0 || t[2]->ndim < 0)
    return tensorSInfoNDim(-1, *dtype, vdev);
  for (unsigned i = 0; i < 3; ++i)
    if (t[i]->ndim != 2)
      return opError(call, "expects " + argName(call, i) + " to be a 2-D tensor, but got " +
                               std::to_string(t[i]->ndim) + " dimensions");
  const std::vector<PrimExpr> *prob = knownDims(t[0]), *u = knownDims(t[1]), *idx = knownDims(t[2]);
  if (!prob || !u || !idx)
    return tensorSInfoNDim(2, *dtype, vdev);
  PrimExpr n = (*u)[0];
  if (!proveEqual(n, (*idx)[0]))
    return opError(call, "expects " + argName(call, 1) + " and " + argName(call, 2) +
                             " to have the same number of rows, but got " + dimString(n) + " and " +
                             dimString((*idx)[0]));
  auto one = [](const PrimExpr &e) {
    auto c = asConstInt(e.get());
    return c && *c == 1;
  };
  if (!one((*u)[1]) || !one((*idx)[1]))
    return opError(call, "expects " + argName(call, 1) + " and " + argName(call, 2) +
                             " to have shape (n, 1), but got " + shapeString(*u) + " and " +
                             shapeString(*idx));
  return tensorSInfo({n, i64(1)}, *dtype, vdev);
}

/// vision.all_class_non_max_suppression: boxes (batch, num_boxes, 4),
/// scores (batch, num_classes, num_boxes). "onnx" gives (selected indices
/// (batch * num_classes * num_boxes, 3), count (1,)); any other format
/// TensorFlow's (indices (batch, num_classes * num_boxes, 2), scores
/// (batch, num_classes * num_boxes) float32, counts (batch,)), as TVM's
/// inference (which checks no format: legalize-ops refuses an unknown one).
llvm::Expected<StructInfo> inferAllClassNMS(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 5))
    return err;
  const TensorSInfoNode *t[5] = {};
  for (unsigned i = 0; i < 5; ++i) {
    auto a = tensorArg(call, i);
    if (!a)
      return a.takeError();
    t[i] = *a;
  }
  auto format = stringAttr(call, "output_format");
  if (!format)
    return format.takeError();
  for (unsigned i = 0; i < 2; ++i)
    if (t[i]->ndim != 3)
      return opError(call, "expects " + argName(call, i) + " to be a 3-D tensor, but got " +
                               (t[i]->ndim < 0 ? std::string("an unknown rank")
                                               : std::to_string(t[i]->ndim) + " dimensions"));
  VDevice vdev = t[0]->vdevice;
  DataType i64t = DataType::int64();
  const std::vector<PrimExpr> *boxes = knownDims(t[0]), *scores = knownDims(t[1]);
  bool onnx = *format == "onnx";
  // TVM reads the dims without a check; unknown dims keep the ranks here.
  if (!boxes || !scores) {
    if (onnx)
      return tupleSInfo({tensorSInfoNDim(2, i64t, vdev), tensorSInfo({i64(1)}, i64t, vdev)});
    return tupleSInfo({tensorSInfoNDim(3, i64t, vdev),
                       tensorSInfoNDim(2, DataType::float32(), vdev),
                       tensorSInfoNDim(1, i64t, vdev)});
  }
  PrimExpr batch = (*boxes)[0], numBoxes = (*boxes)[1], numClasses = (*scores)[1];
  PrimExpr perBatch = simplify(primBinary(PrimOp::Mul, numClasses, numBoxes));
  if (onnx) {
    PrimExpr total =
        simplify(primBinary(PrimOp::Mul, primBinary(PrimOp::Mul, batch, numClasses), numBoxes));
    return tupleSInfo(
        {tensorSInfo({total, i64(3)}, i64t, vdev), tensorSInfo({i64(1)}, i64t, vdev)});
  }
  return tupleSInfo({tensorSInfo({batch, perBatch, i64(2)}, i64t, vdev),
                     tensorSInfo({batch, perBatch}, DataType::float32(), vdev),
                     tensorSInfo({batch}, i64t, vdev)});
}

} // namespace

void graft::registerSamplingVisionOps() {
  registerOp(makeOp("multinomial_from_uniform",
                    {arg("prob"), arg("uniform_sample"), arg("sample_indices"),
                     attr("dtype", AttrKind::DType, dtypeVal(DataType::int64()))},
                    inferMultinomialFromUniform, OpPattern::Opaque));
  registerOp(
      makeOp("vision.all_class_non_max_suppression",
             {arg("boxes"), arg("scores"), arg("max_output_boxes_per_class"), arg("iou_threshold"),
              arg("score_threshold"), attr("output_format", AttrKind::String, strVal("onnx"))},
             inferAllClassNMS, OpPattern::Opaque));
}
