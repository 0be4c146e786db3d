//===- vm/Serialize.h - The executable file format -------------*- C++ -*-===//
//
// A versioned, checksummed, little-endian binary format (byte-by-byte layout
// in docs/runtime.md, "File format"). The loader trusts nothing: every
// count is checked against the bytes that remain before anything is
// allocated, every index and offset is validated (Executable::verify), and
// any damage is an llvm::Error naming what is wrong and where.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_SERIALIZE_H
#define GRAFT_VM_SERIALIZE_H

#include "vm/Executable.h"

#include <memory>
#include <string>

namespace graft::vm {

inline constexpr char kExecMagic[8] = {'G', 'R', 'A', 'F', 'T', 'E', 'X', 'E'};
inline constexpr uint32_t kExecVersion = 2;
inline constexpr size_t kExecHeaderBytes = 32;
/// Header flag bit 0: built for the CUDA target (Executable::target).
inline constexpr uint32_t kHeaderFlagCUDA = 1;

enum class SectionId : uint32_t {
  Functions = 1,
  Constants = 2,
  Code = 3,
  Params = 4,
  KernelSources = 5,
};

struct LoadOptions {
  /// Off only for fuzzing, so that mutated files reach the section parsers.
  bool verifyChecksum = true;
};

/// FNV-1a, 64 bits.
uint64_t fnv1a64(llvm::StringRef bytes);

std::string saveToBytes(const Executable &exe);
llvm::Error saveToFile(const Executable &exe, llvm::StringRef path);

llvm::Expected<std::unique_ptr<Executable>> loadFromBytes(llvm::StringRef bytes,
                                                          LoadOptions options = {});
llvm::Expected<std::unique_ptr<Executable>> loadFromFile(llvm::StringRef path,
                                                         LoadOptions options = {});

} // namespace graft::vm

#endif // GRAFT_VM_SERIALIZE_H
