//===- vm/Npy.h - Reading and writing NumPy .npy files --------------------===//
//
// `graft run` reads inputs from and writes outputs to .npy files. Formats
// 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 when the header needs
// it). dtypes: bool `|b1`, `|i1`, `<i2`, `<i4`, `<i8`, `|u1`, `<f2`, `<f4`,
// `<f8` (big-endian `>` forms are read and byte-swapped). bfloat16, which
// NumPy lacks, is a graft extension written with the structured descr
// `[('bfloat16', '<u2')]`: NumPy itself loads such a file as a one-field
// record array of the raw bits (`a['bfloat16']` is the uint16 view).
// Fortran-order files are transposed to C order on read. Every malformed
// header or truncated payload is an llvm::Error; no size is trusted before
// it is checked against the bytes actually present.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_NPY_H
#define GRAFT_VM_NPY_H

#include <dlpack/dlpack.h>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graft::vm {

/// A host tensor read from a .npy file: dense, row-major.
struct NpyArray {
  DLDataType dtype{};
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numel() const;
  /// A DLTensor over this array (valid while the array lives unchanged).
  DLTensor view();
};

/// Parses the bytes of a .npy file.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes);
/// Reads a .npy file.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Encodes a host tensor (any strides and byte_offset) as .npy bytes.
llvm::Expected<std::string> encodeNpy(const DLTensor &t);
/// Writes a host tensor to a .npy file.
llvm::Error writeNpy(llvm::StringRef path, const DLTensor &t);

} // namespace graft::vm

#endif // GRAFT_VM_NPY_H
