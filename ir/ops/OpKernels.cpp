//===- ir/ops/OpKernels.cpp - The op -> kernel table -----------------------===//
//
// One row per computational op: its kernel symbol, the params that are the
// kernel's tensor inputs, and the source of each kernel attribute in the
// kernel's attrNames order (docs/kernels.md, "Kernel table"). The table is
// built once, keyed by OpInfo, on first use; a row naming an op the
// registry does not have is a programming error caught by the coverage test.
//
//===----------------------------------------------------------------------===//

#include "ir/OpKernels.h"
#include "ir/IndexMap.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace graft;

namespace {

using Src = KernelAttr::Source;

KernelAttr fromAttr(llvm::StringRef name, llvm::StringRef from = "") {
  return {name, Src::OpAttr, from.empty() ? name : from, AttrValue()};
}
KernelAttr fromArg(llvm::StringRef name) { return {name, Src::OpArg, name, AttrValue()}; }
KernelAttr outDType(llvm::StringRef name) { return {name, Src::OutDType, "", AttrValue()}; }
KernelAttr constant(llvm::StringRef name, AttrValue value) {
  return {name, Src::Constant, "", std::move(value)};
}

/// `param`'s argument (the output when "") must be of a class in `takes`.
DTypeCheck only(uint8_t takes, llvm::StringRef param = "") { return {param, takes, "", {}, ""}; }

struct Row {
  const char *op; ///< Script name ("add", "nn.softmax").
  std::vector<llvm::StringRef> inputs;
  std::vector<KernelAttr> attrs;
  std::vector<DTypeCheck> dtypes = {};
  const char *hostSymbol = nullptr;
  bool hostOnly = false; ///< No destination-passing form (nonzero).
  std::string (*unsupported)(const CallNode &) = nullptr;
  bool forward = false;
  /// The kernel when it is not the op's own (`graft.` + this).
  const char *kernel = nullptr;
};

/// The dtypes a kernel tensor can have (docs/kernels.md, "Dtypes").
bool isKernelDType(DataType t) {
  if (t.lanes != 1)
    return false;
  if (t.isBool() || t.isFloat())
    return t.isBool() || t.bits == 16 || t.bits == 32 || t.bits == 64;
  if (t.code == DataType::Int)
    return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  return t.code == DataType::UInt && t.bits == 8;
}

std::string unsupportedOutDType(const CallNode &call) {
  const AttrValue *v = call.attrs ? call.attrs->lookup("out_dtype") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::DType || isKernelDType(v->getDType()))
    return "";
  return "has out_dtype " + v->getDType().str() + ", which no kernel tensor can hold";
}

std::string unsupportedEinsum(const CallNode &call) {
  const AttrValue *v = call.attrs ? call.attrs->lookup("subscripts") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::String ||
      !llvm::StringRef(v->getString()).contains("..."))
    return "";
  return "has subscripts \"" + v->getString() +
         "\" with an ellipsis, which graft.einsum does not take";
}

/// TVM's inference takes any output_format (and types a non-"onnx" one as
/// TensorFlow's); TOPI computes "onnx" and "tensorflow" only.
std::string unsupportedNmsFormat(const CallNode &call) {
  const AttrValue *v = call.attrs ? call.attrs->lookup("output_format") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::String || v->getString() == "onnx" ||
      v->getString() == "tensorflow")
    return "";
  return "has output_format \"" + v->getString() +
         "\"; graft.vision.all_class_non_max_suppression takes \"onnx\" or \"tensorflow\"";
}

/// The convolution and pool kernels read each tensor through a permutation
/// of its canonical axes (kernels/ConvGeometry.h); a packed sub-axis (the
/// `4c` of NCHW4c) is no permutation.
std::string unsupportedPackedLayout(const CallNode &call) {
  for (const char *name : {"data_layout", "kernel_layout", "layout", "out_layout"}) {
    const AttrValue *v = call.attrs ? call.attrs->lookup(name) : nullptr;
    if (!v || v->kind() != AttrValue::Kind::String)
      continue;
    llvm::StringRef layout = v->getString();
    if (llvm::all_of(layout, [](char c) { return c >= 'A' && c <= 'Z'; }))
      continue;
    return "has " + std::string(name) + " \"" + layout.str() +
           "\", a layout with a packed axis (the kernel takes permutations of the "
           "canonical axes only)";
  }
  return "";
}

/// graft.layout_transform runs the index map as a program of at most 128
/// slots over at most 8 indices (kernels/IndexMapPlan.h), and writes one
/// flat buffer: axis separators (a physical layout of several flat memory
/// axes, for TIR's lowering) are not something its output can have.
std::string unsupportedLayoutTransform(const CallNode &call) {
  for (const char *name : {"axis_separators", "input_axis_separators"}) {
    const AttrValue *v = call.attrs ? call.attrs->lookup(name) : nullptr;
    if (!v || v->kind() != AttrValue::Kind::Array || v->getArray().empty())
      continue;
    std::string list;
    for (const AttrValue &e : v->getArray())
      list += (list.empty() ? "" : ", ") +
              (e.kind() == AttrValue::Kind::Int ? std::to_string(e.getInt()) : std::string("?"));
    return "has " + std::string(name) + " [" + list +
           "]; graft.layout_transform writes one flat buffer and takes no axis separators";
  }
  const AttrValue *map = call.attrs ? call.attrs->lookup("index_map") : nullptr;
  if (!map || map->kind() != AttrValue::Kind::IndexMap)
    return "";
  std::vector<int64_t> program;
  std::string why = indexMapProgram(*map->getIndexMap(), program);
  if (!why.empty())
    return "has an index map that " + why;
  if (program[0] > 8 || program[1] > 8)
    return "has an index map of " + std::to_string(program[0]) + " parameters and " +
           std::to_string(program[1]) + " indices; graft.layout_transform takes at most 8 of each";
  if (program.size() - 2 > 128)
    return "has an index map whose program takes " + std::to_string(program.size() - 2) +
           " slots; graft.layout_transform takes at most 128";
  return "";
}

/// The string attr `name` of a call ("" when unset).
std::string stringAttrOf(const CallNode &call, llvm::StringRef name) {
  const AttrValue *v = call.attrs ? call.attrs->lookup(name) : nullptr;
  return v && v->kind() == AttrValue::Kind::String ? v->getString() : std::string();
}

/// graft.image.resize2d reads its data through a permutation of NCHW and
/// takes no region of interest.
std::string unsupportedResize2D(const CallNode &call) {
  std::string why = unsupportedPackedLayout(call);
  if (!why.empty())
    return why;
  if (stringAttrOf(call, "coordinate_transformation_mode") == "tf_crop_and_resize")
    return "has coordinate_transformation_mode \"tf_crop_and_resize\", which "
           "graft.image.resize2d does not take";
  return "";
}

std::string unsupportedGridSample(const CallNode &call) {
  std::string why = unsupportedPackedLayout(call);
  if (!why.empty())
    return why;
  std::string method = stringAttrOf(call, "method");
  if (method != "bilinear" && method != "nearest")
    return "has method \"" + method + "\"; graft.image.grid_sample takes bilinear and nearest";
  return "";
}

/// gather_elements ... image.grid_sample (kernels/cpu/BatchB.cpp).
void addBatchBRows(std::vector<Row> &r) {
  r.push_back(
      {"gather_elements", {"data", "indices"}, {fromAttr("axis")}, {only(kIntDTypes, "indices")}});
  r.push_back(
      {"gather_nd", {"data", "indices"}, {fromAttr("batch_dims")}, {only(kIntDTypes, "indices")}});
  r.push_back({"scatter_nd",
               {"data", "indices", "updates"},
               {fromAttr("reduction")},
               {only(kIntDTypes, "indices"),
                {"data", kNonBoolDTypes, "reduction", {"add", "mul", "min", "max"}, "update"}}});
  r.push_back({"slice_scatter",
               {"input_tensor", "src"},
               {fromAttr("axis"), fromArg("start"), fromArg("end"), fromArg("step")}});
  r.push_back(
      {"nn.pad", {"data"}, {fromAttr("pad_width"), fromAttr("pad_mode"), fromAttr("pad_value")}});
  r.push_back({"nn.pixel_shuffle", {"data"}, {fromAttr("upscale_factor")}});
  r.push_back({"median", {"x"}, {fromAttr("axis"), fromAttr("keepdims")}});
  r.push_back({"image.resize2d",
               {"data"},
               {fromAttr("layout"), fromAttr("method"), fromAttr("coordinate_transformation_mode"),
                fromAttr("rounding_method"), fromAttr("cubic_alpha"), fromAttr("cubic_exclude")},
               {only(kFloatDTypes, "data"), only(kFloatDTypes)},
               nullptr,
               false,
               unsupportedResize2D});
  r.push_back({"image.grid_sample",
               {"data", "grid"},
               {fromAttr("method"), fromAttr("layout"), fromAttr("padding_mode"),
                fromAttr("align_corners")},
               {only(kFloatDTypes, "data"), only(kFloatDTypes, "grid")},
               nullptr,
               false,
               unsupportedGridSample});
}

/// meshgrid's inferred shape keeps the input order (TVM's inference); the
/// "xy" grid swaps the first two lengths, so the two agree only when those
/// lengths are equal.
std::string unsupportedMeshgrid(const CallNode &call) {
  const AttrValue *v = call.attrs ? call.attrs->lookup("indexing") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::String || v->getString() != "xy" || call.args.empty())
    return "";
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(call.args[0]->sinfo.get());
  if (!tuple || tuple->fields.size() < 2)
    return "";
  const std::vector<PrimExpr> *dims[2];
  for (int i = 0; i < 2; ++i) {
    const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(tuple->fields[i].get());
    dims[i] = t ? t->shapeValues() : nullptr;
    if (!dims[i] || dims[i]->size() != 1)
      return "has indexing \"xy\" over inputs of unknown length";
  }
  if (proveEqual((*dims[0])[0], (*dims[1])[0]))
    return "";
  return "has indexing \"xy\" over first inputs of lengths " + toString((*dims[0])[0].get()) +
         " and " + toString((*dims[1])[0].get()) +
         ", whose grid (lengths swapped) is not the shape inferred for it (TVM's inference keeps "
         "the input order)";
}

/// Convolutions, pools and batch_norm: floating-point data (and weight).
void addConvRows(std::vector<Row> &r) {
  std::vector<DTypeCheck> convTakes = {only(kFloatDTypes, "data"), only(kFloatDTypes, "weight"),
                                       only(kFloatDTypes)};
  std::vector<KernelAttr> convAttrs = {
      fromAttr("strides"),     fromAttr("padding"),       fromAttr("dilation"),  fromAttr("groups"),
      fromAttr("data_layout"), fromAttr("kernel_layout"), fromAttr("out_layout")};
  std::vector<KernelAttr> transposeAttrs = convAttrs;
  transposeAttrs.insert(transposeAttrs.begin() + 2, fromAttr("output_padding"));
  std::vector<KernelAttr> poolAttrs = {fromAttr("pool_size"), fromAttr("strides"),
                                       fromAttr("padding"),   fromAttr("dilation"),
                                       fromAttr("ceil_mode"), fromAttr("count_include_pad"),
                                       fromAttr("layout"),    fromAttr("out_layout")};
  for (const char *name : {"nn.conv1d", "nn.conv2d", "nn.conv3d"})
    r.push_back(
        {name, {"data", "weight"}, convAttrs, convTakes, nullptr, false, unsupportedPackedLayout});
  for (const char *name : {"nn.conv1d_transpose", "nn.conv2d_transpose"})
    r.push_back({name,
                 {"data", "weight"},
                 transposeAttrs,
                 convTakes,
                 nullptr,
                 false,
                 unsupportedPackedLayout});
  for (const char *name : {"nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d", "nn.avg_pool1d",
                           "nn.avg_pool2d", "nn.avg_pool3d"})
    r.push_back({name,
                 {"data"},
                 poolAttrs,
                 {only(kFloatDTypes, "data")},
                 nullptr,
                 false,
                 unsupportedPackedLayout});
  for (const char *name :
       {"nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool2d", "nn.adaptive_avg_pool3d"})
    r.push_back({name,
                 {"data"},
                 {fromAttr("layout"), fromAttr("out_layout")},
                 {only(kFloatDTypes, "data")},
                 nullptr,
                 false,
                 unsupportedPackedLayout});
  for (const char *name : {"grad.max_pool2d_backward", "grad.avg_pool2d_backward"})
    r.push_back({name,
                 {"output_grad", "data"},
                 poolAttrs,
                 {only(kFloatDTypes, "data")},
                 nullptr,
                 false,
                 unsupportedPackedLayout});
  r.push_back({"nn.batch_norm",
               {"data", "gamma", "beta", "moving_mean", "moving_var"},
               {fromAttr("axis"), fromAttr("epsilon"), fromAttr("center"), fromAttr("scale"),
                fromAttr("momentum"), fromAttr("training")},
               {only(kFloatDTypes, "data")}});
}

/// An op of the elementwise table (kernels/cpu/ElementwiseOps.def) and the
/// dtype classes its kernel computes in: the output's dtype, which the op
/// registry makes the operands' dtype for all but the comparisons and
/// predicates (those take any dtype and return bool). tests/abi checks each
/// set against the row's DTypeRule.
struct ElementwiseOp {
  const char *name;
  uint8_t takes;
};

// Unary ops over `x` and binary ops over `x1`, `x2`: the kernel is the op's
// name and takes no attributes.
const ElementwiseOp kUnary[] = {
    {"abs", kNonBoolDTypes},      {"acos", kFloatDTypes},
    {"acosh", kFloatDTypes},      {"asin", kFloatDTypes},
    {"asinh", kFloatDTypes},      {"atan", kFloatDTypes},
    {"atanh", kFloatDTypes},      {"bitwise_not", kIntOrBoolDTypes},
    {"ceil", kNonBoolDTypes},     {"cos", kFloatDTypes},
    {"cosh", kFloatDTypes},       {"erf", kFloatDTypes},
    {"exp", kFloatDTypes},        {"floor", kNonBoolDTypes},
    {"log", kFloatDTypes},        {"logical_not", kBoolDTypes},
    {"negative", kNonBoolDTypes}, {"round", kNonBoolDTypes},
    {"rsqrt", kFloatDTypes},      {"sigmoid", kFloatDTypes},
    {"sign", kNonBoolDTypes},     {"sin", kFloatDTypes},
    {"sinh", kFloatDTypes},       {"square", kNonBoolDTypes},
    {"sqrt", kFloatDTypes},       {"tan", kFloatDTypes},
    {"tanh", kFloatDTypes},       {"trunc", kNonBoolDTypes},
    {"isfinite", kAnyDTypes},     {"isinf", kAnyDTypes},
    {"isnan", kAnyDTypes},        {"nn.relu", kNonBoolDTypes},
    {"nn.gelu", kFloatDTypes},    {"nn.gelu_tanh", kFloatDTypes},
    {"nn.silu", kFloatDTypes},    {"nn.selu", kFloatDTypes},
};
const ElementwiseOp kBinary[] = {
    {"add", kNonBoolDTypes},           {"subtract", kNonBoolDTypes},
    {"multiply", kNonBoolDTypes},      {"divide", kNonBoolDTypes},
    {"floor_divide", kNonBoolDTypes},  {"power", kNonBoolDTypes},
    {"mod", kNonBoolDTypes},           {"floor_mod", kNonBoolDTypes},
    {"maximum", kNonBoolDTypes},       {"minimum", kNonBoolDTypes},
    {"log_add_exp", kFloatDTypes},     {"logical_and", kBoolDTypes},
    {"logical_or", kBoolDTypes},       {"logical_xor", kBoolDTypes},
    {"bitwise_and", kIntOrBoolDTypes}, {"bitwise_or", kIntOrBoolDTypes},
    {"bitwise_xor", kIntOrBoolDTypes}, {"left_shift", kIntDTypes},
    {"right_shift", kIntDTypes},       {"equal", kAnyDTypes},
    {"not_equal", kAnyDTypes},         {"less", kAnyDTypes},
    {"less_equal", kAnyDTypes},        {"greater", kAnyDTypes},
    {"greater_equal", kAnyDTypes},
};

std::vector<DTypeCheck> outputTakes(uint8_t takes) {
  if (takes == kAnyDTypes)
    return {};
  return {only(takes)};
}

std::vector<Row> rows() {
  std::vector<Row> r;
  for (const ElementwiseOp &op : kUnary) {
    llvm::StringRef input = llvm::StringRef(op.name).startswith("nn.") ? "data" : "x";
    r.push_back({op.name, {input}, {}, outputTakes(op.takes)});
  }
  for (const ElementwiseOp &op : kBinary)
    r.push_back({op.name, {"x1", "x2"}, {}, outputTakes(op.takes)});
  r.push_back({"clip", {"x"}, {fromArg("min"), fromArg("max")}, {only(kNonBoolDTypes)}});
  r.push_back({"nn.leakyrelu", {"data"}, {fromAttr("alpha")}, {only(kFloatDTypes)}});
  r.push_back(
      {"nn.softplus", {"data"}, {fromAttr("beta"), fromAttr("threshold")}, {only(kFloatDTypes)}});
  r.push_back({"nn.prelu", {"data", "alpha"}, {fromAttr("axis")}, {only(kFloatDTypes)}});
  r.push_back({"astype", {"x"}, {}});
  r.push_back({"where", {"condition", "x1", "x2"}, {}});
  for (const char *name : {"nn.softmax", "nn.log_softmax"})
    r.push_back({name, {"data"}, {fromAttr("axis")}, {only(kFloatDTypes, "data")}});
  r.push_back({"nn.layer_norm",
               {"data", "gamma", "beta"},
               {fromAttr("axes"), fromAttr("epsilon"), fromAttr("center"), fromAttr("scale")},
               {only(kFloatDTypes, "data")}});
  r.push_back({"nn.rms_norm",
               {"data", "weight"},
               {fromAttr("axes"), fromAttr("epsilon")},
               {only(kFloatDTypes, "data")}});
  // attention's bias is optional: its kernel takes three or four inputs;
  // attention_bias's kernel always four.
  for (const char *name : {"nn.attention", "nn.attention_bias"})
    r.push_back(
        {name,
         {"query", "key", "value", "bias"},
         {fromAttr("scale"), fromAttr("causal_mask"), fromAttr("window_size")},
         {only(kFloatDTypes, "query"), only(kFloatDTypes, "key"), only(kFloatDTypes, "value")}});
  r.push_back(
      {"nn.attention_var_len",
       {"queries", "keys", "values", "seqstart_q", "max_seqlen_q", "seqstart_k", "max_seqlen_k"},
       {fromAttr("scale"), fromAttr("causal_mask"), fromAttr("window_size")},
       {only(kFloatDTypes, "queries"), only(kFloatDTypes, "keys"), only(kFloatDTypes, "values"),
        only(kIntDTypes, "seqstart_q"), only(kIntDTypes, "seqstart_k")}});
  r.push_back({"multinomial_from_uniform",
               {"prob", "uniform_sample", "sample_indices"},
               {},
               {only(kFloatDTypes, "prob"), only(kFloatDTypes, "uniform_sample"),
                only(kIntDTypes, "sample_indices"), only(kIntDTypes)}});
  r.push_back(
      {"vision.all_class_non_max_suppression",
       {"boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold"},
       {fromAttr("output_format")},
       {only(kFloatDTypes, "boxes"), only(kFloatDTypes, "scores"),
        only(kIntDTypes, "max_output_boxes_per_class"), only(kFloatDTypes, "iou_threshold"),
        only(kFloatDTypes, "score_threshold")},
       nullptr,
       false,
       unsupportedNmsFormat});
  for (const char *name : {"sum", "mean", "prod", "variance", "std"})
    r.push_back(
        {name, {"x"}, {fromAttr("axis"), fromAttr("keepdims")}, {only(kNonBoolDTypes, "x")}});
  // max/min of bool are any/all; argmax/argmin order bool as 0 < 1 (TVM's
  // argmax reducer starts from the dtype's minimum, 0 for bool).
  for (const char *name : {"max", "min", "argmax", "argmin"})
    r.push_back({name, {"x"}, {fromAttr("axis"), fromAttr("keepdims")}});
  for (const char *name : {"cumsum", "cumprod"})
    r.push_back(
        {name, {"data"}, {fromAttr("axis"), fromAttr("exclusive")}, {only(kNonBoolDTypes)}});
  r.push_back({"sort", {"x"}, {fromAttr("axis"), fromAttr("descending")}});
  r.push_back({"argsort", {"data"}, {fromAttr("axis"), fromAttr("descending")}});
  r.push_back({"size", {"x"}, {}});
  r.push_back({"matmul",
               {"x1", "x2"},
               {outDType("out_dtype")},
               {only(kNonBoolDTypes, "x1"), only(kNonBoolDTypes, "x2"), only(kNonBoolDTypes)}});
  r.push_back({"permute_dims", {"x"}, {fromAttr("axes")}});
  r.push_back({"reshape", {"x"}, {}});
  r.push_back({"broadcast_to", {"x"}, {}});
  r.push_back({"expand_dims", {"x"}, {fromAttr("axis")}});
  r.push_back({"squeeze", {"x"}, {fromAttr("axis")}});
  r.push_back({"flatten", {"x"}, {}});
  r.push_back({"concat", {"tensors"}, {fromAttr("axis")}});
  r.push_back({"split", {"x"}, {fromAttr("indices_or_sections"), fromAttr("axis")}});
  r.push_back({"strided_slice",
               {"x"},
               {fromArg("axes"), fromArg("begin"), fromArg("end"), fromArg("strides")}});
  r.push_back({"take",
               {"x", "indices"},
               {fromAttr("axis"), fromAttr("mode")},
               {only(kIntDTypes, "indices")}});
  r.push_back({"index_tensor",
               {"data", "indices"},
               {},
               {only(kIntOrBoolDTypes, "indices")},
               "graft.host.index_tensor_mask"});
  r.push_back({"index_put",
               {"data", "indices", "values"},
               {fromAttr("accumulate")},
               {only(kIntOrBoolDTypes, "indices"),
                {"data", kNonBoolDTypes, "accumulate", {"true"}, "false"}}});
  // TVM's scatter_elements has no include_self; ONNX semantics include it.
  r.push_back({"scatter_elements",
               {"data", "indices", "updates"},
               {fromAttr("axis"), fromAttr("reduction"),
                constant("include_self", AttrValue::boolean(true))},
               {only(kIntDTypes, "indices"),
                {"data", kNonBoolDTypes, "reduction", {"mul", "mean", "max", "min"}, "update"}}});
  r.push_back({"nonzero", {"x"}, {}, {}, "graft.host.nonzero", /*hostOnly=*/true});
  // The flags and axis are R.prim_value arguments (axis unset: R.null_value).
  r.push_back({"unique",
               {"x"},
               {fromArg("sorted"), fromArg("return_index"), fromArg("return_inverse"),
                fromArg("return_counts"), fromArg("axis")},
               {},
               "graft.host.unique",
               /*hostOnly=*/true});
  for (const char *name : {"zeros", "ones"})
    r.push_back({name, {}, {}});
  r.push_back({"full", {"fill_value"}, {}});
  for (const char *name : {"zeros_like", "ones_like"})
    r.push_back({name, {"x"}, {}});
  r.push_back({"full_like", {"x", "fill_value"}, {}});
  r.push_back({"arange", {}, {fromArg("start"), fromArg("step")}});
  for (const char *name : {"tril", "triu"})
    r.push_back({name, {"x"}, {fromArg("k")}});
  r.push_back({"eye", {}, {fromArg("k")}});
  r.push_back({"eye_like", {}, {fromArg("k")}});
  r.push_back({"hamming_window",
               {},
               {fromArg("periodic"), fromArg("alpha"), fromArg("beta")},
               {only(kFloatDTypes)}});
  r.push_back({"stack", {"tensors"}, {fromAttr("axis")}});
  r.push_back(
      {"meshgrid", {"tensors"}, {fromAttr("indexing")}, {}, nullptr, false, unsupportedMeshgrid});
  r.push_back({"one_hot",
               {"indices"},
               {fromArg("on_value"), fromArg("off_value"), fromAttr("depth"), fromAttr("axis")},
               {only(kIntDTypes, "indices")}});
  r.push_back({"outer", {"x1", "x2"}, {}});
  r.push_back({"ewise_fma", {"x1", "x2", "x3"}, {}});
  // The output's shape says what is summed; the target is not read.
  for (const char *name : {"collapse_sum_like", "collapse_sum_to"})
    r.push_back({name, {"data"}, {}, {only(kNonBoolDTypes)}});
  r.push_back({"bucketize", {"input_tensor", "boundaries"}, {fromAttr("right")}});
  r.push_back({"repeat", {"data"}, {fromAttr("repeats"), fromAttr("axis")}});
  r.push_back({"tile", {"data"}, {fromAttr("repeats")}});
  r.push_back({"flip", {"data"}, {fromAttr("axis")}});
  r.push_back({"layout_transform",
               {"x"},
               {fromAttr("index_map"), fromAttr("pad_value")},
               {},
               nullptr,
               false,
               unsupportedLayoutTransform});
  r.push_back({"dynamic_strided_slice",
               {"x", "begin", "end", "strides"},
               {},
               {only(kIntDTypes, "begin"), only(kIntDTypes, "end"), only(kIntDTypes, "strides")},
               "graft.host.dynamic_strided_slice",
               /*hostOnly=*/true});
  r.push_back({"quantize",
               {"data", "scale", "zero_point"},
               {fromAttr("axis")},
               {only(kFloatDTypes, "data"), only(kFloatDTypes, "scale"), only(kNonBoolDTypes)},
               nullptr,
               false,
               unsupportedOutDType});
  r.push_back({"dequantize",
               {"data", "scale", "zero_point"},
               {fromAttr("axis")},
               {only(kNonBoolDTypes, "data"), only(kFloatDTypes, "scale"),
                only(kNonBoolDTypes, "zero_point"), only(kFloatDTypes)},
               nullptr,
               false,
               unsupportedOutDType});
  r.push_back({"topk",
               {"data"},
               {fromAttr("k"), fromAttr("axis"), fromAttr("ret_type"), fromAttr("largest")}});
  r.push_back({"einsum",
               {"operands"},
               {fromAttr("subscripts")},
               {only(kNonBoolDTypes, "operands")},
               nullptr,
               false,
               unsupportedEinsum});
  // Gradient checkpoint markers are identities, as TVM's legalization.
  for (const char *name : {"grad.start_checkpoint", "grad.end_checkpoint"})
    r.push_back({name, {"input"}, {}, {}, nullptr, false, nullptr, /*forward=*/true});
  // Losses and channel norms: floating-point predictions and data (TVM's
  // inference takes any dtype; TOPI's integer loss is not provided).
  std::vector<KernelAttr> lossAttrs = {fromAttr("reduction"), fromAttr("ignore_index")};
  r.push_back({"nn.nll_loss",
               {"predictions", "targets", "weights"},
               lossAttrs,
               {only(kFloatDTypes, "predictions"), only(kIntDTypes, "targets")}});
  r.push_back({"grad.nll_loss_backward",
               {"output_grad", "predictions", "targets", "weights"},
               lossAttrs,
               {only(kFloatDTypes, "predictions"), only(kIntDTypes, "targets")}});
  r.push_back({"nn.cross_entropy_with_logits",
               {"predictions", "labels"},
               {},
               {only(kFloatDTypes, "predictions")}});
  // Dropout at inference: the data and a mask of ones.
  r.push_back({"nn.dropout", {"data"}, {fromAttr("rate")}});
  std::vector<KernelAttr> normAttrs = {fromAttr("channel_axis"), fromAttr("axes"),
                                       fromAttr("epsilon"), fromAttr("center"), fromAttr("scale")};
  r.push_back(
      {"nn.instance_norm", {"data", "gamma", "beta"}, normAttrs, {only(kFloatDTypes, "data")}});
  normAttrs.insert(normAttrs.begin(), fromAttr("num_groups"));
  r.push_back(
      {"nn.group_norm", {"data", "gamma", "beta"}, normAttrs, {only(kFloatDTypes, "data")}});
  r.push_back({"grad.take_backward",
               {"output_grad", "x", "indices"},
               {fromAttr("axis")},
               {only(kNonBoolDTypes, "x"), only(kIntDTypes, "indices")}});
  r.push_back({"grad.no_grad", {"input"}, {}, {}, nullptr, false, nullptr, /*forward=*/true});
  // wrap_param casts a parameter to dtype: astype's kernel (TVM legalizes
  // it to topi's cast as well).
  r.push_back({"wrap_param", {"data"}, {}});
  r.back().kernel = "astype";
  // A device hint is an identity too: graft builds place every tensor on the
  // target's device (no RealizeVDevice), so the hint has nothing to move.
  r.push_back({"hint_on_device", {"data"}, {}, {}, nullptr, false, nullptr, /*forward=*/true});
  addConvRows(r);
  addBatchBRows(r);
  return r;
}

/// Ops that stay as they are: they are the runtime's own vocabulary (calls,
/// allocation, shape handling, host checks), not computations on tensors.
const char *const kRuntimeOps[] = {
    "call_tir",
    "call_tir_inplace",
    "call_tir_with_grad",
    "call_dps_packed",
    "call_pure_packed",
    "call_inplace_packed",
    "call_builtin_with_ctx",
    "make_closure",
    "invoke_closure",
    "invoke_pure_closure",
    "memory.alloc_storage",
    "memory.alloc_tensor",
    "memory.kill_storage",
    "memory.kill_tensor",
    "memory.view",
    "memory.ensure_zero_offset",
    "vm.alloc_storage",
    "vm.alloc_tensor",
    "vm.kill_object",
    "vm.call_tir_dyn",
    "builtin.alloc_tensor",
    "builtin.stop_lift_params",
    "null_value",
    "shape_of",
    "tensor_to_shape",
    "inspect.tensor_dtype_code",
    "inspect.tensor_dtype_bits",
    "inspect.tensor_dtype_lanes",
    "inspect.tensor_ndim",
    "inspect.tensor_shape_i",
    "inspect.tensor_stride_i",
    "inspect.tensor_byte_offset",
    "inspect.tensor_elem_offset",
    "shape_to_tensor",
    "print",
    "assert_op",
    "to_vdevice",
};

/// Ops registered for TVM parity (parsed, inferred, printed) that no
/// kernel computes yet.
const char *const kUnloweredOps[] = {
    "dist.annotate_sharding",
    "dist.redistribute",
    "dist.redistribute_replica_to_shard",
    "dist.call_tir",
    "dist.call_tir_local_view",
    "ccl.allreduce",
    "ccl.allgather",
    "ccl.broadcast_from_worker0",
    "ccl.scatter_from_worker0",
    // Calls a Python function of the IRModule's pyfuncs, which graft cannot
    // run: legalize-ops refuses it with its own message.
    "call_py_func",
};

struct Table {
  std::vector<OpKernel> kernels;
  llvm::DenseMap<const OpInfo *, const OpKernel *> byOp;
  llvm::DenseSet<const OpInfo *> runtimeOps, unloweredOps;
};

const Table &table() {
  static const Table t = [] {
    Table t;
    std::vector<Row> all = rows();
    t.kernels.reserve(all.size());
    for (Row &row : all) {
      const OpInfo *info = lookupOp(row.op);
      if (!info)
        continue; // The coverage test names rows without an op.
      OpKernel k;
      k.op = info;
      llvm::StringRef kernel = row.kernel ? llvm::StringRef(row.kernel) : info->scriptName();
      k.symbol = row.hostOnly || row.forward ? "" : ("graft." + kernel).str();
      if (row.hostSymbol)
        k.hostSymbol = row.hostSymbol;
      k.inputs = std::move(row.inputs);
      k.attrs = std::move(row.attrs);
      k.dtypes = std::move(row.dtypes);
      k.unsupported = row.unsupported;
      k.forward = row.forward;
      t.kernels.push_back(std::move(k));
    }
    for (const OpKernel &k : t.kernels)
      t.byOp[k.op] = &k;
    for (const char *name : kRuntimeOps)
      if (const OpInfo *info = lookupOp(name))
        t.runtimeOps.insert(info);
    for (const char *name : kUnloweredOps)
      if (const OpInfo *info = lookupOp(name))
        t.unloweredOps.insert(info);
    return t;
  }();
  return t;
}

} // namespace

const OpKernel *graft::lookupOpKernel(const OpInfo &op) { return table().byOp.lookup(&op); }

uint8_t graft::dtypeClassOf(DataType dtype) {
  if (dtype.isBool())
    return kBoolDTypes;
  if (dtype.isIntegral())
    return kIntDTypes;
  if (dtype.isFloat())
    return kFloatDTypes;
  return 0;
}

std::string graft::describeDTypeClasses(uint8_t set) {
  if ((set & kAnyDTypes) == kAnyDTypes)
    return "any dtype";
  std::string out;
  for (auto [bit, name] : {std::pair<uint8_t, const char *>{kBoolDTypes, "bool"},
                           {kIntDTypes, "integer"},
                           {kFloatDTypes, "floating-point"}}) {
    if (!(set & bit))
      continue;
    out += (out.empty() ? "" : " or ") + std::string(name);
  }
  return out.empty() ? "no dtype" : out;
}

uint8_t graft::dtypeClassesTaken(const DTypeCheck &check, const AttrsNode *attrs) {
  if (check.attr.empty())
    return check.takes;
  const AttrValue *v = attrs ? attrs->lookup(check.attr) : nullptr;
  std::string value = check.attrDefault.str();
  if (v && v->kind() == AttrValue::Kind::String)
    value = v->getString();
  else if (v && v->kind() == AttrValue::Kind::Bool)
    value = v->getBool() ? "true" : "false";
  return llvm::is_contained(check.attrValues, value) ? check.takes : uint8_t(kAnyDTypes);
}

namespace {

/// The dtypes of a tensor, or of each tensor field of a tuple.
void dtypesOf(const StructInfoNode *s, llvm::SmallVectorImpl<DataType> &out) {
  if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s)) {
    out.push_back(t->dtype);
    return;
  }
  if (const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(s))
    for (const StructInfo &f : tuple->fields)
      if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(f.get()))
        out.push_back(t->dtype);
}

} // namespace

int graft::paramArgIndex(const OpInfo &info, llvm::StringRef name) {
  int index = 0;
  for (const OpParam &p : info.params) {
    if (p.kind == ParamKind::Attr)
      continue;
    if (p.name == name)
      return index;
    ++index;
  }
  return -1;
}

std::optional<DTypeRefusal> graft::findDTypeRefusal(const CallNode &call, const OpKernel &kernel) {
  for (const DTypeCheck &check : kernel.dtypes) {
    uint8_t takes = dtypeClassesTaken(check, call.attrs.get());
    if (takes == kAnyDTypes)
      continue;
    llvm::SmallVector<DataType, 4> dtypes;
    if (check.param.empty()) {
      dtypesOf(call.sinfo.get(), dtypes);
    } else {
      int i = paramArgIndex(*kernel.op, check.param);
      if (i >= 0 && static_cast<size_t>(i) < call.args.size())
        dtypesOf(call.args[i]->sinfo.get(), dtypes);
    }
    for (DataType dtype : dtypes) {
      uint8_t cls = dtypeClassOf(dtype);
      if (cls && !(cls & takes))
        return DTypeRefusal{&check, dtype};
    }
  }
  return std::nullopt;
}

bool graft::isRuntimeOp(const OpInfo &op) { return table().runtimeOps.count(&op) != 0; }

bool graft::isUnloweredOp(const OpInfo &op) { return table().unloweredOps.count(&op) != 0; }

std::vector<const OpKernel *> graft::allOpKernels() {
  std::vector<const OpKernel *> out;
  for (const OpKernel &k : table().kernels)
    out.push_back(&k);
  return out;
}
