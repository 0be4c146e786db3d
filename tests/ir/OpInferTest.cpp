//===- tests/ir/OpInferTest.cpp - Struct-info inference of registered ops --===//
//
// Builds calls through getOp + CallNode + inferCallSInfo (no parser) and
// checks the printed struct info or the exact error text.
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
const DataType f16 = DataType(DataType::Float, 16);
const DataType i32 = DataType::int32();
const DataType i64t = DataType::int64();
const DataType boolT = DataType::boolType();

PrimExpr c(int64_t v) { return intImm(v); }

class OpInferTest : public ::testing::Test {
protected:
  TirVar n = make<TirVarNode>("n", DataType::int64());
  TirVar m = make<TirVarNode>("m", DataType::int64());

  Var tensor(std::vector<PrimExpr> dims, DataType dtype = f32, const char *name = "x") {
    return make<VarNode>(name, tensorSInfo(std::move(dims), dtype));
  }
  Var tensorNDim(int ndim, DataType dtype = f32) {
    return make<VarNode>("x", tensorSInfoNDim(ndim, dtype));
  }
  Expr tuple(std::vector<Expr> fields) { return tupleExpr(std::move(fields)); }
  Expr ints(std::vector<int64_t> vs) {
    std::vector<Expr> fields;
    for (int64_t v : vs)
      fields.push_back(primValueInt(v));
    return tupleExpr(std::move(fields));
  }
  static AttrValue intList(std::vector<int64_t> vs) {
    AttrArray arr;
    for (int64_t v : vs)
      arr.push_back(AttrValue::integer(v));
    return AttrValue::array(std::move(arr));
  }

  Ref<CallNode> call(llvm::StringRef op, std::vector<Expr> args, AttrDict attrs = {},
                     std::vector<StructInfo> sinfoArgs = {}) {
    Attrs a = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
    return make<CallNode>(getOp(("relax." + op).str()), std::move(args), a, std::move(sinfoArgs));
  }

  /// The printed inferred struct info, or "error: MESSAGE".
  std::string infer(llvm::StringRef op, std::vector<Expr> args, AttrDict attrs = {},
                    std::vector<StructInfo> sinfoArgs = {}, const IRModule *module = nullptr) {
    Ref<CallNode> cl = call(op, std::move(args), std::move(attrs), std::move(sinfoArgs));
    InferContext ctx;
    ctx.module = module;
    auto s = inferCallSInfo(*cl, ctx);
    if (!s)
      return "error: " + llvm::toString(s.takeError());
    return printStructInfo(s->get());
  }
};

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, BinaryBroadcast) {
  EXPECT_EQ(infer("add", {tensor({c(2), c(3)}), tensor({c(3)})}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("multiply", {tensor({c(4), c(1), c(3)}), tensor({c(5), c(1)})}),
            "R.Tensor((4, 5, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("add", {tensor({n, c(1)}), tensor({c(1), m})}),
            "R.Tensor((n, m), dtype=\"float32\")");
  EXPECT_EQ(infer("subtract", {tensor({n, c(4)}), tensor({n, c(4)})}),
            "R.Tensor((n, 4), dtype=\"float32\")");
  // n vs m cannot be decided: only ndim survives.
  EXPECT_EQ(infer("add", {tensor({n}), tensor({m})}), "R.Tensor(dtype=\"float32\", ndim=1)");
  EXPECT_EQ(infer("add", {tensor({c(2), c(3)}), tensorNDim(3)}),
            "R.Tensor(dtype=\"float32\", ndim=3)");
  EXPECT_EQ(infer("add", {tensor({c(2), c(3)}), tensorNDim(-1)}), "R.Tensor(dtype=\"float32\")");
}

TEST_F(OpInferTest, BinaryErrors) {
  EXPECT_EQ(infer("add", {tensor({c(2)}), tensor({c(2)}, i32)}),
            "error: R.add expects the operands to have the same dtype, but got float32 and "
            "int32");
  EXPECT_EQ(infer("add", {tensor({c(2), c(3)}), tensor({c(4)})}),
            "error: R.add expects broadcastable shapes, but dim 3 of (2, 3) and dim 4 of (4,) "
            "differ");
  EXPECT_EQ(infer("add", {tensor({c(2)}), shapeExpr({c(2)})}),
            "error: R.add expects input x2 to be a R.Tensor or R.Prim, but got R.Shape");
  EXPECT_EQ(infer("add", {tensor({c(2)})}), "error: R.add expects 2 arguments, but got 1");
}

TEST_F(OpInferTest, BinaryDTypeRules) {
  // v0.23: a bool side is accepted and the left dtype wins.
  EXPECT_EQ(infer("multiply", {tensor({c(2)}, f16), tensor({c(2)}, boolT)}),
            "R.Tensor((2,), dtype=\"float16\")");
  EXPECT_EQ(infer("add", {tensor({c(2)}), tensor({c(2)}, DataType::voidType())}), "R.Tensor((2,))");
  EXPECT_EQ(infer("less", {tensor({c(2)}), tensor({c(2)}, i32)}), "R.Tensor((2,), dtype=\"bool\")");
  EXPECT_EQ(infer("add", {primValue(n), primValueInt(1)}), "R.Prim(\"int64\")");
}

TEST_F(OpInferTest, Unary) {
  EXPECT_EQ(infer("exp", {tensor({n, c(3)})}), "R.Tensor((n, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("negative", {tensor({c(3)}, i32)}), "R.Tensor((3,), dtype=\"int32\")");
  EXPECT_EQ(infer("sqrt", {tensor({c(3)}, i32)}),
            "error: R.sqrt expects a float tensor, but got int32");
  EXPECT_EQ(infer("isnan", {tensor({c(3)})}), "R.Tensor((3,), dtype=\"bool\")");
  EXPECT_EQ(infer("nn.relu", {tensor({c(3)}, i32)}), "R.Tensor((3,), dtype=\"int32\")");
  EXPECT_EQ(infer("nn.gelu", {tensor({c(3)}, i32)}),
            "error: R.nn.gelu expects a float tensor, but got int32");
}

TEST_F(OpInferTest, ClipAstypeWhere) {
  EXPECT_EQ(infer("clip", {tensor({c(3)}), primValueInt(0), primValueInt(6)}),
            "R.Tensor((3,), dtype=\"float32\")");
  EXPECT_EQ(infer("astype", {tensor({n})}, {{"dtype", AttrValue::dtype(f16)}}),
            "R.Tensor((n,), dtype=\"float16\")");
  EXPECT_EQ(infer("where", {tensor({c(2), c(1)}, boolT), tensor({c(3)}), tensor({c(1)})}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("where", {tensor({c(2)}), tensor({c(2)}), tensor({c(2)})}),
            "error: R.where expects the condition to be a bool tensor, but got float32");
}

//===----------------------------------------------------------------------===//
// Call forms, memory, vm, builtin
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, CallTIRTakesSInfoArgs) {
  GlobalVar gv = make<GlobalVarNode>("add_one");
  StructInfo out = tensorSInfo({c(2), c(3)}, f32);
  EXPECT_EQ(infer("call_tir", {gv, tuple({tensor({c(2), c(3)})})}, {}, {out}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  StructInfo outs = tupleSInfo({out, out});
  EXPECT_EQ(infer("call_tir", {gv, tuple({})}, {}, {outs}),
            "R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\"))");
  EXPECT_EQ(infer("call_tir", {gv, tuple({})}),
            "error: R.call_tir expects exactly one output struct info in sinfo_args, but got 0");
  EXPECT_EQ(infer("call_dps_packed", {make<ExternFuncNode>("f"), tuple({})}, {}, {out}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  // call_tir_with_grad infers as call_tir; the gradient attrs play no part.
  AttrDict grad = {{"te_grad_name", AttrValue::string("add_one_grad")},
                   {"te_grad_kwargs", AttrValue::dict({})}};
  EXPECT_EQ(infer("call_tir_with_grad", {gv, tuple({})}, grad, {outs}),
            "R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\"))");
  EXPECT_EQ(infer("call_tir_with_grad", {gv, tuple({})}, grad),
            "error: R.call_tir_with_grad expects exactly one output struct info in sinfo_args, but "
            "got 0");
  EXPECT_EQ(lookupOp("call_tir_with_grad")->textForm, TextForm::CallTIR);
  EXPECT_TRUE(lookupOp("call_tir_with_grad")->pure);
}

TEST_F(OpInferTest, PackedAndClosureForms) {
  Expr f = make<ExternFuncNode>("my_func");
  StructInfo t = tensorSInfo({c(4)}, f32);
  EXPECT_EQ(infer("call_pure_packed", {f, tensor({c(4)})}, {}, {t}),
            "R.Tensor((4,), dtype=\"float32\")");
  EXPECT_EQ(infer("call_pure_packed", {f}, {}, {}), "R.Object");
  EXPECT_EQ(infer("call_builtin_with_ctx", {f, tuple({})}), "R.Tuple");
  EXPECT_EQ(infer("call_builtin_with_ctx", {f, tuple({})}, {}, {t}),
            "R.Tensor((4,), dtype=\"float32\")");
  EXPECT_EQ(infer("invoke_pure_closure", {tensor({}), tuple({})}, {}, {t, t}),
            "R.Tuple(R.Tensor((4,), dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\"))");
  EXPECT_EQ(infer("make_closure", {make<GlobalVarNode>("g"), tuple({})}), "R.Object");
  EXPECT_EQ(infer("null_value", {}), "R.Object");
}

TEST_F(OpInferTest, MemoryAndVMAllocs) {
  Var storage = make<VarNode>("s", objectSInfo());
  EXPECT_EQ(infer("memory.alloc_storage",
                  {shapeExpr({c(64)}), primValueInt(0), stringImm("global"), dataTypeImm(f32)}),
            "R.Object");
  std::vector<Expr> alloc = {storage, primValueInt(0), shapeExpr({c(2), n}), dataTypeImm(f32),
                             primValueInt(0)};
  EXPECT_EQ(infer("memory.alloc_tensor", alloc), "R.Tensor((2, n), dtype=\"float32\")");
  EXPECT_EQ(infer("vm.alloc_tensor", alloc), "R.Tensor((2, n), dtype=\"float32\")");
  EXPECT_EQ(infer("builtin.alloc_tensor",
                  {shapeExpr({c(8)}), dataTypeImm(f16), primValueInt(0), stringImm("global")}),
            "R.Tensor((8,), dtype=\"float16\")");
  EXPECT_EQ(infer("memory.kill_tensor", {tensor({c(2)})}), "R.Tuple");
  EXPECT_EQ(infer("vm.kill_object", {storage}), "R.Tuple");
  EXPECT_EQ(infer("memory.view", {tensor({c(2), c(3)}), tuple({}), tuple({}), tuple({})}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(
      infer("memory.view", {tensor({c(6)}), shapeExpr({c(2), c(3)}), dataTypeImm(i32), tuple({})}),
      "R.Tensor((2, 3), dtype=\"int32\")");
}

TEST_F(OpInferTest, AllocTensorTakesVDeviceFromModule) {
  IRModule mod;
  VDevice cpu = make<VDeviceNode>("llvm", AttrDict(), 0, "global");
  VDevice gpu = make<VDeviceNode>("cuda", AttrDict(), 0, "global");
  mod.globalInfos.push_back({"vdevice", {cpu, gpu}});
  Ref<CallNode> cl = call("builtin.alloc_tensor", {shapeExpr({c(8)}), dataTypeImm(f32),
                                                   primValueInt(1), stringImm("global")});
  InferContext ctx;
  ctx.module = &mod;
  auto s = inferCallSInfo(*cl, ctx);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(llvm::cast<TensorSInfoNode>(s->get())->vdevice.get(), gpu.get());
  // Out of range: no vdevice; without a module: none either.
  cl = call("vm.alloc_tensor", {make<VarNode>("s", objectSInfo()), primValueInt(0),
                                shapeExpr({c(8)}), dataTypeImm(f32), primValueInt(5)});
  s = inferCallSInfo(*cl, ctx);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(llvm::cast<TensorSInfoNode>(s->get())->vdevice.get(), nullptr);
}

TEST_F(OpInferTest, ShapeConversions) {
  EXPECT_EQ(infer("shape_of", {tensor({n, c(4)})}), "R.Shape([n, 4])");
  EXPECT_EQ(infer("shape_of", {tensorNDim(2)}), "R.Shape(ndim=2)");
  EXPECT_EQ(infer("shape_to_tensor", {shapeExpr({n, c(4)})}), "R.Tensor((2,), dtype=\"int64\")");
  EXPECT_EQ(infer("tensor_to_shape", {tensor({c(3)}, i64t)}), "R.Shape(ndim=3)");
  EXPECT_EQ(infer("tensor_to_shape", {tensor({c(3)}, f32)}),
            "error: R.tensor_to_shape expects an int64 tensor, but got float32");
}

TEST_F(OpInferTest, PurityAndCaptureFlags) {
  for (const char *impure :
       {"print", "assert_op", "memory.kill_storage", "memory.kill_tensor", "vm.kill_object",
        "vm.call_tir_dyn", "call_builtin_with_ctx", "invoke_closure"})
    EXPECT_FALSE(lookupOp(impure)->pure) << impure;
  for (const char *pure : {"memory.alloc_storage", "memory.alloc_tensor", "vm.alloc_storage",
                           "vm.alloc_tensor", "builtin.alloc_tensor", "call_tir",
                           "call_pure_packed", "null_value", "add", "invoke_pure_closure"})
    EXPECT_TRUE(lookupOp(pure)->pure) << pure;
  EXPECT_FALSE(lookupOp("nonzero")->capturable);
  Ref<CallNode> intIndex = call("index_tensor", {tensor({c(4)}), tuple({tensor({c(2)}, i64t)})});
  Ref<CallNode> maskIndex = call("index_tensor", {tensor({c(4)}), tuple({tensor({c(4)}, boolT)})});
  EXPECT_TRUE(isCapturableCall(*intIndex));
  EXPECT_FALSE(isCapturableCall(*maskIndex));
  EXPECT_EQ(lookupOp("call_tir")->textForm, TextForm::CallTIR);
  EXPECT_EQ(lookupOp("print")->textForm, TextForm::PrintOrAssert);
}

TEST_F(OpInferTest, SchemasMatchWrapperOrder) {
  // memory.alloc_tensor has five params, the last defaulting to 0.
  const OpInfo *alloc = lookupOp("memory.alloc_tensor");
  ASSERT_EQ(alloc->params.size(), 5u);
  EXPECT_EQ(alloc->params[4].name, "runtime_device_ind");
  EXPECT_TRUE(alloc->params[4].hasDefault);
  EXPECT_EQ(alloc->params[4].defaultValue.getInt(), 0);
  const OpInfo *sum = lookupOp("relax.sum");
  auto attrs = sum->attrParamIndices();
  ASSERT_EQ(attrs.size(), 2u);
  EXPECT_EQ(sum->params[attrs[0]].name, "axis");
  EXPECT_TRUE(sum->params[attrs[0]].wrapScalar);
  EXPECT_EQ(sum->params[attrs[1]].name, "keepdims");
  const OpInfo *take = lookupOp("take");
  EXPECT_EQ(take->params[take->attrParamIndices()[1]].defaultValue.getString(), "fast");
  EXPECT_EQ(lookupOp("vm.alloc_storage")->params[3].defaultValue.getString(), "global");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, Reductions) {
  Var x = tensor({c(2), n, c(4)});
  EXPECT_EQ(infer("sum", {x}), "R.Tensor((), dtype=\"float32\")");
  EXPECT_EQ(infer("sum", {x}, {{"axis", intList({1})}, {"keepdims", AttrValue::boolean(false)}}),
            "R.Tensor((2, 4), dtype=\"float32\")");
  EXPECT_EQ(
      infer("mean", {x}, {{"axis", intList({-1, 0})}, {"keepdims", AttrValue::boolean(true)}}),
      "R.Tensor((1, n, 1), dtype=\"float32\")");
  EXPECT_EQ(
      infer("max", {x}, {{"axis", AttrValue::none()}, {"keepdims", AttrValue::boolean(true)}}),
      "R.Tensor((1, 1, 1), dtype=\"float32\")");
  EXPECT_EQ(infer("sum", {tensorNDim(3)}, {{"axis", intList({1})}}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("sum", {x}, {{"axis", intList({3})}}),
            "error: R.sum expects axis 3 to be in range [-3, 3) for an input of 3 dimensions");
  EXPECT_EQ(infer("sum", {x}, {{"axis", intList({1, -2})}}),
            "error: R.sum expects distinct axes, but axis 1 is repeated");
  EXPECT_EQ(infer("argmax", {x}, {{"axis", AttrValue::integer(1)}}),
            "R.Tensor((2, 4), dtype=\"int64\")");
  EXPECT_EQ(infer("argmin", {x}), "R.Tensor((), dtype=\"int64\")");
}

TEST_F(OpInferTest, ScanSortSize) {
  Var x = tensor({c(2), c(3)});
  EXPECT_EQ(infer("cumsum", {x}, {{"axis", AttrValue::integer(1)}}),
            "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("cumsum", {x}), "R.Tensor((6,), dtype=\"float32\")");
  EXPECT_EQ(infer("sort", {x}), "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("argsort", {x}), "R.Tensor((2, 3), dtype=\"int32\")");
  EXPECT_EQ(infer("size", {x}), "R.Tensor((), dtype=\"int64\")");
}

//===----------------------------------------------------------------------===//
// matmul, manipulation
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, Matmul) {
  EXPECT_EQ(infer("matmul", {tensor({c(2), n, c(4)}), tensor({c(4), c(5)})}),
            "R.Tensor((2, n, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("matmul", {tensor({c(3), c(1), c(2), c(4)}), tensor({c(6), c(4), c(5)})}),
            "R.Tensor((3, 6, 2, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("matmul", {tensor({c(4)}), tensor({c(4), c(5)})}),
            "R.Tensor((5,), dtype=\"float32\")");
  EXPECT_EQ(infer("matmul", {tensor({c(2), c(4)}), tensor({c(4)})}),
            "R.Tensor((2,), dtype=\"float32\")");
  EXPECT_EQ(infer("matmul", {tensor({c(2), c(4)}), tensor({c(4), c(3)})},
                  {{"out_dtype", AttrValue::dtype(f16)}}),
            "R.Tensor((2, 3), dtype=\"float16\")");
  EXPECT_EQ(infer("matmul", {tensor({c(2), c(4)}), tensor({c(3), c(5)})}),
            "error: R.matmul expects the reduction lengths of the two inputs to be equal, but "
            "got 4 and 3");
  EXPECT_EQ(infer("matmul", {tensorNDim(3), tensor({c(4), c(5)})}),
            "R.Tensor(dtype=\"float32\", ndim=3)");
}

TEST_F(OpInferTest, PermuteAndReshape) {
  Var x = tensor({c(2), n, c(4)});
  EXPECT_EQ(infer("permute_dims", {x}), "R.Tensor((4, n, 2), dtype=\"float32\")");
  EXPECT_EQ(infer("permute_dims", {x}, {{"axes", intList({0, 2, 1})}}),
            "R.Tensor((2, 4, n), dtype=\"float32\")");
  EXPECT_EQ(infer("permute_dims", {x}, {{"axes", intList({0, 1})}}),
            "error: R.permute_dims expects as many axes as the input has dimensions, but got 2 "
            "axes for 3 dimensions");
  EXPECT_EQ(infer("reshape", {x, shapeExpr({c(8), n})}), "R.Tensor((8, n), dtype=\"float32\")");
  EXPECT_EQ(infer("reshape", {tensor({c(2), c(3)}), shapeExpr({c(5)})}),
            "error: R.reshape expects the new shape to hold as many elements as the input, but "
            "(2, 3) has 6 and (5,) has 5");
}

TEST_F(OpInferTest, ReshapeCanonicalizeResolvesMinusOneAndZero) {
  const OpInfo *reshape = lookupOp("reshape");
  ASSERT_NE(reshape->canonicalize, nullptr);
  std::vector<Expr> args = {tensor({c(2), c(3), c(4)}), shapeExpr({c(2), c(-1)})};
  Attrs attrs;
  ASSERT_FALSE(bool(reshape->canonicalize(args, attrs)));
  EXPECT_EQ(printExpr(args[1].get()), "R.shape([2, 12])");
  args = {tensor({n, c(3), c(4)}), shapeExpr({c(0), c(-1)})};
  ASSERT_FALSE(bool(reshape->canonicalize(args, attrs)));
  EXPECT_EQ(printExpr(args[1].get()), "R.shape([n, 12])");
  args = {tensor({c(6)}), shapeExpr({c(-1), c(-1)})};
  llvm::Error err = reshape->canonicalize(args, attrs);
  EXPECT_EQ(llvm::toString(std::move(err)), "R.reshape accepts at most one -1 in the new shape");
}

TEST_F(OpInferTest, ExpandSqueezeFlattenBroadcastTo) {
  Var x = tensor({c(2), c(1), n});
  EXPECT_EQ(infer("expand_dims", {x}, {{"axis", intList({0, -1})}}),
            "R.Tensor((1, 2, 1, n, 1), dtype=\"float32\")");
  EXPECT_EQ(infer("squeeze", {x}, {{"axis", intList({1})}}), "R.Tensor((2, n), dtype=\"float32\")");
  // v0.23: a listed axis of static length != 1 is kept.
  EXPECT_EQ(infer("squeeze", {x}, {{"axis", intList({0, 1})}}),
            "R.Tensor((2, n), dtype=\"float32\")");
  EXPECT_EQ(infer("squeeze", {x}), "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(infer("squeeze", {tensor({c(1), c(3), c(1)})}), "R.Tensor((3,), dtype=\"float32\")");
  EXPECT_EQ(infer("flatten", {tensor({c(2), c(3), c(4)})}), "R.Tensor((24,), dtype=\"float32\")");
  EXPECT_EQ(infer("broadcast_to", {tensor({c(1), c(3)}), shapeExpr({c(4), c(2), c(3)})}),
            "R.Tensor((4, 2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("broadcast_to", {tensor({c(2), c(3)}), shapeExpr({c(4), c(3)})}),
            "error: R.broadcast_to cannot broadcast (2, 3) to (4, 3): dim 2 vs 4");
}

TEST_F(OpInferTest, ConcatAndSplit) {
  Expr tensors = tuple({tensor({c(2), c(3)}), tensor({c(2), c(5)})});
  EXPECT_EQ(infer("concat", {tensors}, {{"axis", AttrValue::integer(1)}}),
            "R.Tensor((2, 8), dtype=\"float32\")");
  EXPECT_EQ(infer("concat", {tensors}),
            "error: R.concat expects the inputs to agree on every dim but the axis, but dim 1 "
            "is 3 and 5");
  EXPECT_EQ(infer("concat", {tuple({tensor({n}), tensor({n}), tensor({n})})}),
            "R.Tensor((n * 3,), dtype=\"float32\")");
  EXPECT_EQ(infer("concat", {tuple({tensor({c(2)}), tensor({c(2)}, i32)})}),
            "error: R.concat expects the inputs to have the same dtype, but got float32 and "
            "int32");
  Var x = tensor({c(10), c(4)});
  EXPECT_EQ(
      infer("split", {x},
            {{"indices_or_sections", AttrValue::integer(3)}, {"axis", AttrValue::integer(0)}}),
      "R.Tuple(R.Tensor((4, 4), dtype=\"float32\"), R.Tensor((4, 4), dtype=\"float32\"), "
      "R.Tensor((2, 4), dtype=\"float32\"))");
  EXPECT_EQ(infer("split", {x},
                  {{"indices_or_sections", intList({2, 5})}, {"axis", AttrValue::integer(0)}}),
            "R.Tuple(R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((3, 4), dtype=\"float32\"), "
            "R.Tensor((5, 4), dtype=\"float32\"))");
  EXPECT_EQ(infer("split", {tensorNDim(2)}, {{"indices_or_sections", AttrValue::integer(2)}}),
            "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2))");
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, StridedSliceAndTake) {
  Var x = tensor({c(8), c(9), c(10)});
  EXPECT_EQ(infer("strided_slice", {x, ints({0, 2}), ints({1, -3}), ints({8, 10}), ints({2, 1})}),
            "R.Tensor((4, 9, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("strided_slice", {x, ints({1}), ints({8}), ints({0}), ints({-3})}),
            "R.Tensor((8, 3, 10), dtype=\"float32\")");
  Var idx = tensor({c(2), c(3)}, i64t, "idx");
  EXPECT_EQ(infer("take", {x, idx}, {{"axis", AttrValue::integer(1)}}),
            "R.Tensor((8, 2, 3, 10), dtype=\"float32\")");
  EXPECT_EQ(infer("take", {tensor({c(5)}), idx}), "R.Tensor((2, 3), dtype=\"float32\")");
  EXPECT_EQ(infer("take", {x, tensor({c(2)}, f32)}, {{"axis", AttrValue::integer(0)}}),
            "error: R.take expects integer indices, but got float32");
}

TEST_F(OpInferTest, IndexTensorIntegerAndMask) {
  Var x = tensor({c(4), c(5), c(6)});
  EXPECT_EQ(infer("index_tensor", {x, tuple({tensor({c(3)}, i64t), tensor({c(2), c(1)}, i64t)})}),
            "R.Tensor((2, 3, 6), dtype=\"float32\")");
  // A bool mask of rank k: ndim - k + 1, no shape.
  EXPECT_EQ(infer("index_tensor", {x, tuple({tensor({c(4), c(5)}, boolT)})}),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer("index_tensor", {x, tuple({tensor({n}, boolT)})}),
            "R.Tensor(dtype=\"float32\", ndim=3)");
  EXPECT_EQ(infer("index_tensor", {x, tuple({tensor({c(3)}, boolT)})}),
            "error: R.index_tensor expects the mask shape (3,) to match the leading dims of the "
            "data shape (4, 5, 6)");
  EXPECT_EQ(infer("index_tensor", {x, tuple({tensor({c(4)}, boolT), tensor({c(2)}, i64t)})}),
            "error: R.index_tensor supports a boolean mask only as the sole index");
}

TEST_F(OpInferTest, IndexPutIntegerAndMask) {
  Var x = tensor({c(4), c(5)});
  Expr intIdx = tuple({tensor({c(3)}, i64t), tensor({c(3)}, i64t)});
  EXPECT_EQ(infer("index_put", {x, intIdx, tensor({c(3)})}), "R.Tensor((4, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("index_put", {x, tuple({tensor({c(3)}, i64t)}), tensor({c(3)})}),
            "error: R.index_put expects one index tensor per data dimension (2), but got 1");
  EXPECT_EQ(infer("index_put", {x, tuple({tensor({c(4)}, boolT)}), tensor({n, c(5)})}),
            "R.Tensor((4, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("index_put", {x, tuple({tensor({c(4)}, boolT)}), tensor({n})}),
            "error: R.index_put expects values of 2 dimensions for a mask of 1, but got 1");
  EXPECT_EQ(infer("index_put", {x, intIdx, tensor({c(3)}, i32)}),
            "error: R.index_put expects values of the data's dtype float32, but got int32");
}

TEST_F(OpInferTest, ScatterAndNonzero) {
  Var x = tensor({c(4), c(5)});
  EXPECT_EQ(infer("scatter_elements", {x, tensor({c(2), c(5)}, i64t), tensor({c(2), c(5)})}),
            "R.Tensor((4, 5), dtype=\"float32\")");
  EXPECT_EQ(infer("nonzero", {x}), "R.Tensor(dtype=\"int64\", ndim=2)");
}

//===----------------------------------------------------------------------===//
// Creation and nn
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, Creation) {
  EXPECT_EQ(infer("zeros", {shapeExpr({c(2), n})}, {{"dtype", AttrValue::dtype(f16)}}),
            "R.Tensor((2, n), dtype=\"float16\")");
  EXPECT_EQ(infer("full", {shapeExpr({c(3)}), tensor({}, i32)}), "R.Tensor((3,), dtype=\"int32\")");
  EXPECT_EQ(infer("ones_like", {tensor({n})}), "R.Tensor((n,), dtype=\"float32\")");
  EXPECT_EQ(infer("full_like", {tensor({n}), tensor({c(2)})}),
            "error: R.full_like expects fill_value to be a scalar tensor, but it has 1 "
            "dimensions");
  EXPECT_EQ(infer("arange", {primValueInt(0), primValueInt(10), primValueInt(3)},
                  {{"dtype", AttrValue::dtype(i64t)}}),
            "R.Tensor((4,), dtype=\"int64\")");
  EXPECT_EQ(infer("tril", {tensor({c(3), c(3)}), primValueInt(0)}),
            "R.Tensor((3, 3), dtype=\"float32\")");
}

TEST_F(OpInferTest, ArangeCanonicalize) {
  const OpInfo *arange = lookupOp("arange");
  std::vector<Expr> args = {primValueInt(5), primValueInt(1)}; // R.arange(5)
  Attrs attrs = make<AttrsNode>(AttrDict{{"dtype", AttrValue::dtype(DataType::voidType())}});
  ASSERT_FALSE(bool(arange->canonicalize(args, attrs)));
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(printExpr(args[1].get()), "R.prim_value(5)");
  EXPECT_EQ(attrs->lookup("dtype")->getDType(), i64t);
}

TEST_F(OpInferTest, NNOps) {
  Var x = tensor({c(2), n, c(8)});
  EXPECT_EQ(infer("nn.softmax", {x}), "R.Tensor((2, n, 8), dtype=\"float32\")");
  EXPECT_EQ(infer("nn.softmax", {x}, {{"axis", AttrValue::integer(3)}}),
            "error: R.nn.softmax expects axis 3 to be in range [-3, 3) for an input of 3 "
            "dimensions");
  EXPECT_EQ(infer("nn.layer_norm", {x, tensor({c(8)}), tensor({c(8)})}, {{"axes", intList({-1})}}),
            "R.Tensor((2, n, 8), dtype=\"float32\")");
  EXPECT_EQ(infer("nn.layer_norm", {x, tensor({c(7)}), tensor({c(8)})}, {{"axes", intList({-1})}}),
            "error: R.nn.layer_norm expects gamma dim 0 to equal data dim 2, but got 7 and 8");
  EXPECT_EQ(infer("nn.rms_norm", {x, tensor({c(8)})}), "R.Tensor((2, n, 8), dtype=\"float32\")");
}

TEST_F(OpInferTest, Attention) {
  // BSNH: query (B, S, N, H), key (B, S_kv, N_kv, H), value (B, S_kv, N_kv, H_v).
  Var q = tensor({c(2), n, c(8), c(64)}, f16, "q");
  Var k = tensor({c(2), m, c(8), c(64)}, f16, "k");
  Var v = tensor({c(2), m, c(8), c(32)}, f16, "v");
  EXPECT_EQ(infer("nn.attention", {q, k, v}), "R.Tensor((2, n, 8, 32), dtype=\"float16\")");
  AttrDict causal = {{"scale", AttrValue::floating(0.5)},
                     {"causal_mask", AttrValue::string("BottomRight")}};
  EXPECT_EQ(infer("nn.attention", {q, k, v}, causal), "R.Tensor((2, n, 8, 32), dtype=\"float16\")");
  // Grouped-query attention: 2 key/value heads serve 8 query heads.
  Var k2 = tensor({c(2), m, c(2), c(64)}, f16, "k"), v2 = tensor({c(2), m, c(2), c(64)}, f16, "v");
  EXPECT_EQ(infer("nn.attention", {q, k2, v2}), "R.Tensor((2, n, 8, 64), dtype=\"float16\")");
  // A bias broadcasts over batch, heads and queries; its last dim is S_kv.
  EXPECT_EQ(infer("nn.attention", {q, k, v, tensor({c(1), c(8), c(1), m}, f16, "b")}),
            "R.Tensor((2, n, 8, 32), dtype=\"float16\")");
  EXPECT_EQ(infer("nn.attention", {q, k, tensorNDim(4, f16)}),
            "R.Tensor(dtype=\"float16\", ndim=4)");

  EXPECT_EQ(infer("nn.attention", {tensor({c(2), c(8), c(64)}, f16), k, v}),
            "error: R.nn.attention expects query to have 4 dimensions (batch, sequence length, "
            "heads, head dim), but got 3");
  EXPECT_EQ(infer("nn.attention", {q, tensor({c(3), m, c(8), c(64)}, f16), v}),
            "error: R.nn.attention expects the batch size of query and key to be equal, but got 2 "
            "and 3");
  EXPECT_EQ(infer("nn.attention", {q, k, tensor({c(2), c(5), c(8), c(32)}, f16)}),
            "R.Tensor((2, n, 8, 32), dtype=\"float16\")"); // m vs 5: not provably different.
  EXPECT_EQ(infer("nn.attention",
                  {q, tensor({c(2), c(4), c(8), c(64)}, f16), tensor({c(2), c(5), c(8), c(32)})}),
            "error: R.nn.attention expects the sequence length of key and value to be equal, but "
            "got 4 and 5");
  EXPECT_EQ(infer("nn.attention", {q, tensor({c(2), m, c(8), c(32)}, f16), v}),
            "error: R.nn.attention expects the head dim of query and key to be equal, but got 64 "
            "and 32");
  EXPECT_EQ(infer("nn.attention", {q, tensor({c(2), m, c(3), c(64)}, f16), v}),
            "error: R.nn.attention expects the number of heads of query to be a multiple of "
            "key's, but got 8 and 3");
  EXPECT_EQ(infer("nn.attention", {q, k, v, tensor({c(2), c(4), c(1), m}, f16, "b")}),
            "error: R.nn.attention expects the number of heads of bias to be 1 or the query's 8, "
            "but got 4");
  EXPECT_EQ(infer("nn.attention", {q, k, v, tensor({c(2), c(8), c(1), c(7)}, f16, "b")}),
            "R.Tensor((2, n, 8, 32), dtype=\"float16\")");
  EXPECT_EQ(infer("nn.attention",
                  {q, tensor({c(2), c(6), c(8), c(64)}), tensor({c(2), c(6), c(8), c(32)}),
                   tensor({c(2), c(8), c(1), c(7)}, f16, "b")}),
            "error: R.nn.attention expects the sequence length of key and bias to be equal, but "
            "got 6 and 7");
  EXPECT_EQ(infer("nn.attention", {q, k, v}, {{"causal_mask", AttrValue::string("Top")}}),
            "error: R.nn.attention expects causal_mask to be \"TopLeft\", \"BottomRight\" or "
            "None, but got \"Top\"");
  EXPECT_EQ(infer("nn.attention", {q, k}),
            "error: R.nn.attention expects 3 to 4 arguments, but got 2");
  // TVM's op for a call with a bias: the bias is required.
  EXPECT_EQ(infer("nn.attention_bias", {q, k, v, tensor({c(1), c(8), c(1), m}, f16, "b")}),
            "R.Tensor((2, n, 8, 32), dtype=\"float16\")");
  EXPECT_EQ(infer("nn.attention_bias", {q, k, v}),
            "error: R.nn.attention_bias expects 4 arguments, but got 3");
}

TEST_F(OpInferTest, BadCallsReturnErrorsNotCrashes) {
  // Every op, with 0..5 args of assorted struct info and with attrs of the
  // wrong kind: inference must return (a value or an error), never abort.
  std::vector<Expr> pool = {make<VarNode>("o", objectSInfo()),
                            tensor({c(2), c(3)}),
                            tensorNDim(-1),
                            shapeExpr({c(2)}),
                            primValueInt(-7),
                            tuple({tensor({c(2)}, boolT)}),
                            stringImm("s")};
  size_t errors = 0;
  for (const OpInfo *info : allOps()) {
    for (size_t nargs = 0; nargs <= 5; ++nargs) {
      for (size_t shift = 0; shift < pool.size(); ++shift) {
        std::vector<Expr> args;
        for (size_t i = 0; i < nargs; ++i)
          args.push_back(pool[(i + shift) % pool.size()]);
        AttrDict attrs;
        if (shift % 2)
          for (unsigned idx : info->attrParamIndices())
            attrs.emplace_back(info->params[idx].name.str(), AttrValue::string("bad"));
        auto s = inferCallSInfo(*call(info->scriptName(), args, std::move(attrs)), {});
        if (!s) {
          llvm::consumeError(s.takeError());
          ++errors;
        }
      }
    }
  }
  EXPECT_GT(errors, 0u);
  EXPECT_EQ(
      infer("split", {tensor({c(4)})}, {{"indices_or_sections", AttrValue::integer(1LL << 40)}}),
      "error: R.split expects a number of sections in [1, 65536], but got 1099511627776");
  EXPECT_EQ(infer("strided_slice",
                  {tensor({c(10)}), ints({0}), ints({9}), ints({-11}), ints({INT64_MIN})}),
            "R.Tensor((1,), dtype=\"float32\")");
}

TEST_F(OpInferTest, EveryOpHasInference) {
  for (const OpInfo *info : allOps()) {
    EXPECT_NE(info->infer, nullptr) << info->name;
    EXPECT_TRUE(llvm::StringRef(info->name).startswith("relax.")) << info->name;
  }
  EXPECT_GE(allOps().size(), 120u);
}

} // namespace

//===----------------------------------------------------------------------===//
// relax.inspect
//===----------------------------------------------------------------------===//

TEST_F(OpInferTest, InspectKnowsWhatTheStructInfoKnows) {
  Var a = tensor({n, c(3), c(4)});
  Expr zero = primValueInt(0), two = primValueInt(2);
  EXPECT_EQ(infer("inspect.tensor_dtype_code", {a}), "R.Prim(value=T.uint8(2))");
  EXPECT_EQ(infer("inspect.tensor_dtype_bits", {a}), "R.Prim(value=T.uint8(32))");
  EXPECT_EQ(infer("inspect.tensor_dtype_lanes", {a}), "R.Prim(value=T.uint16(1))");
  EXPECT_EQ(infer("inspect.tensor_ndim", {a}), "R.Prim(value=T.int32(3))");
  EXPECT_EQ(infer("inspect.tensor_shape_i", {a, zero}), "R.Prim(value=n)");
  EXPECT_EQ(infer("inspect.tensor_stride_i", {a, zero}), "R.Prim(value=12)");
  EXPECT_EQ(infer("inspect.tensor_stride_i", {a, two}), "R.Prim(value=1)");
  EXPECT_EQ(infer("inspect.tensor_byte_offset", {a}), "R.Prim(value=T.uint64(0))");
  EXPECT_EQ(infer("inspect.tensor_elem_offset", {a}), "R.Prim(value=T.uint64(0))");
  // TVM's bool is kDLBool (6) with 8 bits.
  Var b = tensor({c(2)}, boolT);
  EXPECT_EQ(infer("inspect.tensor_dtype_code", {b}), "R.Prim(value=T.uint8(6))");
  EXPECT_EQ(infer("inspect.tensor_dtype_bits", {b}), "R.Prim(value=T.uint8(8))");
}

TEST_F(OpInferTest, InspectLeavesUnknownFieldsToRunTime) {
  Var any = make<VarNode>("x", tensorSInfoNDim(-1, DataType()));
  Var axis = make<VarNode>("axis", primSInfo(i64t));
  EXPECT_EQ(infer("inspect.tensor_dtype_code", {any}), "R.Prim(\"uint8\")");
  EXPECT_EQ(infer("inspect.tensor_dtype_lanes", {any}), "R.Prim(\"uint16\")");
  EXPECT_EQ(infer("inspect.tensor_ndim", {any}), "R.Prim(\"int32\")");
  EXPECT_EQ(infer("inspect.tensor_shape_i", {tensor({c(2)}), axis}), "R.Prim(\"int64\")");
  EXPECT_EQ(infer("inspect.tensor_stride_i", {any, primValueInt(0)}), "R.Prim(\"int64\")");
  EXPECT_EQ(infer("inspect.tensor_byte_offset", {any}), "R.Prim(\"uint64\")");
}

TEST_F(OpInferTest, InspectErrors) {
  Var a = tensor({c(2), c(3)});
  EXPECT_EQ(infer("inspect.tensor_shape_i", {a, primValueInt(2)}),
            "error: R.inspect.tensor_shape_i reads shape[2] of a tensor with only 2 dimensions");
  EXPECT_EQ(infer("inspect.tensor_stride_i", {a, primValueInt(-1)}),
            "error: R.inspect.tensor_stride_i expects a non-negative axis, but got -1");
  EXPECT_EQ(infer("inspect.tensor_ndim", {make<VarNode>("s", shapeSInfoNDim(2))}),
            "error: R.inspect.tensor_ndim expects input tensor to be a R.Tensor, but got R.Shape");
  EXPECT_EQ(infer("inspect.tensor_shape_i", {a, a}),
            "error: R.inspect.tensor_shape_i expects arguments (tensor, axis), but the axis has "
            "struct info R.Tensor");
}

TEST_F(OpInferTest, InspectNormalizesAKnownValueToAPrimValue) {
  // TVM's FNormalize: BlockBuilder turns a call whose value is known into
  // that R.prim_value, and leaves one read at run time a call.
  BlockBuilder bb;
  auto known = bb.normalize(call("inspect.tensor_ndim", {tensor({c(2), c(3)})}));
  ASSERT_TRUE(static_cast<bool>(known)) << llvm::toString(known.takeError());
  const auto *pv = llvm::dyn_cast<PrimValueNode>(known->get());
  ASSERT_NE(pv, nullptr);
  EXPECT_EQ(asConstInt(pv->value.get()), llvm::Optional<int64_t>(2));
  auto unknown = bb.normalize(call("inspect.tensor_ndim", {tensorNDim(-1)}));
  ASSERT_TRUE(static_cast<bool>(unknown)) << llvm::toString(unknown.takeError());
  EXPECT_TRUE(llvm::isa<CallNode>(unknown->get()));
}
