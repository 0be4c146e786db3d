//===- transforms/LowerAllocTensor.cpp - builtin.alloc_tensor to storage ----===//
//
// `lower-alloc-tensor` (TVM's LowerAllocTensor, TVM `src/relax/transform/lower_alloc_tensor.cc` and
// its v0.23 delta): each allocation that memory planning left as `R.builtin.alloc_tensor(shape,
// dtype, dev, scope)` becomes its own storage and a tensor in it:
//   storage = R.memory.alloc_storage(R.shape([nbytes]), dev, scope, "uint8")
//   x = R.memory.alloc_tensor(storage, 0, shape, dtype, dev)
// nbytes is `(bits + 7) / 8` multiplied by each dim left to right, folding
// only constant-by-constant products, as TVM's operators do (`2048`,
// `4 * m * n`).
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

static constexpr const char *kPassName = "lower-alloc-tensor";

namespace {

/// `a * b`, folded when both are constants.
PrimExpr mulFold(const PrimExpr &a, const PrimExpr &b) {
  llvm::Optional<int64_t> ca = asConstInt(a.get()), cb = asConstInt(b.get());
  if (ca && cb)
    return intImm(*ca * *cb);
  return primBinary(PrimOp::Mul, a, b);
}

class AllocLowerer : public ExprMutator {
public:
  explicit AllocLowerer(const IRModule *module) : ExprMutator(module) {}

  int64_t lowered = 0;

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteCall(call);
    if (!out)
      return out;
    const CallNode *c = asCallTo(out->get(), ops::builtinAllocTensor());
    if (!c || c->args.size() != 4)
      return out;
    const std::vector<PrimExpr> *dims = shapeDims(*c);
    const auto *dtype = llvm::dyn_cast<DataTypeImmNode>(c->args[1].get());
    if (!dims || !dtype)
      return diagError(call->loc, "R.builtin.alloc_tensor needs a known shape and dtype to be "
                                  "lowered to a storage");
    PrimExpr nbytes = intImm((dtype->value.bits + 7) / 8);
    for (const PrimExpr &d : *dims)
      nbytes = mulFold(nbytes, d);
    Expr storageCall = make<CallNode>(ops::memAllocStorage(),
                                      std::vector<Expr>{shapeExpr({nbytes}), c->args[2], c->args[3],
                                                        dataTypeImm(DataType(DataType::UInt, 8))});
    llvm::Expected<Var> storage = builder_.emit(std::move(storageCall), "storage", call->loc);
    if (!storage)
      return storage.takeError();
    ++lowered;
    Expr tensor = makeAt<CallNode>(
        call->loc, ops::memAllocTensor(),
        std::vector<Expr>{*storage, primValueInt(0), c->args[0], c->args[1], c->args[2]});
    return builder_.normalize(std::move(tensor));
  }

private:
  /// The dims written in the shape argument, else those of the result's
  /// struct info.
  static const std::vector<PrimExpr> *shapeDims(const CallNode &c) {
    if (const auto *s = llvm::dyn_cast<ShapeExprNode>(c.args[0].get()))
      return &s->values;
    if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(c.sinfo.get()))
      return t->shapeValues();
    return nullptr;
  }
};

class LowerAllocTensorPass : public FunctionPass {
public:
  LowerAllocTensorPass() : FunctionPass(kPassName) {}

  PassStatistic allocs{this, "allocs", "R.builtin.alloc_tensor calls lowered"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    AllocLowerer lowerer(&module());
    llvm::Expected<Function> out = lowerer.rewriteFunction(fn);
    if (out && lowerer.lowered)
      allocs += lowerer.lowered;
    return out;
  }
};

} // namespace

void graft::registerLowerAllocTensorPass() {
  PassInfo info;
  info.alias = "LowerAllocTensor";
  info.summary = "Lowers each remaining R.builtin.alloc_tensor to its own memory.alloc_storage "
                 "and memory.alloc_tensor";
  info.preconditions = "none (allocations are pure)";
  registerPass<LowerAllocTensorPass>(std::move(info));
}
