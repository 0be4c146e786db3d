//===- tests/ir/StructuralHashTest.cpp - Hash consistent with equality ------===//

#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/StructuralEqual.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace graft;

namespace {

Op hashTestOp(const char *name) {
  static std::vector<std::unique_ptr<OpInfo>> infos;
  static std::vector<Op> ops;
  for (const Op &op : ops)
    if (op->name() == name)
      return op;
  infos.push_back(std::make_unique<OpInfo>());
  infos.back()->name = name;
  ops.push_back(make<OpNode>(infos.back().get()));
  return ops.back();
}

/// def f(x: R.Tensor((n,), dtype)): y = op(x, x); return y — fresh vars.
Function unaryFn(const char *op = "relax.add", DataType dtype = DataType::float32(),
                 Attrs fnAttrs = nullptr) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Var x = make<VarNode>("x", tensorSInfo({n}, dtype));
  Var y = make<VarNode>("y", tensorSInfo({n}, dtype));
  Binding b = make<VarBindingNode>(y, make<CallNode>(hashTestOp(op), std::vector<Expr>{x, x}));
  SeqExpr body = make<SeqExprNode>(
      std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{b}, false)}, y);
  return make<FunctionNode>(std::vector<Var>{x}, body, tensorSInfo({n}, dtype), true,
                            std::move(fnAttrs));
}

std::unique_ptr<IRModule> moduleOf(std::vector<std::pair<std::string, Function>> fns) {
  auto m = std::make_unique<IRModule>();
  for (auto &[name, fn] : fns)
    m->add(make<GlobalVarNode>(name), fn);
  return m;
}

TEST(StructuralHash, AlphaEquivalentFunctionsHashAlike) {
  EXPECT_EQ(structuralHash(unaryFn().get()), structuralHash(unaryFn().get()));
  auto a = moduleOf({{"f", unaryFn()}}), b = moduleOf({{"f", unaryFn()}});
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralHash, ChangesShowInTheHash) {
  uint64_t base = structuralHash(unaryFn().get());
  EXPECT_NE(base, structuralHash(unaryFn("relax.multiply").get()));
  EXPECT_NE(base, structuralHash(unaryFn("relax.add", DataType(DataType::Float, 16)).get()));
  Attrs attrs = make<AttrsNode>(AttrDict{{"global_symbol", AttrValue::string("f")}});
  EXPECT_NE(base, structuralHash(unaryFn("relax.add", DataType::float32(), attrs).get()));
}

TEST(StructuralHash, GlobalVarNamesAreHashed) {
  auto a = moduleOf({{"f", unaryFn()}}), b = moduleOf({{"g", unaryFn()}});
  EXPECT_NE(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralHash, FunctionsHashInNameOrder) {
  auto a = moduleOf({{"f", unaryFn()}, {"g", unaryFn("relax.multiply")}});
  auto b = moduleOf({{"g", unaryFn("relax.multiply")}, {"f", unaryFn()}});
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralHash, DictAttrsHashWithoutInsertionOrder) {
  Attrs a = make<AttrsNode>(AttrDict{{"a", AttrValue::integer(1)}, {"b", AttrValue::string("x")}});
  Attrs b = make<AttrsNode>(AttrDict{{"b", AttrValue::string("x")}, {"a", AttrValue::integer(1)}});
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
}

TEST(StructuralHash, AttrKindsHashApart) {
  Attrs i = make<AttrsNode>(AttrDict{{"a", AttrValue::integer(1)}});
  Attrs b = make<AttrsNode>(AttrDict{{"a", AttrValue::boolean(true)}});
  EXPECT_NE(structuralHash(i.get()), structuralHash(b.get()));
}

TEST(StructuralHash, VarsHashByDefinitionOrderNotPointer) {
  // (x, y) and (y, x) over the same two free vars: equal under mapping
  // (they are alpha-equivalent), so their hashes agree too.
  Var x = make<VarNode>("x", objectSInfo());
  Var y = make<VarNode>("y", objectSInfo());
  Expr t1 = tupleExpr({x, y, x}), t2 = tupleExpr({y, x, y}), t3 = tupleExpr({x, y, y});
  EXPECT_TRUE(structuralEqual(t1.get(), t2.get(), true));
  EXPECT_EQ(structuralHash(t1.get(), true), structuralHash(t2.get(), true));
  EXPECT_FALSE(structuralEqual(t1.get(), t3.get(), true));
  EXPECT_NE(structuralHash(t1.get(), true), structuralHash(t3.get(), true));
  // Free vars without mapping hash by identity.
  EXPECT_NE(structuralHash(t1.get()), structuralHash(t2.get()));
}

TEST(StructuralHash, NaNIsCanonicalized) {
  uint64_t bits = 0x7ff0000000000123ULL;
  double payloadNaN;
  std::memcpy(&payloadNaN, &bits, 8);
  Expr a = primValue(floatImm(std::nan(""))), b = primValue(floatImm(payloadNaN));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
  EXPECT_NE(structuralHash(primValue(floatImm(0.0)).get()),
            structuralHash(primValue(floatImm(-0.0)).get()));
}

TEST(StructuralHash, CallStructInfoIsNotHashed) {
  Var x = make<VarNode>("x", objectSInfo());
  Expr a = make<CallNode>(hashTestOp("relax.add"), std::vector<Expr>{x, x}, nullptr,
                          std::vector<StructInfo>{}, objectSInfo());
  Expr b = make<CallNode>(hashTestOp("relax.add"), std::vector<Expr>{x, x}, nullptr,
                          std::vector<StructInfo>{}, tensorSInfoNDim(1, DataType::float32()));
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
}

} // namespace
