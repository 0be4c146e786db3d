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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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

struct Row {
  const char *op; ///< Script name ("add", "nn.softmax").
  std::vector<llvm::StringRef> inputs;
  std::vector<KernelAttr> attrs;
  const char *hostSymbol = nullptr;
  bool hostOnly = false; ///< No destination-passing form (nonzero).
};

// Unary ops over `x` and binary ops over `x1`, `x2`: the kernel is the op's
// name and takes no attributes.
const char *const kUnary[] = {
    "abs",      "acos",  "acosh", "asin",    "asinh",    "atan",  "atanh", "bitwise_not",
    "ceil",     "cos",   "cosh",  "erf",     "exp",      "floor", "log",   "logical_not",
    "negative", "round", "rsqrt", "sigmoid", "sign",     "sin",   "sinh",  "square",
    "sqrt",     "tan",   "tanh",  "trunc",   "isfinite", "isinf", "isnan",
};
const char *const kBinary[] = {
    "add",         "subtract",    "multiply",   "divide",      "floor_divide", "power",
    "mod",         "floor_mod",   "maximum",    "minimum",     "logical_and",  "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",   "right_shift",
    "equal",       "not_equal",   "less",       "less_equal",  "greater",      "greater_equal",
};

std::vector<Row> rows() {
  std::vector<Row> r;
  for (const char *name : kUnary)
    r.push_back({name, {"x"}, {}});
  for (const char *name : kBinary)
    r.push_back({name, {"x1", "x2"}, {}});
  r.push_back({"clip", {"x"}, {fromArg("min"), fromArg("max")}});
  r.push_back({"astype", {"x"}, {}});
  r.push_back({"where", {"condition", "x1", "x2"}, {}});
  for (const char *name : {"nn.relu", "nn.gelu", "nn.gelu_tanh", "nn.silu"})
    r.push_back({name, {"data"}, {}});
  for (const char *name : {"nn.softmax", "nn.log_softmax"})
    r.push_back({name, {"data"}, {fromAttr("axis")}});
  r.push_back({"nn.layer_norm",
               {"data", "gamma", "beta"},
               {fromAttr("axes"), fromAttr("epsilon"), fromAttr("center"), fromAttr("scale")}});
  r.push_back({"nn.rms_norm", {"data", "weight"}, {fromAttr("axes"), fromAttr("epsilon")}});
  for (const char *name : {"sum", "mean", "max", "min", "prod", "variance", "std"})
    r.push_back({name, {"x"}, {fromAttr("axis"), fromAttr("keepdims")}});
  for (const char *name : {"argmax", "argmin"})
    r.push_back({name, {"x"}, {fromAttr("axis"), fromAttr("keepdims")}});
  for (const char *name : {"cumsum", "cumprod"})
    r.push_back({name, {"data"}, {fromAttr("axis"), fromAttr("exclusive")}});
  r.push_back({"sort", {"x"}, {fromAttr("axis"), fromAttr("descending")}});
  r.push_back({"argsort", {"data"}, {fromAttr("axis"), fromAttr("descending")}});
  r.push_back({"size", {"x"}, {}});
  r.push_back({"matmul", {"x1", "x2"}, {outDType("out_dtype")}});
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
  r.push_back({"take", {"x", "indices"}, {fromAttr("axis"), fromAttr("mode")}});
  r.push_back({"index_tensor", {"data", "indices"}, {}, "graft.host.index_tensor_mask"});
  r.push_back({"index_put", {"data", "indices", "values"}, {fromAttr("accumulate")}});
  // TVM's scatter_elements has no include_self; ONNX semantics include it.
  r.push_back({"scatter_elements",
               {"data", "indices", "updates"},
               {fromAttr("axis"), fromAttr("reduction"),
                constant("include_self", AttrValue::boolean(true))}});
  r.push_back({"nonzero", {"x"}, {}, "graft.host.nonzero", /*hostOnly=*/true});
  for (const char *name : {"zeros", "ones"})
    r.push_back({name, {}, {}});
  r.push_back({"full", {"fill_value"}, {}});
  for (const char *name : {"zeros_like", "ones_like"})
    r.push_back({name, {"x"}, {}});
  r.push_back({"full_like", {"x", "fill_value"}, {}});
  r.push_back({"arange", {}, {fromArg("start"), fromArg("step")}});
  for (const char *name : {"tril", "triu"})
    r.push_back({name, {"x"}, {fromArg("k")}});
  return r;
}

/// Ops that stay as they are: they are the runtime's own vocabulary (calls,
/// allocation, shape handling, host checks), not computations on tensors.
const char *const kRuntimeOps[] = {
    "call_tir",
    "call_tir_inplace",
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
    "shape_to_tensor",
    "print",
    "assert_op",
    "hint_on_device",
    "to_vdevice",
};

struct Table {
  std::vector<OpKernel> kernels;
  llvm::DenseMap<const OpInfo *, const OpKernel *> byOp;
  llvm::DenseSet<const OpInfo *> runtimeOps;
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
      k.symbol = row.hostOnly ? "" : ("graft." + info->scriptName()).str();
      if (row.hostSymbol)
        k.hostSymbol = row.hostSymbol;
      k.inputs = std::move(row.inputs);
      k.attrs = std::move(row.attrs);
      t.kernels.push_back(std::move(k));
    }
    for (const OpKernel &k : t.kernels)
      t.byOp[k.op] = &k;
    for (const char *name : kRuntimeOps)
      if (const OpInfo *info = lookupOp(name))
        t.runtimeOps.insert(info);
    return t;
  }();
  return t;
}

} // namespace

const OpKernel *graft::lookupOpKernel(const OpInfo &op) { return table().byOp.lookup(&op); }

bool graft::isRuntimeOp(const OpInfo &op) { return table().runtimeOps.count(&op) != 0; }

std::vector<const OpKernel *> graft::allOpKernels() {
  std::vector<const OpKernel *> out;
  for (const OpKernel &k : table().kernels)
    out.push_back(&k);
  return out;
}
