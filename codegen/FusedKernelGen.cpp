//===- codegen/FusedKernelGen.cpp - Primitive functions to kernel programs -===//

#include "codegen/FusedKernelGen.h"

#include "pass/Pass.h"

#include "ir/AttrKeys.h"
#include "ir/Op.h"

#include "kernels/FusedKernel.h"
#include "kernels/cpu/TensorIter.h"
#include "vm/ExecBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace graft;

namespace {

llvm::Error genError(llvm::StringRef name, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "fused kernel '" + name + "': " + msg);
}

const TensorSInfoNode *knownTensor(const ExprNode *e) {
  const auto *t = e ? llvm::dyn_cast_or_null<TensorSInfoNode>(e->sinfo.get()) : nullptr;
  return t && !t->dtype.isVoid() && t->ndim >= 0 ? t : nullptr;
}

/// A rank-0 constant's value as the program writes it: floats as exact
/// hex floats, integers and bool in decimal.
llvm::Expected<std::string> immediate(const ConstantNode &c, llvm::StringRef name) {
  const TensorData &d = *c.data;
  DataType t = d.dtype;
  if (!d.shape.empty() || d.bytes.size() < t.storageBytes())
    return genError(name, "a constant of rank " + llvm::Twine(d.shape.size()) +
                              " cannot be an immediate");
  const uint8_t *p = d.bytes.data();
  std::string out;
  llvm::raw_string_ostream os(out);
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (t.isBool()) {
    os << (p[0] ? 1 : 0);
  } else if (t.code == DataType::Float && t.bits == 32) {
    os << llvm::format("%a", double(load(float())));
  } else if (t.code == DataType::Float && t.bits == 64) {
    os << llvm::format("%a", load(double()));
  } else if (t.code == DataType::Float && t.bits == 16) {
    os << llvm::format("%a", double(kernels::cpu::halfToFloat(load(uint16_t()))));
  } else if (t.code == DataType::BFloat && t.bits == 16) {
    os << llvm::format("%a", double(kernels::cpu::bf16ToFloat(load(uint16_t()))));
  } else if (t.isInt() && t.bits <= 64) {
    int64_t v = 0;
    std::memcpy(&v, p, t.storageBytes());
    os << (v << (64 - t.bits) >> (64 - t.bits)); // Sign-extend.
  } else if (t.isUInt() && t.bits <= 64) {
    uint64_t v = 0;
    std::memcpy(&v, p, t.storageBytes());
    os << v;
  } else {
    return genError(name, "a constant of dtype " + t.str() + " cannot be an immediate");
  }
  return out;
}

} // namespace

llvm::Expected<std::string> graft::fusedKernelProgram(const FunctionNode &fn,
                                                      llvm::StringRef name) {
  llvm::DenseMap<const ExprNode *, unsigned> reg;
  std::string text = "fused 1\n";
  llvm::raw_string_ostream os(text);
  unsigned next = 0;
  for (const Var &p : fn.params) {
    const TensorSInfoNode *t = knownTensor(p.get());
    if (!t)
      return genError(name, "parameter '" + p->name + "' is not a tensor of known dtype and rank");
    reg[p.get()] = next;
    os << "input %" << next++ << ' ' << t->dtype.str() << ' ' << t->ndim << '\n';
  }
  std::vector<const BindingNode *> bindings;
  for (const BindingBlock &block : fn.body->blocks)
    for (const Binding &b : block->bindings)
      bindings.push_back(b.get());
  // Immediates come before the op lines.
  for (const BindingNode *b : bindings)
    if (const auto *call = llvm::dyn_cast<CallNode>(b->value.get()))
      for (const Expr &arg : call->args)
        if (const auto *c = llvm::dyn_cast<ConstantNode>(arg.get()); c && !reg.count(c)) {
          llvm::Expected<std::string> value = immediate(*c, name);
          if (!value)
            return value.takeError();
          reg[c] = next;
          os << "const %" << next++ << ' ' << c->data->dtype.str() << ' ' << *value << '\n';
        }
  for (const BindingNode *b : bindings) {
    const auto *call = llvm::dyn_cast<CallNode>(b->value.get());
    const OpInfo *info = call ? call->opInfo() : nullptr;
    const TensorSInfoNode *t = knownTensor(b->var.get());
    if (!llvm::isa<VarBindingNode>(b) || !info || !t)
      return genError(name, "binding '" + b->var->name +
                                "' is not an op call with a tensor result of known dtype");
    os << '%' << next << " = " << info->scriptName() << ' ' << t->dtype.str();
    for (const Expr &arg : call->args) {
      auto it = reg.find(arg.get());
      if (it == reg.end())
        return genError(name, "binding '" + b->var->name + "' reads a value that is neither a " +
                                  "parameter, an earlier binding nor a constant");
      os << " %" << it->second;
    }
    os << '\n';
    reg[b->var.get()] = next++;
  }
  if (bindings.empty() || fn.body->body.get() != bindings.back()->var.get())
    return genError(name, "the result is not the last binding");
  os << "output %" << next - 1 << '\n';
  os.flush();
  // The evaluator's parser checks op names and dtype rules.
  auto program = kernels::parseFusedProgram(text);
  if (!program)
    return genError(name, llvm::toString(program.takeError()));
  return text;
}

llvm::Error graft::addFusedKernelSources(const IRModule &module, vm::ExecBuilder &builder) {
  for (const ModuleEntry &entry : module.entries()) {
    const FunctionNode *fn = entry.asFunction();
    if (!fn || !isPrimitiveFunction(*fn))
      continue;
    llvm::Expected<std::string> text = fusedKernelProgram(*fn, entry.gvar->name);
    if (!text)
      return text.takeError();
    builder.addKernelSource(fusedKernelSymbol(entry.gvar->name), std::move(*text));
  }
  return llvm::Error::success();
}
