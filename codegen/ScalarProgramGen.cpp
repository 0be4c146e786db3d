//===- codegen/ScalarProgramGen.cpp - Generated PrimFuncs as scalar programs ===//

#include "codegen/ScalarProgramGen.h"

#include "vm/ScalarProgram.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::codegen;

bool codegen::isGeneratedPrimFunc(const PrimFuncNode &f) {
  return f.computed || !f.heapStores.empty();
}

namespace {

llvm::StringRef binaryName(PrimOp op) {
  switch (op) {
  case PrimOp::Add:
    return "add";
  case PrimOp::Sub:
    return "sub";
  case PrimOp::Mul:
    return "mul";
  case PrimOp::FloorDiv:
    return "floordiv";
  case PrimOp::FloorMod:
    return "floormod";
  case PrimOp::Min:
    return "min";
  case PrimOp::Max:
    return "max";
  case PrimOp::EQ:
    return "eq";
  case PrimOp::NE:
    return "ne";
  case PrimOp::LT:
    return "lt";
  case PrimOp::LE:
    return "le";
  case PrimOp::GT:
    return "gt";
  case PrimOp::GE:
    return "ge";
  case PrimOp::And:
    return "and";
  case PrimOp::Or:
    return "or";
  }
  return "?";
}

/// Writes PrimExprs in postfix order; vars are heap loads or arguments.
class PostfixWriter {
public:
  PostfixWriter(llvm::raw_ostream &os, llvm::StringRef fn) : os_(os), fn_(fn) {}

  void bindVar(const TirVarNode *v, std::string instr) { vars_[v] = std::move(instr); }
  void bindName(llvm::StringRef name, std::string instr) { names_[name] = std::move(instr); }

  llvm::Error write(const PrimExprNode *root) {
    // Post-order with an explicit stack: expression depth is input-controlled.
    llvm::SmallVector<std::pair<const PrimExprNode *, bool>, 16> work{{root, false}};
    while (!work.empty()) {
      auto [e, expanded] = work.pop_back_val();
      if (expanded) {
        emitOp(e);
        continue;
      }
      if (auto err = leafOrExpand(e, work))
        return err;
    }
    return llvm::Error::success();
  }

private:
  llvm::Error leafOrExpand(const PrimExprNode *e,
                           llvm::SmallVectorImpl<std::pair<const PrimExprNode *, bool>> &work) {
    if (const auto *i = llvm::dyn_cast<IntImmNode>(e)) {
      os_ << "int " << i->value << "\n";
    } else if (const auto *f = llvm::dyn_cast<FloatImmNode>(e)) {
      os_ << "float " << llvm::format("%.17g", f->value) << "\n";
    } else if (const auto *v = llvm::dyn_cast<TirVarNode>(e)) {
      return writeVar(v);
    } else {
      work.push_back({e, true});
      if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e)) {
        work.push_back({b->b.get(), false});
        work.push_back({b->a.get(), false});
      } else if (const auto *n = llvm::dyn_cast<PrimNotNode>(e)) {
        work.push_back({n->a.get(), false});
      } else if (const auto *c = llvm::dyn_cast<PrimCastNode>(e)) {
        work.push_back({c->value.get(), false});
      } else if (const auto *s = llvm::dyn_cast<PrimSelectNode>(e)) {
        work.push_back({s->falseValue.get(), false});
        work.push_back({s->trueValue.get(), false});
        work.push_back({s->cond.get(), false});
      }
    }
    return llvm::Error::success();
  }

  llvm::Error writeVar(const TirVarNode *v) {
    auto it = vars_.find(v);
    if (it != vars_.end()) {
      os_ << it->second << "\n";
      return llvm::Error::success();
    }
    auto byName = names_.find(v->name);
    if (byName != names_.end()) {
      os_ << byName->second << "\n";
      return llvm::Error::success();
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "codegen: PrimFunc '" + fn_ + "' reads var '" + v->name +
                                       "', which is neither a parameter nor a heap load");
  }

  void emitOp(const PrimExprNode *e) {
    if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e))
      os_ << binaryName(b->op) << "\n";
    else if (llvm::isa<PrimNotNode>(e))
      os_ << "not\n";
    else if (llvm::isa<PrimSelectNode>(e))
      os_ << "select\n";
    else
      os_ << "cast " << e->dtype.str() << "\n";
  }

  llvm::raw_ostream &os_;
  std::string fn_;
  llvm::DenseMap<const TirVarNode *, std::string> vars_;
  llvm::StringMap<std::string> names_;
};

} // namespace

llvm::Expected<std::string> codegen::scalarProgramText(const PrimFuncNode &f,
                                                       llvm::StringRef name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << vm::kScalarProgramHeader << "\n";
  PostfixWriter writer(os, name);
  if (!f.heapStores.empty()) {
    os << "params heap\n";
    for (const auto &[slot, var] : f.heapLoads)
      writer.bindVar(var.get(), "load " + std::to_string(slot));
    for (const auto &[slot, value] : f.heapStores) {
      if (auto err = writer.write(value.get()))
        return err;
      os << "store " << slot << "\n";
    }
    return os.str();
  }
  // compute_symbolic_expr: the computed value's vars are named after the
  // scalar params.
  os << "params " << f.params.size() << "\n";
  for (size_t i = 0; i < f.params.size(); ++i)
    writer.bindName(f.params[i].name, "arg " + std::to_string(i));
  if (auto err = writer.write(f.computed.get()))
    return err;
  DataType ret = f.retType.isVoid() ? f.computed->dtype : f.retType;
  os << "ret " << ret.str() << "\n";
  return os.str();
}
