//===- ir/HugePages.h - Transparent huge pages for large buffers -*- C++ -*-===//
//
// A buffer of tens of megabytes that is written once (the token array of a
// 200k-binding file, the printed text of a function) costs a page fault per
// 4 KiB on first touch; on virtual machines each fault is expensive (a fifth
// of `graft print`'s time went to them). Backing such a buffer with 2 MiB
// transparent huge pages turns 512 faults into one. Advice only: nothing
// changes where the kernel or platform does not support it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_HUGEPAGES_H
#define GRAFT_IR_HUGEPAGES_H

#include <cstddef>

namespace graft {

/// Asks for huge pages on the whole 2 MiB pages inside [data, data + bytes).
/// Call it before the buffer is first written.
void adviseHugePages(void *data, size_t bytes);

} // namespace graft

#endif // GRAFT_IR_HUGEPAGES_H
