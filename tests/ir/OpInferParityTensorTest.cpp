//===- tests/ir/OpInferParityTensorTest.cpp - stack ... bucketize inference ===//
//
// The struct-info inference of stack, meshgrid, one_hot, outer, eye,
// eye_like, hamming_window, ewise_fma, collapse_sum_like/_to and bucketize
// on the cases TVM v0.23's tests/python/relax/test_op_*.py exercise beyond
// the text corpus: shapes held by a shape var, unknown ndim or dtype,
// vdevices. Calls are built directly (no parser); the result is compared
// printed.
//
//===----------------------------------------------------------------------===//

#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StructInfoAnalysis.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();
const DataType i64t = DataType::int64();

PrimExpr c(int64_t v) { return intImm(v); }

class OpInferParityTensorTest : public ::testing::Test {
protected:
  TirVar n = make<TirVarNode>("n", DataType::int64());

  Var tensor(std::vector<PrimExpr> dims, DataType dtype = f32) {
    return make<VarNode>("x", tensorSInfo(std::move(dims), dtype));
  }
  Var tensorNDim(int ndim, DataType dtype = f32) {
    return make<VarNode>("x", tensorSInfoNDim(ndim, dtype));
  }
  /// A tensor whose shape is the shape var `s`, which has known values.
  Var tensorOfShapeVar(std::vector<PrimExpr> dims, DataType dtype = f32) {
    int ndim = int(dims.size());
    Var s = make<VarNode>("s", shapeSInfo(std::move(dims)));
    return make<VarNode>("x", make<TensorSInfoNode>(s, dtype, ndim));
  }

  std::string infer(llvm::StringRef op, std::vector<Expr> args, AttrDict attrs = {}) {
    Attrs a = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
    Ref<CallNode> cl =
        make<CallNode>(getOp(("relax." + op).str()), std::move(args), a, std::vector<StructInfo>{});
    auto s = inferCallSInfo(*cl, InferContext());
    if (!s)
      return "error: " + llvm::toString(s.takeError());
    return printStructInfo(s->get());
  }
};

TEST_F(OpInferParityTensorTest, Stack) {
  EXPECT_EQ(infer("stack", {tupleExpr({tensor({c(2), n}), tensor({c(2), n})})},
                  {{"axis", AttrValue::integer(-1)}}),
            "R.Tensor((2, n, 2), dtype=\"float32\")");
  // A shape var's values count for one input; with several, only ndim.
  EXPECT_EQ(infer("stack", {tupleExpr({tensorOfShapeVar({c(3)})})}),
            "R.Tensor((1, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("stack", {tupleExpr({tensorOfShapeVar({c(3)}), tensor({c(3)})})}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  // Known dims are still checked then.
  EXPECT_EQ(infer("stack", {tupleExpr({tensorOfShapeVar({c(3)}), tensor({c(4)})})}),
            "error: R.stack expects all input tensors to have identical shapes, but dimension 0 "
            "differs: 3 vs 4");
  EXPECT_EQ(infer("stack", {tupleExpr({tensor({n}), tensor({c(4)})})}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("stack", {tupleExpr({tensorNDim(-1), tensor({c(4)}, DataType())})}),
            "R.Tensor(ndim=2)");
  EXPECT_EQ(infer("stack", {tupleExpr({tensorNDim(-1), tensorNDim(-1)})}),
            "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(infer("stack", {tupleExpr({tensor({c(2)})})}, {{"axis", AttrValue::integer(2)}}),
            "error: R.stack expects axis 2 to be in range [-2, 2) for an input of 2 dimensions");
}

TEST_F(OpInferParityTensorTest, Meshgrid) {
  EXPECT_EQ(infer("meshgrid", {tupleExpr({tensor({c(2)}), tensor({n})})}),
            "R.Tuple(R.Tensor((2, n), dtype=\"float32\"), R.Tensor((2, n), dtype=\"float32\"))");
  // An input of unknown dtype leaves the shape unknown (TVM skips it).
  EXPECT_EQ(infer("meshgrid", {tupleExpr({tensor({c(2)}), tensor({c(3)}, DataType())})}),
            "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2))");
  EXPECT_EQ(infer("meshgrid", {tupleExpr({tensorNDim(-1)})}),
            "error: R.meshgrid expects each input tensor to be 1-D, but input 0 has ndim -1");
}

TEST_F(OpInferParityTensorTest, OneHot) {
  AttrDict depth = {{"depth", AttrValue::integer(5)}};
  Expr on = primValueInt(1), off = primValueInt(0);
  EXPECT_EQ(infer("one_hot", {tensor({c(2), n}, i64t), on, off}, depth),
            "R.Tensor((2, n, 5), dtype=\"int64\")");
  EXPECT_EQ(infer("one_hot", {tensorNDim(-1, i64t), on, off}, depth), "R.Tensor(dtype=\"int64\")");
  EXPECT_EQ(infer("one_hot", {tensorOfShapeVar({c(3)}, i64t), on, off}, depth),
            "R.Tensor(dtype=\"int64\", ndim=2)");
  EXPECT_EQ(infer("one_hot", {tensor({c(3)}, DataType()), on, off},
                  {{"depth", AttrValue::integer(2)}, {"axis", AttrValue::integer(-2)}}),
            "R.Tensor((2, 3), dtype=\"int64\")");
}

TEST_F(OpInferParityTensorTest, OuterEyeHamming) {
  EXPECT_EQ(infer("outer", {tensor({c(3)}), tensor({n}, i64t)}),
            "R.Tensor((3, n), dtype=\"float32\")");
  EXPECT_EQ(infer("outer", {tensorOfShapeVar({c(3)}), tensor({n})}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("outer", {tensorNDim(-1), tensor({n})}),
            "error: R.outer expects two 1-D tensors, but got ndim -1 and 1");
  EXPECT_EQ(infer("eye", {primValue(n), primValue(c(4)), primValueInt(0)},
                  {{"dtype", AttrValue::dtype(i64t)}}),
            "R.Tensor((n, 4), dtype=\"int64\")");
  EXPECT_EQ(infer("eye_like", {tensorNDim(-1), primValueInt(1)}), "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(infer("hamming_window",
                  {primValue(n), primValueInt(1), primValueInt(1), primValueInt(1)},
                  {{"dtype", AttrValue::dtype(DataType(DataType::Float, 16))}}),
            "R.Tensor((n,), dtype=\"float16\")");
}

TEST_F(OpInferParityTensorTest, EwiseFma) {
  Var s = make<VarNode>("s", shapeSInfoNDim(2));
  Var a = make<VarNode>("a", make<TensorSInfoNode>(s, f32, 2));
  EXPECT_EQ(infer("ewise_fma", {a, a, a}), "R.Tensor(s, dtype=\"float32\")");
  EXPECT_EQ(infer("ewise_fma", {a, a, tensor({c(2), c(3)})}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("ewise_fma", {tensorNDim(-1), tensor({c(2)}, DataType()), tensorNDim(1)}),
            "R.Tensor(ndim=1)");
  EXPECT_EQ(infer("ewise_fma", {tensor({n}), tensor({n}), tensor({n})}),
            "R.Tensor((n,), dtype=\"float32\")");
}

TEST_F(OpInferParityTensorTest, CollapseSumAndBucketize) {
  Var target = make<VarNode>("s", shapeSInfo({c(3), c(1)}));
  EXPECT_EQ(infer("collapse_sum_to", {tensor({c(2), c(3), c(4)}), target}),
            "R.Tensor(s, dtype=\"float32\")");
  EXPECT_EQ(infer("collapse_sum_to", {tensor({c(2), c(3), c(4)}), shapeExpr({c(4), c(4)})}),
            "error: R.collapse_sum_to cannot collapse data dim 1 (3) into target dim 0 (4): a "
            "target dim must equal the data's or be 1");
  EXPECT_EQ(infer("collapse_sum_like", {tensor({c(2), n}), tensorNDim(-1, i64t)}),
            "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(infer("collapse_sum_like", {tensor({n, c(3)}), tensor({c(1), c(3)})}),
            "R.Tensor((1, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("bucketize", {tensorOfShapeVar({c(3)}), tensor({c(4)})},
                  {{"out_int32", AttrValue::boolean(true)}}),
            "R.Tensor(dtype=\"int32\", ndim=1)");
  EXPECT_EQ(infer("bucketize", {tensor({n, c(2)}, i64t), tensorNDim(-1)}),
            "R.Tensor((n, 2), dtype=\"int64\")");
}

} // namespace
