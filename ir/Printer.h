//===- ir/Printer.h - IR to TVMScript Relax text ----------------*- C++ -*-===//
//
// Prints text that TVM v0.23 parses to a structurally equal module, in the
// style of TVM's printer (every binding annotated, R.prim_value/R.str/R.dtype
// explicit, every op attr printed in field order). Printing is a fixpoint:
// print(parse(print(m))) == print(m), byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_PRINTER_H
#define GRAFT_IR_PRINTER_H

#include "ir/Module.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace graft {

struct PrintOptions {
  /// Marks one binding (verifier and pass-failure reports): its line gets a
  /// `# <-- here` suffix... see Printer.cpp for the exact form.
  const BindingNode *highlight = nullptr;
  /// Prints the `# from tvm.script import ...` header.
  bool header = true;
};

void printModule(llvm::raw_ostream &os, const IRModule &module, const PrintOptions &opts = {});
std::string printModule(const IRModule &module, const PrintOptions &opts = {});

/// Prints one function as a standalone `@R.function` (in the context of
/// `module` for `cls.` references).
void printFunction(llvm::raw_ostream &os, const FunctionNode &fn, llvm::StringRef name,
                   const IRModule *module, const PrintOptions &opts = {});

/// The body of a PrimFunc graft generates (heapStores or computed) as TVM
/// v0.23 prints it, at `indent` levels; false (nothing printed) otherwise.
bool printGeneratedPrimFuncBody(llvm::raw_ostream &os, const PrimFuncNode &pf, unsigned indent);

/// Short forms for diagnostics and mismatch reports.
std::string printStructInfo(const StructInfoNode *s);
std::string printExpr(const ExprNode *e);

} // namespace graft

#endif // GRAFT_IR_PRINTER_H
