//===- analysis/WellFormedCallTIR.h - call_tir against its PrimFunc -*- C++ -*-===//
//
// The FValidate rule of docs/verifier.md (rule 25) for R.call_tir,
// R.call_tir_inplace and R.call_tir_with_grad: the argument count, and each
// argument's and output's ndim, dtype and shape must agree with the buffers
// of the PrimFunc the call names. Private to the verifier.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_WELLFORMEDCALLTIR_H
#define GRAFT_ANALYSIS_WELLFORMEDCALLTIR_H

#include "ir/Module.h"
#include "ir/Op.h"

#include <string>

namespace graft {

/// The ops whose calls checkCallTIR validates (the verifier does not run
/// their registry FValidate as well).
bool isCallTIRFamily(const OpInfo *info);

/// Empty when the call agrees with its PrimFunc, or when the callee is not a
/// PrimFunc of `module` (another rule reports an unknown GlobalVar); else
/// the first disagreement, e.g. "call_tir argument 0 has shape (3,) but
/// PrimFunc 'add' expects (4,)".
std::string checkCallTIR(const CallNode &call, const IRModule &module);

} // namespace graft

#endif // GRAFT_ANALYSIS_WELLFORMEDCALLTIR_H
