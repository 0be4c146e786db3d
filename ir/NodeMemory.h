//===- ir/NodeMemory.h - Header-free node memory in creation order -*- C++ -*-===//
//
// The walks over a 200k-binding function read every node once, so their time
// follows the bytes the function occupies and how they are laid out. With one
// malloc block per node, a binding (binding, call, var) took 208 bytes: 8 of
// malloc's header per block and rounding to 16. Node memory comes instead
// from chunks of kNodeChunkBytes, handed out by bumping a pointer: no header,
// 8-byte rounding, and the nodes of a parsed function lie in the order they
// were made, a binding's nodes next to each other (176 bytes for the
// benchmark's binding).
//
// A chunk counts the nodes in it that are alive; when the last one dies the
// whole chunk is given back (to a small per-thread cache, then to a shared
// pool of the 2 MiB slabs chunks are cut from; ir/NodeMemory.cpp). A freed
// node's bytes are not reused before that, so memory is reclaimed per chunk,
// not per node: one long-lived node keeps its chunk (32 KiB). Nodes may die
// on another thread than the one that made them (the count is atomic); each
// thread bumps into its own chunk.
//
// Under AddressSanitizer chunks come from malloc (LeakSanitizer scans them)
// and the bytes of a chunk that no live node holds are poisoned, so a read
// through a dangling Ref is still reported.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_NODEMEMORY_H
#define GRAFT_IR_NODEMEMORY_H

#include <cstddef>

namespace graft {

/// Chunk size; a power of two (a node finds its chunk by alignment).
inline constexpr size_t kNodeChunkBytes = size_t(1) << 15;
/// Alignment of every node's memory.
inline constexpr size_t kNodeAlign = 8;

/// Memory for one node of `bytes` (its tail included), aligned to
/// kNodeAlign. Never null (allocation failure throws std::bad_alloc).
void *allocateNodeMemory(size_t bytes);
/// Bytes of the chunks that hold nodes or wait, empty, in a thread's
/// cache: what the nodes occupy, for benchmarks (malloc's statistics no
/// longer see it). 0 where chunks come from malloc (sanitizer builds).
size_t nodeMemoryHeld();
/// Gives back the memory of a node of `bytes` whose destructor has run.
void freeNodeMemory(void *node, size_t bytes);

} // namespace graft

#endif // GRAFT_IR_NODEMEMORY_H
