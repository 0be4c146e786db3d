//===- tests/abi/OpKernelsTest.cpp - Compiler table vs kernel registry ----===//
//
// The compiler (ir/OpKernels.h) and the runtime (kernels/Kernel.h) share no
// code, so nothing but this test keeps the symbols and attribute orders that
// legalize-ops emits in step with the kernels the VM will find. This is the
// one test program that links both sides.
//
//===----------------------------------------------------------------------===//

#include "ir/OpKernels.h"
#include "ir/IndexMap.h"
#include "kernels/IndexMapPlan.h"
#include "kernels/Kernel.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace graft;

namespace {

std::string joined(llvm::ArrayRef<llvm::StringRef> names) {
  std::string out;
  for (llvm::StringRef n : names)
    out += (out.empty() ? "" : ", ") + n.str();
  return out;
}

/// Whether the param `name` of `op` makes the kernel's input count vary: a
/// tuple of tensors, or an argument that may be left out (attention's bias).
bool isVariadicParam(const OpInfo &op, llvm::StringRef name) {
  for (const OpParam &p : op.params)
    if (p.name == name)
      return p.kind == ParamKind::ExprTuple || p.kind == ParamKind::VarArgs ||
             (p.hasDefault && p.defaultValue.isNone());
  return false;
}

TEST(OpKernels, EverySymbolIsRegisteredWithTheSameAttrs) {
  for (const OpKernel *k : allOpKernels()) {
    SCOPED_TRACE(k->op->name);
    if (k->forward) {
      EXPECT_TRUE(k->symbol.empty() && k->hostSymbol.empty()) << "a forwarded op runs no kernel";
      continue;
    }
    if (k->symbol.empty()) {
      EXPECT_FALSE(k->hostSymbol.empty()) << "no kernel at all";
      continue;
    }
    const kernels::KernelInfo *info = kernels::lookupKernel(k->symbol);
    ASSERT_NE(info, nullptr) << k->symbol << " is not registered";
    std::vector<llvm::StringRef> names;
    for (const KernelAttr &a : k->attrs)
      names.push_back(a.name);
    EXPECT_EQ(joined(names), joined(info->attrNames)) << k->symbol;
    bool variadic = false;
    for (llvm::StringRef in : k->inputs) {
      variadic |= isVariadicParam(*k->op, in);
      bool found = false;
      for (const OpParam &p : k->op->params)
        found |= p.name == in && p.kind != ParamKind::Attr;
      EXPECT_TRUE(found) << k->op->name << " has no argument param '" << in.str() << "'";
    }
    int expectedInputs = variadic ? -1 : static_cast<int>(k->inputs.size());
    EXPECT_EQ(info->numInputs, expectedInputs) << k->symbol;
    for (const KernelAttr &a : k->attrs) {
      if (a.source != KernelAttr::Source::OpAttr && a.source != KernelAttr::Source::OpArg)
        continue;
      bool found = false;
      for (const OpParam &p : k->op->params)
        found |= p.name == a.from &&
                 (a.source == KernelAttr::Source::OpAttr) == (p.kind == ParamKind::Attr);
      EXPECT_TRUE(found) << k->op->name << " has no "
                         << (a.source == KernelAttr::Source::OpAttr ? "attr" : "argument") << " '"
                         << a.from.str() << "'";
    }
  }
}

TEST(OpKernels, HostFormsHaveFillAndCountKernels) {
  unsigned hostForms = 0;
  for (const OpKernel *k : allOpKernels()) {
    if (k->hostSymbol.empty())
      continue;
    ++hostForms;
    SCOPED_TRACE(k->hostSymbol);
    EXPECT_TRUE(llvm::StringRef(k->hostSymbol).startswith("graft.host."));
    const kernels::KernelInfo *fill = kernels::lookupKernel(k->hostSymbol);
    const kernels::KernelInfo *count = kernels::lookupKernel(k->hostSymbol + "_count");
    ASSERT_NE(fill, nullptr);
    ASSERT_NE(count, nullptr);
    // The host form passes the fill kernel its attributes in the table's
    // order, and the count kernel those it names (vm/HostKernels.cpp).
    ASSERT_EQ(fill->attrNames.size(), k->attrs.size());
    for (size_t i = 0; i < k->attrs.size(); ++i)
      EXPECT_EQ(fill->attrNames[i], k->attrs[i].name);
    for (llvm::StringRef name : count->attrNames)
      EXPECT_TRUE(llvm::is_contained(fill->attrNames, name)) << name.str();
    EXPECT_GE(fill->numInputs, 0);
    EXPECT_TRUE(count->numInputs >= 0 && count->numInputs <= fill->numInputs);
    EXPECT_NE(fill->numOutputs, 0);
    EXPECT_EQ(count->numOutputs, 1);
  }
  EXPECT_EQ(hostForms, 4u); // index_tensor (bool mask), nonzero, dynamic_strided_slice, unique
}

/// Every registered op lowers to a kernel, is a runtime op, or is listed as
/// not lowered yet; an op whose name has a CPU kernel is never left out.
TEST(OpKernels, EveryOpIsCovered) {
  for (const OpInfo *op : builtinOps()) {
    SCOPED_TRACE(op->name);
    const OpKernel *k = lookupOpKernel(*op);
    bool runtime = isRuntimeOp(*op);
    bool unlowered = isUnloweredOp(*op);
    EXPECT_EQ(int(k != nullptr) + int(runtime) + int(unlowered), 1)
        << "must be exactly one of: lowered, runtime op, not lowered yet";
    std::string symbol = ("graft." + op->scriptName()).str();
    if (kernels::lookupKernel(symbol)) {
      EXPECT_NE(k, nullptr) << symbol << " exists but legalize-ops does not use it";
    }
  }
}

/// The other direction: every registered CPU kernel is reached from some op
/// (count kernels through their host form).
TEST(OpKernels, EveryKernelIsReached) {
  std::set<std::string> reached;
  for (const OpKernel *k : allOpKernels()) {
    if (!k->symbol.empty())
      reached.insert(k->symbol);
    if (!k->hostSymbol.empty()) {
      reached.insert(k->hostSymbol);
      reached.insert(k->hostSymbol + "_count");
    }
  }
  for (const kernels::KernelInfo *info : kernels::allKernels())
    EXPECT_TRUE(reached.count(info->symbol.str())) << info->symbol.str() << " is never emitted";
}

} // namespace

namespace {

/// legalize-ops writes the index map with ir/IndexMap.h's indexMapProgram;
/// the kernels read it with kernels/IndexMapPlan.h: the token numbers and
/// the order must agree.
TEST(OpKernels, TheIndexMapProgramIsWhatTheKernelsRead) {
  using namespace graft::kernels::indexmap;
  TirVar n = make<TirVarNode>("n", DataType::int64()), c = make<TirVarNode>("c", DataType::int64());
  IndexMapNode m({n, c},
                 {primBinary(PrimOp::FloorDiv, c, intImm(4)),
                  primBinary(PrimOp::Add, primBinary(PrimOp::Mul, n, intImm(2)),
                             primBinary(PrimOp::Sub, c, intImm(1))),
                  primBinary(PrimOp::FloorMod, c, primBinary(PrimOp::Add, intImm(1), intImm(3)))});
  std::vector<int64_t> program;
  ASSERT_EQ(indexMapProgram(m, program), "");
  std::vector<int64_t> expected = {2, 3};
  for (std::vector<int64_t> index : {std::vector<int64_t>{kVar, 1, kConst, 4, kFloorDiv},
                                     {kVar, 0, kConst, 2, kMul, kVar, 1, kConst, 1, kSub, kAdd},
                                     {kVar, 1, kConst, 4, kFloorMod}}) {
    expected.insert(expected.end(), index.begin(), index.end());
    expected.push_back(kEnd);
  }
  EXPECT_EQ(program, expected);
  IndexMapPlan plan;
  ASSERT_EQ(decodePlan(program.data(), program.size(), plan), "");
  int64_t in[2] = {5, 7}, out[3];
  applyPlan(plan, in, out);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 16);
  EXPECT_EQ(out[2], 3);
  IndexMapNode bad({n}, {primBinary(PrimOp::FloorDiv, n, n)});
  EXPECT_EQ(indexMapProgram(bad, program), "divides by something other than a positive constant");
}

} // namespace
