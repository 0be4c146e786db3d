//===- transforms/UseDefInfo.h - Old name of BindingFacts -------*- C++ -*-===//
//
// transforms/BindingFacts.h was first published under this name, and
// kill-after-last-use includes it. The struct was renamed because
// analysis/UseDef.h defines a different `graft::UseDefInfo` (two class
// definitions of one name across libraries break the one-definition rule).
// This alias keeps the old spelling compiling; new code should include
// BindingFacts.h. A translation unit cannot include both this header and
// analysis/UseDef.h.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_USEDEFINFO_H
#define GRAFT_TRANSFORMS_USEDEFINFO_H

#include "transforms/BindingFacts.h"

namespace graft {
using UseDefInfo = BindingFacts;
} // namespace graft

#endif // GRAFT_TRANSFORMS_USEDEFINFO_H
