//===- tests/ir/OpInferBatchBTest.cpp - Inference of gathers ... image ops -===//
//
// The cases of TVM's tests/python/relax/test_op_{manipulate,index,nn,
// statistical,set,image}.py for gather_elements, gather_nd, scatter_nd,
// slice_scatter, nn.pad, nn.pixel_shuffle, median, unique, image.resize2d
// and image.grid_sample that the text corpus cannot state: symbolic dims,
// unknown shapes and ranks, shape vars, and the vdevice each keeps.
//
//===----------------------------------------------------------------------===//

#include "ir/BlockBuilder.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StructInfoAnalysis.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();
const DataType i32 = DataType::int32();
const DataType i64t = DataType::int64();

PrimExpr c(int64_t v) { return intImm(v); }

class OpInferBatchB : public ::testing::Test {
protected:
  TirVar n = make<TirVarNode>("n", DataType::int64());
  TirVar m = make<TirVarNode>("m", DataType::int64());
  VDevice gpu = make<VDeviceNode>("cuda", AttrDict(), 0, "global");

  Var tensor(std::vector<PrimExpr> dims, DataType dtype = f32, VDevice vd = nullptr) {
    return make<VarNode>("x", tensorSInfo(std::move(dims), dtype, std::move(vd)));
  }
  Var tensorNDim(int ndim, DataType dtype = f32) {
    return make<VarNode>("x", tensorSInfoNDim(ndim, dtype));
  }
  /// A tensor whose shape is a var with known values (TVM's shape var case).
  Var tensorOfShapeVar(std::vector<PrimExpr> dims, DataType dtype = f32) {
    Var s = make<VarNode>("s", shapeSInfo(std::move(dims)));
    int ndim = static_cast<int>(llvm::cast<ShapeSInfoNode>(s->sinfo.get())->ndim);
    return make<VarNode>("x", make<TensorSInfoNode>(s, dtype, ndim, nullptr));
  }
  static AttrValue ints(std::vector<int64_t> vs) {
    AttrArray arr;
    for (int64_t v : vs)
      arr.push_back(AttrValue::integer(v));
    return AttrValue::array(std::move(arr));
  }

  std::string infer(llvm::StringRef op, std::vector<Expr> args, AttrDict attrs = {}) {
    Attrs a = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
    Ref<CallNode> cl =
        make<CallNode>(getOp(("relax." + op).str()), std::move(args), a, std::vector<StructInfo>{});
    auto s = inferCallSInfo(*cl, InferContext{});
    if (!s)
      return "error: " + llvm::toString(s.takeError());
    return printStructInfo(s->get());
  }
  /// The inferred vdevice's target kind, or "none".
  std::string vdeviceOf(llvm::StringRef op, std::vector<Expr> args, AttrDict attrs = {}) {
    Attrs a = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
    Ref<CallNode> cl =
        make<CallNode>(getOp(("relax." + op).str()), std::move(args), a, std::vector<StructInfo>{});
    auto s = inferCallSInfo(*cl, InferContext{});
    if (!s) {
      llvm::consumeError(s.takeError());
      return "error";
    }
    const auto *t = llvm::dyn_cast<TensorSInfoNode>(s->get());
    return t && t->vdevice ? t->vdevice->targetKind : "none";
  }
};

TEST_F(OpInferBatchB, GatherElements) {
  EXPECT_EQ(infer("gather_elements", {tensor({n, c(3)}), tensor({c(2), m}, i64t)}),
            "R.Tensor((2, m), dtype=\"float32\")");
  EXPECT_EQ(infer("gather_elements", {tensorNDim(-1), tensor({c(2)}, i64t)}),
            "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(infer("gather_elements", {tensor({c(4), c(3)}), tensorNDim(2, i32)}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("gather_elements", {tensor({c(4), c(3)}), tensorOfShapeVar({c(2), c(3)}, i64t)}),
            "R.Tensor(s, dtype=\"float32\")");
  EXPECT_EQ(infer("gather_elements", {tensor({c(4), c(3)}), tensor({c(2), c(3)}, i64t)},
                  {{"axis", AttrValue::integer(2)}}),
            "error: R.gather_elements expects axis 2 to be in range [-2, 2) for an input of 2 "
            "dimensions");
  EXPECT_EQ(vdeviceOf("gather_elements", {tensor({c(4)}, f32, gpu), tensor({c(2)}, i64t)}), "cuda");
}

TEST_F(OpInferBatchB, GatherND) {
  EXPECT_EQ(infer("gather_nd", {tensor({n, c(3), c(4)}), tensor({m, c(2)}, i64t)}),
            "R.Tensor((m, 4), dtype=\"float32\")");
  EXPECT_EQ(infer("gather_nd", {tensor({c(2), c(3), c(4)}), tensor({c(2), m, c(1)}, i64t)},
                  {{"batch_dims", AttrValue::integer(1)}}),
            "R.Tensor((2, m, 4), dtype=\"float32\")");
  // A depth that is not a constant leaves even the rank unknown, as in TVM.
  EXPECT_EQ(infer("gather_nd", {tensor({c(2), c(3)}), tensor({c(2), n}, i64t)}),
            "R.Tensor(dtype=\"float32\")");
  // A constant depth and known ranks give the output's rank.
  EXPECT_EQ(infer("gather_nd", {tensorNDim(3), tensor({c(5), c(2)}, i64t)}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("gather_nd", {tensorOfShapeVar({c(2), c(3), c(4)}), tensor({c(5), c(2)}, i64t)}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
}

TEST_F(OpInferBatchB, ScatterND) {
  EXPECT_EQ(infer("scatter_nd", {tensor({n, c(5)}), tensor({m, c(1)}, i64t), tensor({m, c(5)})}),
            "R.Tensor((n, 5), dtype=\"float32\")");
  // updates' dims must be provably the expected ones.
  EXPECT_EQ(infer("scatter_nd", {tensor({n, c(5)}), tensor({m, c(1)}, i64t), tensor({n, c(5)})}),
            "error: R.scatter_nd expects updates.shape = indices.shape[:-1] + data.shape[K:] (m, "
            "5), but got data (n, 5), indices (m, 1), updates (n, 5)");
  EXPECT_EQ(infer("scatter_nd", {tensorNDim(2), tensorNDim(2, i64t), tensorNDim(1)}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
}

TEST_F(OpInferBatchB, SliceScatter) {
  auto pv = [](PrimExpr v) { return primValue(std::move(v)); };
  EXPECT_EQ(infer("slice_scatter",
                  {tensor({n, c(5)}), tensor({c(2), c(5)}), pv(c(0)), pv(c(4)), pv(c(2))}),
            "R.Tensor((n, 5), dtype=\"float32\")");
  // A symbolic slice length is not provably different from src's.
  EXPECT_EQ(
      infer("slice_scatter", {tensor({n, c(5)}), tensor({c(2), c(5)}), pv(c(0)), pv(n), pv(c(1))}),
      "R.Tensor((n, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("slice_scatter", {tensor({n, c(5)}), tensor({c(2), c(5)}), pv(n),
                                    pv(primBinary(PrimOp::Sub, n, c(1))), pv(c(1))}),
            "error: R.slice_scatter expects start <= end, but got start n and end n - 1");
  EXPECT_EQ(
      infer("slice_scatter", {tensorNDim(-1), tensor({c(2), c(5)}), pv(c(0)), pv(c(2)), pv(c(1))}),
      "R.Tensor(dtype=\"float32\")");
}

TEST_F(OpInferBatchB, PadAndPixelShuffleDropTheVDevice) {
  EXPECT_EQ(infer("nn.pad", {tensor({n, c(3)})}, {{"pad_width", ints({1, 2, 0, 0})}}),
            "R.Tensor((n + 3, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("nn.pad", {tensorNDim(2)}, {{"pad_width", ints({1, 2, 0, 0})}}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(vdeviceOf("nn.pad", {tensor({c(2)}, f32, gpu)}, {{"pad_width", ints({1, 1})}}), "none");
  EXPECT_EQ(infer("nn.pixel_shuffle", {tensor({n, c(8), m, c(3)})},
                  {{"upscale_factor", AttrValue::integer(2)}}),
            "R.Tensor((n, 2, m * 2, 6), dtype=\"float32\")");
  EXPECT_EQ(infer("nn.pixel_shuffle", {tensor({c(1), n, c(2), c(2)})},
                  {{"upscale_factor", AttrValue::integer(2)}}),
            "R.Tensor((1, n // 4, 4, 4), dtype=\"float32\")");
  EXPECT_EQ(vdeviceOf("nn.pixel_shuffle", {tensor({c(4), c(2), c(2)}, f32, gpu)},
                      {{"upscale_factor", AttrValue::integer(2)}}),
            "none");
}

TEST_F(OpInferBatchB, MedianFollowsTVMsRule) {
  EXPECT_EQ(infer("median", {tensor({n, c(4)})}, {{"axis", ints({1})}}),
            "R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Tensor((n,), dtype=\"int64\"))");
  EXPECT_EQ(infer("median", {tensor({n, c(4)})}, {{"keepdims", AttrValue::boolean(true)}}),
            "R.Tensor((1, 1), dtype=\"float32\")");
  // Without a shape: () for no axis, all ones with keepdims, else a tuple
  // of ndim-only tensors (even for several axes).
  EXPECT_EQ(infer("median", {tensorNDim(3)}), "R.Tensor((), dtype=\"float32\")");
  EXPECT_EQ(infer("median", {tensorNDim(3)}, {{"keepdims", AttrValue::boolean(true)}}),
            "R.Tensor((1, 1, 1), dtype=\"float32\")");
  EXPECT_EQ(infer("median", {tensorNDim(3)}, {{"axis", ints({0, 2})}}),
            "R.Tuple(R.Tensor(dtype=\"float32\", ndim=1), R.Tensor(dtype=\"int64\", ndim=1))");
  EXPECT_EQ(infer("median", {tensorNDim(-1)}, {{"axis", ints({0})}}),
            "R.Tuple(R.Tensor(dtype=\"float32\"), R.Tensor(dtype=\"int64\"))");
}

TEST_F(OpInferBatchB, Unique) {
  auto flag = [](int64_t v) { return primValueInt(v); };
  EXPECT_EQ(infer("unique", {tensor({c(2), c(3)}), flag(1), flag(0), flag(0), flag(0)}),
            "R.Tensor(dtype=\"float32\", ndim=1)");
  EXPECT_EQ(infer("unique", {tensor({}), flag(1), flag(1), flag(0), flag(1)}),
            "R.Tuple(R.Tensor((1,), dtype=\"float32\"), R.Tensor((1,), dtype=\"int64\"), "
            "R.Tensor((1,), dtype=\"int64\"))");
  EXPECT_EQ(infer("unique", {tensor({c(2), c(3)}), flag(0), flag(0), flag(1), flag(0), flag(-1)}),
            "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"int64\", ndim=1))");
  EXPECT_EQ(infer("unique", {tensorNDim(-1), flag(1), flag(0), flag(0), flag(0), flag(5)}),
            "R.Tensor(dtype=\"float32\")");
}

TEST_F(OpInferBatchB, ImageOps) {
  EXPECT_EQ(infer("image.resize2d", {tensor({n, c(3), c(8), c(8)}), shapeExpr({m, c(4)})}),
            "R.Tensor((n, 3, m, 4), dtype=\"float32\")");
  EXPECT_EQ(infer("image.resize2d", {tensor({n, c(8), c(8), c(3)}), shapeExpr({c(2), c(4)})},
                  {{"layout", AttrValue::string("NHWC")},
                   {"out_dtype", AttrValue::dtype(DataType(DataType::Float, 16))}}),
            "R.Tensor((n, 2, 4, 3), dtype=\"float16\")");
  EXPECT_EQ(infer("image.resize2d",
                  {tensor({c(1), c(8), c(8), c(8), c(4)}), shapeExpr({c(2), c(4)})},
                  {{"layout", AttrValue::string("NCHW4c")}}),
            "R.Tensor((1, 8, 2, 4, 4), dtype=\"float32\")");
  Var size = make<VarNode>("size", shapeSInfoNDim(2));
  EXPECT_EQ(infer("image.resize2d", {tensor({c(1), c(3), c(8), c(8)}), size}),
            "R.Tensor(dtype=\"float32\", ndim=4)");
  EXPECT_EQ(infer("image.grid_sample", {tensor({n, c(3), c(8), c(8)}), tensor({n, c(5), m, c(2)})}),
            "R.Tensor((n, 3, 5, m), dtype=\"float32\")");
  EXPECT_EQ(infer("image.grid_sample", {tensorNDim(4), tensor({c(1), c(5), c(6), c(2)})}),
            "R.Tensor(dtype=\"float32\", ndim=4)");
}

} // namespace
