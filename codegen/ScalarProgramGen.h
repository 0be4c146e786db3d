//===- codegen/ScalarProgramGen.h - Generated PrimFuncs as scalar programs -*- C++ -*-===//
//
// The host PrimFuncs graft's passes generate keep the PrimExprs they compute
// (PrimFuncNode::heapStores for vm-shape-lower's shape_func,
// PrimFuncNode::computed for compute-prim-value's compute_symbolic_expr).
// They become scalar programs (vm/ScalarProgram.h) in the executable's
// kernel sources; a PrimFunc with a hand-written TIR body cannot run.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_SCALARPROGRAMGEN_H
#define GRAFT_CODEGEN_SCALARPROGRAMGEN_H

#include "ir/Module.h"

#include "llvm/Support/Error.h"

namespace graft::codegen {

/// Whether `f` is a PrimFunc graft generated (it computes PrimExprs).
bool isGeneratedPrimFunc(const PrimFuncNode &f);

/// The scalar-program text of a generated PrimFunc.
llvm::Expected<std::string> scalarProgramText(const PrimFuncNode &f, llvm::StringRef name);

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_SCALARPROGRAMGEN_H
