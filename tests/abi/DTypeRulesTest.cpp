//===- tests/abi/DTypeRulesTest.cpp - The table's dtype rules vs the kernels ===//
//
// legalize-ops refuses at build time every dtype outside a kernel's dtype
// rule (OpKernel::dtypes), so the rule must be the kernel's: a rule that
// takes less refuses programs that would run, one that takes more lets a
// kernel fail at run time. Two checks keep them together:
//
//   - every row of the elementwise table (kernels/cpu/ElementwiseOps.def)
//     against its DTypeRule;
//   - every op of the table, in every dtype, run on its CPU kernel by the
//     reference interpreter (the kernel's own checks decide) and checked by
//     findDTypeRefusal: both must take it, or both refuse it. A dtype the op
//     registry already refuses never reaches either and is skipped.
//
//===----------------------------------------------------------------------===//

#include "codegen/Interpreter.h"
#include "ir/Expr.h"
#include "ir/OpKernels.h"
#include "kernels/cpu/ElementwiseOps.h"
#include "text/Parser.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace graft;
namespace ew = graft::kernels::cpu::elementwise;

namespace {

const char *const kDTypes[] = {"bool",  "int8",    "int16",    "int32",   "int64",
                               "uint8", "float16", "bfloat16", "float32", "float64"};

/// The classes the compiler's table lets through as the output's dtype.
uint8_t outputClasses(const OpKernel &k) {
  uint8_t takes = kAnyDTypes;
  for (const DTypeCheck &c : k.dtypes)
    if (c.param.empty() && c.attr.empty())
      takes &= c.takes;
  return takes;
}

/// The classes whose outputs an elementwise row's kernel writes, given that
/// the op registry gives a Logical op (as TVM does) its operands' dtype and
/// a comparison or predicate bool: Logical rows write bool only, so they
/// take bool operands only.
uint8_t rowOutputClasses(const ew::RowInfo &row) {
  if (row.rule == ew::DTypeRule::Logical)
    return kBoolDTypes;
  if (ew::hasBoolResult(row.rule))
    return kAnyDTypes;
  uint8_t out = 0;
  if (ew::accepts(row.rule, ew::DTypeClass::Bool))
    out |= kBoolDTypes;
  if (ew::accepts(row.rule, ew::DTypeClass::Int))
    out |= kIntDTypes;
  if (ew::accepts(row.rule, ew::DTypeClass::Float))
    out |= kFloatDTypes;
  return out;
}

TEST(DTypeRules, ElementwiseRowsMatchTheTable) {
  unsigned rows = 0;
  for (const OpKernel *k : allOpKernels()) {
    for (const ew::RowInfo &row : ew::kRows) {
      if (k->symbol != row.symbol)
        continue;
      ++rows;
      SCOPED_TRACE(row.symbol);
      EXPECT_EQ(int(outputClasses(*k)), int(rowOutputClasses(row)))
          << "table: " << describeDTypeClasses(outputClasses(*k))
          << ", kernel: " << describeDTypeClasses(rowOutputClasses(row));
      for (const DTypeCheck &c : k->dtypes)
        EXPECT_TRUE(c.param.empty()) << "an elementwise rule checks the output only";
    }
  }
  EXPECT_EQ(rows, ew::kNumRows) << "every row of the elementwise table is an op of the table";
}

/// How one op is called: setup lines and the call binding `r`. `{D}` is the
/// dtype under test; `x` is a 2x3 tensor of ones of that dtype.
struct Probe {
  std::string op;
  std::vector<std::string> lines;
};

std::vector<Probe> probes() {
  std::vector<Probe> p;
  for (const ew::RowInfo &row : ew::kRows) {
    const char *op = ew::scriptName(row.symbol);
    p.push_back({op, {"r = R." + std::string(op) + (row.arity == 1 ? "(x)" : "(x, x)")}});
  }
  auto add = [&](const char *op, std::vector<std::string> lines) {
    p.push_back({op, std::move(lines)});
  };
  add("clip", {"r = R.clip(x, 0, 1)"});
  add("astype", {"r = R.astype(x, \"float32\")"});
  add("where", {"c = R.ones((2, 3), \"bool\")", "r = R.where(c, x, x)"});
  add("nn.softmax", {"r = R.nn.softmax(x)"});
  add("nn.log_softmax", {"r = R.nn.log_softmax(x, axis=0)"});
  add("nn.layer_norm", {"g = R.ones((3,), \"{D}\")", "r = R.nn.layer_norm(x, g, g, axes=[-1])"});
  add("nn.rms_norm", {"g = R.ones((3,), \"{D}\")", "r = R.nn.rms_norm(x, g)"});
  add("nn.attention", {"q = R.ones((1, 2, 1, 3), \"{D}\")", "r = R.nn.attention(q, q, q)"});
  add("nn.attention_bias",
      {"q = R.ones((1, 2, 1, 3), \"{D}\")", "b = R.ones((1, 1, 2, 2), \"{D}\")",
       "r = R.nn.attention_bias(q, q, q, b)"});
  add("nn.attention_var_len",
      {"q = R.ones((1, 4, 2, 3), \"{D}\")", "s = R.const([0, 1, 4], \"int32\")",
       "m = R.const(3, \"int32\")", "r = R.nn.attention_var_len(q, q, q, s, m)"});
  add("nn.attention_var_len",
      {"q = R.ones((1, 4, 2, 3), \"float32\")", "s = R.zeros((3,), \"{D}\")",
       "m = R.const(3, \"int32\")", "r = R.nn.attention_var_len(q, q, q, s, m, s, m)"});
  add("multinomial_from_uniform", {"u = R.ones((2, 1), \"{D}\")", "s = R.zeros((2, 1), \"int64\")",
                                   "r = R.multinomial_from_uniform(x, u, s)"});
  add("multinomial_from_uniform",
      {"p = R.ones((2, 3), \"float32\")", "u = R.ones((2, 1), \"float32\")",
       "s = R.zeros((2, 1), \"int64\")", "r = R.multinomial_from_uniform(p, u, s, dtype=\"{D}\")"});
  add("vision.all_class_non_max_suppression",
      {"b = R.ones((1, 3, 4), \"{D}\")", "s = R.ones((1, 2, 3), \"{D}\")",
       "t = R.const(0.5, \"float32\")",
       "r = R.vision.all_class_non_max_suppression(b, s, R.const(2, \"int64\"), t, t)"});
  add("vision.all_class_non_max_suppression",
      {"b = R.ones((1, 3, 4), \"float32\")", "s = R.ones((1, 2, 3), \"float32\")",
       "t = R.const(0.5, \"float32\")", "m = R.ones((), \"{D}\")",
       "r = R.vision.all_class_non_max_suppression(b, s, m, t, t, \"tensorflow\")"});
  for (const char *op : {"sum", "mean", "prod", "variance", "std", "max", "min"})
    add(op, {"r = R." + std::string(op) + "(x, axis=[1])"});
  add("argmax", {"r = R.argmax(x, axis=1)"});
  add("argmin", {"r = R.argmin(x)"});
  add("cumsum", {"r = R.cumsum(x, axis=1)"});
  add("cumprod", {"r = R.cumprod(x)"});
  add("sort", {"r = R.sort(x)"});
  add("argsort", {"r = R.argsort(x)"});
  add("size", {"r = R.size(x)"});
  add("matmul", {"y = R.ones((3, 2), \"{D}\")", "r = R.matmul(x, y)"});
  add("matmul", {"y = R.ones((3, 2), \"{D}\")", "r = R.matmul(x, y, out_dtype=\"float32\")"});
  add("permute_dims", {"r = R.permute_dims(x)"});
  add("reshape", {"r = R.reshape(x, (3, 2))"});
  add("broadcast_to", {"r = R.broadcast_to(x, (4, 2, 3))"});
  add("expand_dims", {"r = R.expand_dims(x, axis=[0])"});
  add("squeeze", {"y = R.ones((2, 1, 3), \"{D}\")", "r = R.squeeze(y, axis=[1])"});
  add("flatten", {"r = R.flatten(x)"});
  add("concat", {"r = R.concat((x, x), axis=1)"});
  add("split", {"r = R.split(x, 3, axis=1)"});
  add("strided_slice", {"r = R.strided_slice(x, axes=[1], begin=[0], end=[2])"});
  add("take", {"r = R.take(x, R.const([0, 1], \"int64\"), axis=1)"});
  add("take", {"f = R.ones((2, 3), \"float32\")", "r = R.take(f, R.ones((2,), \"{D}\"), axis=1)"});
  add("index_tensor", {"r = R.index_tensor(x, (R.const([0, 1], \"int64\"),))"});
  add("index_tensor", {"f = R.ones((2, 3), \"float32\")", "i = R.ones((2,), \"{D}\")",
                       "r = R.index_tensor(f, (i,))"});
  add("index_put", {"r = R.index_put(x, (R.const([0, 1], \"int64\"),), x)"});
  add("index_put", {"r = R.index_put(x, (R.const([0, 1], \"int64\"),), x, accumulate=True)"});
  add("index_put", {"f = R.ones((2, 3), \"float32\")", "i = R.ones((2,), \"{D}\")",
                    "r = R.index_put(f, (i,), f)"});
  for (const char *red : {"update", "add", "mul", "mean", "max", "min"})
    add("scatter_elements",
        {"u = R.ones((1, 3), \"{D}\")",
         "r = R.scatter_elements(x, R.const([[0, 1, 0]], \"int64\"), u, axis=1, reduction=\"" +
             std::string(red) + "\")"});
  add("scatter_elements",
      {"f = R.ones((2, 3), \"float32\")", "i = R.ones((1, 3), \"{D}\")",
       "u = R.ones((1, 3), \"float32\")", "r = R.scatter_elements(f, i, u, axis=1)"});
  add("nonzero", {"r = R.nonzero(x)"});
  add("unique", {"r = R.unique(x, return_counts=True)"});
  add("zeros", {"r = R.zeros((2, 3), \"{D}\")"});
  add("ones", {"r = R.ones((2, 3), \"{D}\")"});
  add("full", {"r = R.full((2, 3), R.const(1, \"int32\"), \"{D}\")"});
  add("zeros_like", {"r = R.zeros_like(x)"});
  add("ones_like", {"r = R.ones_like(x)"});
  add("full_like", {"r = R.full_like(x, R.const(1, \"int32\"))"});
  add("arange", {"r = R.arange(0, 4, 1, dtype=\"{D}\")"});
  add("tril", {"r = R.tril(x)"});
  add("triu", {"r = R.triu(x, 1)"});
  add("repeat", {"r = R.repeat(x, 2, axis=1)"});
  add("tile", {"r = R.tile(x, [2, 1])"});
  add("flip", {"r = R.flip(x, axis=1)"});
  add("nn.leakyrelu", {"r = R.nn.leakyrelu(x, alpha=0.5)"});
  add("nn.softplus", {"r = R.nn.softplus(x, beta=2.0)"});
  add("nn.prelu", {"a = R.ones((3,), \"{D}\")", "r = R.nn.prelu(x, a)"});
  add("layout_transform", {"r = R.layout_transform(x, index_map=lambda i, j: (j, i // 2, i % 2))"});
  add("dynamic_strided_slice", {"b = R.const([0, 0], \"int64\")",
                                "r = R.dynamic_strided_slice(x, b, b, R.ones((2,), \"int64\"))"});
  add("dynamic_strided_slice", {"f = R.ones((2, 3), \"float32\")", "i = R.ones((2,), \"{D}\")",
                                "r = R.dynamic_strided_slice(f, i, i, i)"});
  add("quantize",
      {"s = R.ones((), \"float32\")", "z = R.zeros((), \"int8\")", "r = R.quantize(x, s, z)"});
  add("dequantize",
      {"s = R.ones((), \"float32\")", "z = R.zeros((), \"int8\")", "r = R.dequantize(x, s, z)"});
  add("dequantize", {"i = R.ones((2, 3), \"int8\")", "s = R.ones((), \"float32\")",
                     "z = R.zeros((), \"{D}\")", "r = R.dequantize(i, s, z)"});
  add("topk", {"r = R.topk(x, 2)"});
  add("einsum", {"r = R.einsum((x, x), \"ij,kj->ik\")"});
  add("grad.start_checkpoint", {"r = R.grad.start_checkpoint(x)"});
  add("grad.end_checkpoint", {"r = R.grad.end_checkpoint(x)"});
  add("grad.no_grad", {"r = R.grad.no_grad(x)"});
  add("wrap_param", {"r = R.wrap_param(x, \"float16\")"});
  add("hint_on_device", {"r = R.hint_on_device(x, R.device(1, 0))"});
  for (const char *d : {"1", "2", "3"}) {
    std::string n = d;
    std::string spatial = n == "1" ? "4" : n == "2" ? "4, 4" : "2, 2, 2";
    std::string ones = n == "1" ? "1" : n == "2" ? "1, 1" : "1, 1, 1";
    std::string y = "y = R.ones((1, 3, " + spatial + "), \"{D}\")";
    add(("nn.conv" + n + "d").c_str(),
        {y, "w = R.ones((2, 3, " + ones + "), \"{D}\")", "r = R.nn.conv" + n + "d(y, w)"});
    if (n != "3")
      add(("nn.conv" + n + "d_transpose").c_str(), {y, "w = R.ones((3, 2, " + ones + "), \"{D}\")",
                                                    "r = R.nn.conv" + n + "d_transpose(y, w)"});
    for (const char *pool : {"max_pool", "avg_pool"})
      add(("nn." + std::string(pool) + n + "d").c_str(),
          {y, "r = R.nn." + std::string(pool) + n + "d(y, pool_size=2)"});
    add(("nn.adaptive_avg_pool" + n + "d").c_str(),
        {y, "r = R.nn.adaptive_avg_pool" + n + "d(y, output_size=1)"});
  }
  add("nn.selu", {"r = R.nn.selu(x)"});
  add("log_add_exp", {"r = R.log_add_exp(x, x)"});
  add("eye", {"r = R.eye(3, 4, 1, dtype=\"{D}\")"});
  add("eye_like", {"s = R.ones((3, 3), \"{D}\")", "r = R.eye_like(s, -1)"});
  add("hamming_window", {"r = R.hamming_window(5, True, 0.54, 0.46, dtype=\"{D}\")"});
  add("stack", {"r = R.stack((x, x), axis=1)"});
  add("meshgrid", {"v = R.ones((3,), \"{D}\")", "r = R.meshgrid((v, v, v))"});
  add("one_hot", {"r = R.one_hot(x, R.prim_value(1), R.prim_value(0), depth=3)"});
  add("one_hot", {"i = R.ones((2,), \"int64\")",
                  "r = R.one_hot(i, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)), 2)"});
  add("outer", {"v = R.ones((3,), \"{D}\")", "r = R.outer(v, v)"});
  add("ewise_fma", {"r = R.ewise_fma(x, x, x)"});
  add("collapse_sum_like", {"t = R.ones((1, 3), \"{D}\")", "r = R.collapse_sum_like(x, t)"});
  add("collapse_sum_to", {"r = R.collapse_sum_to(x, (3,))"});
  add("bucketize", {"b = R.ones((4,), \"{D}\")", "r = R.bucketize(x, b, right=True)"});
  add("nn.batch_norm", {"g = R.ones((3,), \"{D}\")", "r = R.nn.batch_norm(x, g, g, g, g, axis=1)"});
  add("gather_elements", {"r = R.gather_elements(x, R.const([[0, 1, 0]], \"int64\"), axis=0)"});
  add("gather_elements", {"f = R.ones((2, 3), \"float32\")", "i = R.ones((2, 3), \"{D}\")",
                          "r = R.gather_elements(f, i)"});
  add("gather_nd", {"r = R.gather_nd(x, R.const([[1, 2]], \"int64\"))"});
  for (const char *red : {"update", "add", "mul", "min", "max"})
    add("scatter_nd", {"u = R.ones((1,), \"{D}\")",
                       "r = R.scatter_nd(x, R.const([[1, 2]], \"int64\"), u, reduction=\"" +
                           std::string(red) + "\")"});
  add("scatter_nd", {"f = R.ones((2, 3), \"float32\")", "i = R.ones((1, 2), \"{D}\")",
                     "u = R.ones((1,), \"float32\")", "r = R.scatter_nd(f, i, u)"});
  add("slice_scatter", {"s = R.ones((1, 3), \"{D}\")", "r = R.slice_scatter(x, s, 0, 1, 1)"});
  add("nn.pad", {"r = R.nn.pad(x, [1, 0, 0, 1], pad_value=1.0)"});
  add("nn.pixel_shuffle", {"y = R.ones((4, 1, 2), \"{D}\")", "r = R.nn.pixel_shuffle(y, 2)"});
  add("median", {"r = R.median(x, axis=1)"});
  add("median", {"r = R.median(x)"});
  add("image.resize2d",
      {"y = R.ones((1, 1, 2, 3), \"{D}\")", "r = R.image.resize2d(y, R.shape([4, 6]))"});
  add("image.resize2d", {"y = R.ones((1, 1, 2, 3), \"float32\")",
                         "r = R.image.resize2d(y, R.shape([4, 6]), out_dtype=\"{D}\")"});
  add("image.grid_sample", {"y = R.ones((1, 1, 2, 3), \"{D}\")",
                            "g = R.zeros((1, 2, 2, 2), \"{D}\")", "r = R.image.grid_sample(y, g)"});
  add("nn.nll_loss", {"t = R.zeros((2,), \"int64\")", "r = R.nn.nll_loss(x, t)"});
  add("nn.nll_loss",
      {"f = R.ones((2, 3), \"float32\")", "t = R.zeros((2,), \"{D}\")", "r = R.nn.nll_loss(f, t)"});
  add("grad.nll_loss_backward", {"t = R.zeros((2,), \"int64\")", "g = R.ones((), \"{D}\")",
                                 "r = R.grad.nll_loss_backward(g, x, t)"});
  add("nn.cross_entropy_with_logits", {"r = R.nn.cross_entropy_with_logits(x, x)"});
  add("nn.dropout", {"r = R.nn.dropout(x, rate=0.25)"});
  add("nn.group_norm", {"g = R.ones((3,), \"{D}\")", "r = R.nn.group_norm(x, g, g, 3, 1, [0])"});
  add("nn.instance_norm", {"g = R.ones((3,), \"{D}\")", "r = R.nn.instance_norm(x, g, g, 1, [0])"});
  add("grad.take_backward", {"i = R.zeros((2,), \"int64\")", "g = R.ones((2, 3), \"{D}\")",
                             "r = R.grad.take_backward(g, x, i, axis=0)"});
  for (const char *pool : {"max", "avg"})
    add(("grad." + std::string(pool) + "_pool2d_backward").c_str(),
        {"y = R.ones((1, 3, 4, 4), \"{D}\")", "g = R.ones((1, 3, 2, 2), \"{D}\")",
         "r = R.grad." + std::string(pool) + "_pool2d_backward(g, y, [2, 2], [2, 2])"});
  return p;
}

std::string probeModule(const Probe &probe, llvm::StringRef dtype) {
  std::string body = "        x = R.ones((2, 3), \"{D}\")\n";
  for (const std::string &line : probe.lines)
    body += "        " + line + "\n";
  std::string text = "from tvm.script import ir as I, relax as R, tir as T\n\n\n"
                     "@I.ir_module\nclass Module:\n    @R.function\n    def main():\n" +
                     body + "        return r\n";
  for (size_t at; (at = text.find("{D}")) != std::string::npos;)
    text.replace(at, 3, dtype.str());
  return text;
}

/// The last call of `op` in `main`'s body.
const CallNode *lastCallOf(const IRModule &module, llvm::StringRef op) {
  const ModuleEntry *entry = module.lookup("main");
  const FunctionNode *fn = entry ? entry->asFunction() : nullptr;
  const CallNode *found = nullptr;
  if (!fn)
    return nullptr;
  for (const BindingBlock &block : fn->body->blocks)
    for (const Binding &b : block->bindings)
      if (const auto *call = llvm::dyn_cast<CallNode>(b->value.get()))
        if (call->opInfo() && call->opInfo()->scriptName() == op)
          found = call;
  return found;
}

TEST(DTypeRules, TheTableRefusesWhatTheKernelsRefuse) {
  llvm::StringSet<> probed;
  unsigned ran = 0, taken = 0, registryRefused = 0;
  for (const Probe &probe : probes()) {
    probed.insert(probe.op);
    for (const char *dtype : kDTypes) {
      std::string text = probeModule(probe, dtype);
      SCOPED_TRACE(text);
      llvm::Expected<ParsedFile> file = parseText(text, "probe.py");
      if (!file) {
        llvm::consumeError(file.takeError()); // The op registry refuses the dtype.
        ++registryRefused;
        continue;
      }
      const IRModule &module = *file->modules.front();
      const CallNode *call = lastCallOf(module, probe.op);
      ASSERT_NE(call, nullptr);
      const OpKernel *kernel = lookupOpKernel(*call->opInfo());
      ASSERT_NE(kernel, nullptr);
      bool tableTakes = !findDTypeRefusal(*call, *kernel);
      llvm::Expected<vm::Value> result = codegen::interpret(module, "main", {});
      bool kernelTakes = bool(result);
      std::string why = kernelTakes ? "" : llvm::toString(result.takeError());
      ++ran;
      taken += kernelTakes;
      EXPECT_EQ(tableTakes, kernelTakes) << "R." << probe.op << " on " << dtype << ": the table "
                                         << (tableTakes ? "takes" : "refuses") << " it, the kernel "
                                         << (kernelTakes ? "takes it" : "refuses it: " + why);
    }
  }
  for (const OpKernel *k : allOpKernels())
    EXPECT_TRUE(probed.count(k->op->scriptName())) << k->op->scriptName().str() << " has no probe";
  // The probes must exercise both sides: a broken probe refused everywhere
  // (or a registry refusing everything) would make the test vacuous.
  EXPECT_GT(taken, ran / 2);
  EXPECT_LT(taken, ran);
  EXPECT_LT(registryRefused, ran / 4);
}

/// legalize-ops' message names the check's condition; the helper that
/// describes the classes reads as a list.
TEST(DTypeRules, DescribesClasses) {
  EXPECT_EQ(describeDTypeClasses(kNonBoolDTypes), "integer or floating-point");
  EXPECT_EQ(describeDTypeClasses(kBoolDTypes), "bool");
  EXPECT_EQ(describeDTypeClasses(kIntOrBoolDTypes), "bool or integer");
  EXPECT_EQ(describeDTypeClasses(kAnyDTypes), "any dtype");
}

} // namespace
