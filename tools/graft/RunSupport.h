//===- tools/graft/RunSupport.h - Inputs and outputs of graft run -*- C++ -*-===//
#ifndef GRAFT_TOOLS_RUNSUPPORT_H
#define GRAFT_TOOLS_RUNSUPPORT_H

#include "Driver.h"

#include "vm/VM.h"

namespace graft::driver {

/// One value per parameter of `fn`, from --input files and (with --random)
/// seeded random data. Every error names the parameter; the caller exits 2
/// before any bytecode runs.
llvm::Expected<std::vector<vm::Value>> prepareInputs(const vm::FuncInfo &fn, const RunArgs &args);

/// Writes `result` under `dir`: output.npy, or output_0.npy, output_1.npy,
/// ... for a tuple (nested: output_1_0.npy).
llvm::Error writeOutputs(const vm::Value &result, llvm::StringRef dir);
/// One line per output: name, dtype, shape and the first values.
void printOutputs(const vm::Value &result, llvm::raw_ostream &os);

/// The --profile table, heaviest first.
void printProfile(llvm::ArrayRef<vm::ProfileEntry> entries, unsigned runs, llvm::raw_ostream &os);
/// The --dump kernel table: every packed function and what runs it.
void printKernelTable(const vm::Executable &exe, llvm::raw_ostream &os);

} // namespace graft::driver

#endif // GRAFT_TOOLS_RUNSUPPORT_H
