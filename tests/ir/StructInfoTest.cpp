//===- tests/ir/StructInfoTest.cpp - base check, LCA, erase, derive ---------===//

#include "ir/Diagnostics.h"
#include "ir/Op.h"
#include "ir/StructInfoAnalysis.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();
const DataType f16 = DataType(DataType::Float, 16);

PrimExpr c(int64_t v) { return intImm(v); }

/// Dims as text, "?" for an unknown shape: "(2, n)".
std::string dims(const StructInfo &s) {
  const auto *t = llvm::dyn_cast<TensorSInfoNode>(s.get());
  if (!t)
    return "not a tensor";
  const auto *vals = t->shapeValues();
  if (!vals)
    return "ndim=" + std::to_string(t->ndim) + " " + t->dtype.str();
  std::string out = "(";
  for (size_t i = 0; i < vals->size(); ++i)
    out += (i ? ", " : "") + toString((*vals)[i].get());
  return out + ") " + t->dtype.str();
}

class StructInfoTest : public ::testing::Test {
protected:
  TirVar n = make<TirVarNode>("n", DataType::int64());
  TirVar m = make<TirVarNode>("m", DataType::int64());
  TirVar k = make<TirVarNode>("k", DataType::int64());
};

TEST_F(StructInfoTest, BaseCheckLevels) {
  StructInfo t23 = tensorSInfo({c(2), c(3)}, f32);
  StructInfo t24 = tensorSInfo({c(2), c(4)}, f32);
  EXPECT_EQ(structInfoBaseCheck(objectSInfo().get(), t23.get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), objectSInfo().get()), BaseCheck::FailL1);
  EXPECT_EQ(structInfoBaseCheck(tensorSInfoNDim(2, f32).get(), t23.get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(tensorSInfoNDim(-1, DataType()).get(), t23.get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), t24.get()), BaseCheck::FailL0);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), tensorSInfoNDim(2, f32).get()), BaseCheck::FailL2);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), tensorSInfo({c(2), c(3)}, f16).get()),
            BaseCheck::FailL0);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), tensorSInfo({c(2), c(3)}, DataType()).get()),
            BaseCheck::FailL1);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), tensorSInfoNDim(-1, f32).get()), BaseCheck::FailL1);
  EXPECT_EQ(
      structInfoBaseCheck(tensorSInfo({n, c(3)}, f32).get(), tensorSInfo({m, c(3)}, f32).get()),
      BaseCheck::FailL2);
  EXPECT_EQ(
      structInfoBaseCheck(tensorSInfo({n, c(3)}, f32).get(), tensorSInfo({n, c(4)}, f32).get()),
      BaseCheck::FailL0);
  EXPECT_EQ(structInfoBaseCheck(t23.get(), shapeSInfo({c(2), c(3)}).get()), BaseCheck::FailL0);
  EXPECT_EQ(structInfoBaseCheck(primSInfo(DataType::int64()).get(), primValueSInfo(n).get()),
            BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(primSInfo(DataType::int64()).get(), primSInfo(f32).get()),
            BaseCheck::FailL0);
  EXPECT_EQ(structInfoBaseCheck(shapeSInfoNDim(-1).get(), shapeSInfo({n}).get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(shapeSInfoNDim(2).get(), shapeSInfo({n}).get()), BaseCheck::FailL0);
  EXPECT_EQ(
      structInfoBaseCheck(tupleSInfo({t23, objectSInfo()}).get(), tupleSInfo({t23, t24}).get()),
      BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(tupleSInfo({t23}).get(), tupleSInfo({t23, t24}).get()),
            BaseCheck::FailL0);
}

TEST_F(StructInfoTest, BaseCheckFunctions) {
  StructInfo t = tensorSInfoNDim(2, f32);
  StructInfo pure = make<FuncSInfoNode>(std::vector<StructInfo>{t}, t, true);
  StructInfo impure = make<FuncSInfoNode>(std::vector<StructInfo>{t}, t, false);
  EXPECT_EQ(structInfoBaseCheck(pure.get(), impure.get()), BaseCheck::FailL1);
  EXPECT_EQ(structInfoBaseCheck(impure.get(), pure.get()), BaseCheck::Pass);
  StructInfo opaque = make<FuncSInfoNode>(llvm::None, objectSInfo(), false);
  EXPECT_EQ(structInfoBaseCheck(opaque.get(), pure.get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(pure.get(), opaque.get()), BaseCheck::FailL1);
  // Contravariant params: accepting any tensor is a subtype of accepting ndim=2.
  StructInfo wide =
      make<FuncSInfoNode>(std::vector<StructInfo>{tensorSInfoNDim(-1, DataType())}, t, true);
  EXPECT_EQ(structInfoBaseCheck(pure.get(), wide.get()), BaseCheck::Pass);
  EXPECT_EQ(structInfoBaseCheck(wide.get(), pure.get()), BaseCheck::FailL2);
}

TEST_F(StructInfoTest, LCA) {
  StructInfo l =
      structInfoLCA(tensorSInfo({c(2), c(3)}, f32).get(), tensorSInfo({c(2), c(4)}, f32).get());
  EXPECT_EQ(dims(l), "ndim=2 float32");
  l = structInfoLCA(tensorSInfo({c(2), c(3)}, f32).get(), tensorSInfo({c(2), c(3)}, f16).get());
  EXPECT_EQ(dims(l), "(2, 3) ");
  l = structInfoLCA(tensorSInfo({c(2)}, f32).get(), tensorSInfo({c(2), c(3)}, f32).get());
  EXPECT_EQ(dims(l), "ndim=-1 float32");
  StructInfo same = tensorSInfo({n}, f32);
  EXPECT_EQ(structInfoLCA(same.get(), tensorSInfo({n}, f32).get()).get(), same.get());
  EXPECT_TRUE(llvm::isa<ObjectSInfoNode>(structInfoLCA(same.get(), shapeSInfo({n}).get()).get()));
  StructInfo tup = structInfoLCA(tupleSInfo({same, primValueSInfo(n)}).get(),
                                 tupleSInfo({same, primValueSInfo(m)}).get());
  const auto *tt = llvm::cast<TupleSInfoNode>(tup.get());
  EXPECT_EQ(tt->fields[0].get(), same.get());
  EXPECT_EQ(llvm::cast<PrimSInfoNode>(tt->fields[1].get())->value.get(), nullptr);
  StructInfo sh = structInfoLCA(shapeSInfo({n, c(2)}).get(), shapeSInfo({m, c(2)}).get());
  EXPECT_EQ(llvm::cast<ShapeSInfoNode>(sh.get())->ndim, 2);
  EXPECT_FALSE(llvm::cast<ShapeSInfoNode>(sh.get())->values.hasValue());
}

TEST_F(StructInfoTest, EraseToWellDefined) {
  llvm::DenseSet<const TirVarNode *> none, withN;
  withN.insert(n.get());
  StructInfo t = tensorSInfo({n, c(4)}, f32);
  EXPECT_EQ(dims(eraseToWellDefined(t.get(), none)), "ndim=2 float32");
  EXPECT_EQ(eraseToWellDefined(t.get(), withN).get(), t.get());
  StructInfo p = eraseToWellDefined(primValueSInfo(n).get(), none);
  EXPECT_EQ(llvm::cast<PrimSInfoNode>(p.get())->value.get(), nullptr);
  EXPECT_EQ(llvm::cast<PrimSInfoNode>(p.get())->dtype, DataType::int64());
  StructInfo s = eraseToWellDefined(shapeSInfo({primBinary(PrimOp::Mul, n, c(2)), m}).get(), withN);
  EXPECT_EQ(llvm::cast<ShapeSInfoNode>(s.get())->ndim, 2);
  EXPECT_FALSE(llvm::cast<ShapeSInfoNode>(s.get())->values.hasValue());
  // A callable's own params define the vars its ret uses.
  StructInfo fn = make<FuncSInfoNode>(std::vector<StructInfo>{tensorSInfo({k}, f32)},
                                      tensorSInfo({k}, f32), true);
  EXPECT_EQ(eraseToWellDefined(fn.get(), none).get(), fn.get());
  // A shape var in a tensor is dropped unless declared defined.
  Var shapeVar = make<VarNode>("s", shapeSInfoNDim(2));
  StructInfo byVar = make<TensorSInfoNode>(shapeVar, f32, -1);
  EXPECT_EQ(dims(eraseToWellDefined(byVar.get(), none)), "ndim=2 float32");
  llvm::DenseSet<const VarNode *> shapes;
  shapes.insert(shapeVar.get());
  EXPECT_EQ(eraseToWellDefined(byVar.get(), none, &shapes).get(), byVar.get());
}

TEST_F(StructInfoTest, Substitute) {
  TirVarMap map;
  map[n.get()] = primBinary(PrimOp::Add, m, c(1));
  StructInfo t = tensorSInfo({primBinary(PrimOp::Mul, n, c(2)), k}, f32);
  EXPECT_EQ(dims(substituteSInfo(t.get(), map)), "(m * 2 + 2, k) float32");
  StructInfo untouched = tensorSInfo({k}, f32);
  EXPECT_EQ(substituteSInfo(untouched.get(), map).get(), untouched.get());
  EXPECT_EQ(toString(substitutePrim(n, map).get()), "m + 1");
}

TEST_F(StructInfoTest, CollectVars) {
  StructInfo s = tupleSInfo({tensorSInfo({n, primBinary(PrimOp::Mul, n, c(2)), m}, f32),
                             primValueSInfo(primBinary(PrimOp::Add, k, c(1))), shapeSInfo({k})});
  llvm::SmallVector<const TirVarNode *, 4> out;
  collectDefinableTirVars(s.get(), out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], n.get());
  EXPECT_EQ(out[1], m.get());
  EXPECT_EQ(out[2], k.get());
  llvm::SmallVector<const TirVarNode *, 4> defs;
  collectDefinableTirVars(tensorSInfo({primBinary(PrimOp::Mul, n, c(2))}, f32).get(), defs);
  EXPECT_TRUE(defs.empty());
  llvm::SmallVector<const TirVarNode *, 4> all;
  collectTirVars(
      tupleSInfo({tensorSInfo({primBinary(PrimOp::Mul, n, c(2))}, f32), primValueSInfo(k)}).get(),
      all);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0], n.get());
  EXPECT_EQ(all[1], k.get());
}

/// A Call to a callee of struct info `fn` (a GlobalVar) on args of `argSInfo`.
Ref<CallNode> callOf(StructInfo fn, std::vector<StructInfo> argSInfo,
                     std::vector<StructInfo> sinfoArgs = {}) {
  std::vector<Expr> args;
  for (size_t i = 0; i < argSInfo.size(); ++i)
    args.push_back(make<VarNode>("a" + std::to_string(i), argSInfo[i]));
  return make<CallNode>(make<GlobalVarNode>("f", fn), std::move(args), nullptr,
                        std::move(sinfoArgs));
}

TEST_F(StructInfoTest, DeriveUnifiesSymbolicParams) {
  StructInfo fn =
      make<FuncSInfoNode>(std::vector<StructInfo>{tensorSInfo({n, m}, f32), tensorSInfo({m}, f32)},
                          tensorSInfo({primBinary(PrimOp::Mul, n, c(2)), m}, f32), true);
  auto call = callOf(fn, {tensorSInfo({c(2), c(3)}, f32), tensorSInfo({c(3)}, f32)});
  llvm::Expected<StructInfo> r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(fn.get()), *call);
  ASSERT_TRUE(!!r) << llvm::toString(r.takeError());
  EXPECT_EQ(dims(*r), "(4, 3) float32");

  TirVar a = make<TirVarNode>("a", DataType::int64());
  auto call2 = callOf(fn, {tensorSInfo({a, c(3)}, f32), tensorSInfo({c(3)}, f32)});
  r = inferCallSInfo(*call2, InferContext());
  ASSERT_TRUE(!!r) << llvm::toString(r.takeError());
  EXPECT_EQ(dims(*r), "(a * 2, 3) float32");
}

TEST_F(StructInfoTest, DeriveErasesUnresolvedVars) {
  StructInfo fn = make<FuncSInfoNode>(std::vector<StructInfo>{tensorSInfo({n}, f32)},
                                      tensorSInfo({n, k}, f32), true);
  auto call = callOf(fn, {tensorSInfo({c(5)}, f32)});
  llvm::Expected<StructInfo> r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(fn.get()), *call);
  ASSERT_TRUE(!!r) << llvm::toString(r.takeError());
  EXPECT_EQ(dims(*r), "ndim=2 float32");
  // An argument of unknown shape resolves nothing.
  auto call2 = callOf(fn, {tensorSInfoNDim(1, f32)});
  r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(fn.get()), *call2);
  ASSERT_TRUE(!!r) << llvm::toString(r.takeError());
  EXPECT_EQ(dims(*r), "ndim=2 float32");
}

TEST_F(StructInfoTest, DeriveReportsMismatches) {
  StructInfo fn = make<FuncSInfoNode>(std::vector<StructInfo>{tensorSInfo({n}, f32)},
                                      tensorSInfo({n}, f32), true);
  auto call = callOf(fn, {shapeSInfo({c(1)})});
  llvm::Expected<StructInfo> r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(fn.get()), *call);
  ASSERT_FALSE(!!r);
  std::string msg = llvm::toString(r.takeError());
  EXPECT_EQ(msg.rfind("Argument 0 type mismatch: expected ", 0), 0u) << msg;
  auto call2 = callOf(fn, {});
  r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(fn.get()), *call2);
  ASSERT_FALSE(!!r);
  EXPECT_EQ(llvm::toString(r.takeError()),
            "number of arguments and parameters mismatch: expected 1, given 0");
}

TEST_F(StructInfoTest, DeriveOpaqueBySInfoArgs) {
  Expr ext = make<ExternFuncNode>("my_func");
  const auto *fn = llvm::cast<FuncSInfoNode>(ext->sinfo.get());
  auto mk = [&](std::vector<StructInfo> sa) {
    return make<CallNode>(ext, std::vector<Expr>{}, nullptr, std::move(sa));
  };
  llvm::Expected<StructInfo> r = deriveCallRetSInfo(*fn, *mk({}));
  ASSERT_TRUE(!!r);
  EXPECT_TRUE(llvm::isa<ObjectSInfoNode>(r->get()));
  StructInfo t = tensorSInfo({c(2)}, f32);
  r = deriveCallRetSInfo(*fn, *mk({t}));
  ASSERT_TRUE(!!r);
  EXPECT_EQ(r->get(), t.get());
  r = deriveCallRetSInfo(*fn, *mk({t, t}));
  ASSERT_TRUE(!!r);
  ASSERT_TRUE(llvm::isa<TupleSInfoNode>(r->get()));
  EXPECT_EQ(llvm::cast<TupleSInfoNode>(r->get())->fields.size(), 2u);
  EXPECT_TRUE(isImpureCall(*mk({})));
  // Bare R.Callable: no derive func, the ret as declared.
  StructInfo bare = make<FuncSInfoNode>(llvm::None, t, false);
  r = deriveCallRetSInfo(*llvm::cast<FuncSInfoNode>(bare.get()), *mk({}));
  ASSERT_TRUE(!!r);
  EXPECT_EQ(r->get(), t.get());
}

TEST_F(StructInfoTest, Identical) {
  EXPECT_TRUE(
      structInfoIdentical(tensorSInfo({n, c(2)}, f32).get(), tensorSInfo({n, c(2)}, f32).get()));
  EXPECT_FALSE(
      structInfoIdentical(tensorSInfo({n, c(2)}, f32).get(), tensorSInfo({m, c(2)}, f32).get()));
  EXPECT_FALSE(
      structInfoIdentical(tensorSInfoNDim(2, f32).get(), tensorSInfo({n, c(2)}, f32).get()));
  EXPECT_TRUE(structInfoIdentical(voidSInfo().get(), tupleSInfo({}).get()));
  StructInfo opaque1 = make<FuncSInfoNode>(llvm::None, objectSInfo(), false);
  StructInfo opaque2 = make<FuncSInfoNode>(llvm::None, objectSInfo(), false, kInferBySInfoArgs);
  EXPECT_FALSE(structInfoIdentical(opaque1.get(), opaque2.get()));
}

} // namespace
