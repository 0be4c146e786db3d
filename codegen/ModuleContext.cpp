//===- codegen/ModuleContext.cpp - What function code generators share ----===//

#include "codegen/ModuleContext.h"

#include "codegen/ScalarProgramGen.h"
#include "ir/Diagnostics.h"

using namespace graft;
using namespace graft::codegen;

std::string ModuleContext::functionName(const ModuleEntry &entry) {
  const FunctionNode *fn = entry.asFunction();
  llvm::StringRef symbol = fn ? fn->globalSymbol() : llvm::StringRef();
  return symbol.empty() ? entry.gvar->name : symbol.str();
}

/// A PrimFunc's symbol: its global_symbol attribute, else its name.
static std::string primFuncSymbol(const ModuleEntry &entry, const PrimFuncNode &pf) {
  if (pf.attrs)
    if (const AttrValue *s = pf.attrs->lookup("global_symbol"))
      if (s->kind() == AttrValue::Kind::String)
        return s->getString();
  return entry.gvar->name;
}

llvm::Expected<vm::Arg> ModuleContext::primFuncArg(const ModuleEntry &entry, llvm::SMLoc loc) {
  const PrimFuncNode &pf = *entry.asPrimFunc();
  if (!isGeneratedPrimFunc(pf))
    return diagError(loc, "codegen: PrimFunc '" + entry.gvar->name +
                              "' has a hand-written TIR body, which graft cannot compile; call a "
                              "kernel of graft's library instead (docs/kernels.md)");
  std::string symbol = primFuncSymbol(entry, pf);
  if (programs_.insert(symbol).second) {
    auto text = scalarProgramText(pf, symbol);
    if (!text)
      return text.takeError();
    builder.addKernelSource(symbol, std::move(*text));
  }
  return builder.functionArg(symbol, vm::FuncKind::Packed);
}

llvm::Expected<vm::Arg> ModuleContext::globalArg(const GlobalVarNode &gv, llvm::SMLoc loc) {
  const ModuleEntry *entry = module.lookup(gv.name);
  if (!entry)
    return diagError(loc, "codegen: function '" + gv.name + "' is not in the module");
  if (entry->asFunction())
    return builder.functionArg(functionName(*entry), vm::FuncKind::VM);
  if (const ExternFuncNode *ext = entry->asExtern())
    return builder.functionArg(ext->symbol, vm::FuncKind::Packed);
  return primFuncArg(*entry, loc);
}
