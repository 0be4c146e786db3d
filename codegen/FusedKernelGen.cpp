//===- codegen/FusedKernelGen.cpp - Primitive functions to kernel programs -===//

#include "codegen/FusedKernelGen.h"

#include "pass/Pass.h"
#include "transforms/FusedOps.h"

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
  std::string text = "fused 2\n";
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
  std::vector<FusedOpForm> forms;
  for (const BindingBlock &block : fn.body->blocks)
    for (const Binding &b : block->bindings) {
      const auto *call = llvm::dyn_cast<CallNode>(b->value.get());
      llvm::Optional<FusedOpForm> form = call && llvm::isa<VarBindingNode>(b.get())
                                             ? fusedOpForm(*call, b->var->sinfo.get())
                                             : llvm::None;
      if (!form)
        return genError(name, "binding '" + b->var->name + "'" +
                                  (call && call->opInfo()
                                       ? " (R." + call->opInfo()->scriptName().str() + ")"
                                       : std::string()) +
                                  " is not an op call a fused kernel can hold (docs/fusion.md)");
      bindings.push_back(b.get());
      forms.push_back(std::move(*form));
    }
  // Immediates come before the op lines.
  for (const FusedOpForm &form : forms)
    for (const ExprNode *arg : form.operands)
      if (const auto *c = llvm::dyn_cast<ConstantNode>(arg); c && !reg.count(c)) {
        llvm::Expected<std::string> value = immediate(*c, name);
        if (!value)
          return value.takeError();
        reg[c] = next;
        os << "const %" << next++ << ' ' << c->data->dtype.str() << ' ' << *value << '\n';
      }
  for (size_t i = 0; i < bindings.size(); ++i) {
    const BindingNode *b = bindings[i];
    const FusedOpForm &form = forms[i];
    os << '%' << next << " = " << form.op << ' ' << knownTensor(b->var.get())->dtype.str();
    llvm::SmallVector<unsigned, 3> operands;
    for (const ExprNode *arg : form.operands) {
      auto it = reg.find(arg);
      if (it == reg.end())
        return genError(name, "binding '" + b->var->name + "' reads a value that is neither a " +
                                  "parameter, an earlier binding nor a constant");
      operands.push_back(it->second);
      os << " %" << it->second;
    }
    for (const auto &[key, value] : form.attrs)
      os << ' ' << key << '=' << value;
    if (form.hasShape) {
      os << " shape=";
      for (size_t d = 0; d < form.shape.size(); ++d) {
        const FusedDim &dim = form.shape[d];
        os << (d ? "," : "");
        if (dim.kind == FusedDim::Fixed)
          os << dim.value;
        else if (dim.kind == FusedDim::Infer)
          os << '?';
        else
          os << '%' << operands[0] << '.' << dim.value;
      }
    }
    os << '\n';
    reg[b->var.get()] = next++;
  }
  // The result: one binding's var, or a tuple of them (several outputs).
  llvm::SmallVector<const ExprNode *, 4> results;
  if (const auto *tuple = llvm::dyn_cast<TupleNode>(fn.body->body.get())) {
    for (const Expr &f : tuple->fields)
      results.push_back(f.get());
  } else {
    results.push_back(fn.body->body.get());
  }
  for (const ExprNode *r : results) {
    auto it = reg.find(r);
    if (it == reg.end() || it->second < fn.params.size())
      return genError(name, "a result is not a binding of the function");
    os << "output %" << it->second << '\n';
  }
  os.flush();
  // The evaluator's parser checks op names, attributes and dtype rules.
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
