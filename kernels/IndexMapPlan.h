//===- kernels/IndexMapPlan.h - layout_transform's index map as a plan -*- C++ -*-===//
//
// The index map of `R.layout_transform` reaches graft.layout_transform as an
// int list attribute: the map's output indices as postfix programs over its
// input indices (legalize-ops writes it from ir/IndexMap.h's
// indexMapProgram; tests/abi checks that both sides agree):
//
//   [numInputs, numOutputs, tokens...]
//
// where the tokens of each output index end with kEnd, kVar and kConst take
// the next slot as operand (the input's position, the constant), and the
// arithmetic tokens pop two values and push one. Layout maps are affine in
// the input indices with `//` and `%` by constants (NCHW -> NCHW4c is
// `(n, c // 4, h, w, c % 4)`), so a divisor must be a positive constant.
//
// decodePlan checks a program once on the host (operands, stack depth,
// divisors) into an IndexMapPlan; applyPlan then runs it for every element
// with no further checks. Plain C++17 without LLVM or exceptions, so the CPU
// kernel and the CUDA kernel (on the device) share it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_INDEXMAPPLAN_H
#define GRAFT_KERNELS_INDEXMAPPLAN_H

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef GRAFT_HD
#ifdef __CUDACC__
#define GRAFT_HD __host__ __device__
#else
#define GRAFT_HD
#endif
#endif

namespace graft::kernels::indexmap {

/// Token codes; ir/IndexMap.cpp writes the same numbers.
enum Token : int64_t {
  kEnd = 0,
  kVar = 1,
  kConst = 2,
  kAdd = 3,
  kSub = 4,
  kMul = 5,
  kFloorDiv = 6,
  kFloorMod = 7,
};

constexpr int kMaxRank = 8;   ///< Inputs and outputs of the map (CUDA's kMaxDims).
constexpr int kMaxCode = 128; ///< Slots of all programs together.
constexpr int kMaxStack = 16; ///< Values a program holds at once.

/// A checked program: `code` holds the tokens (with their operands) after
/// the two header slots.
struct IndexMapPlan {
  int numIn = 0, numOut = 0, len = 0;
  int64_t code[kMaxCode] = {};
};

/// Reads `program` (`n` slots) into `plan`; "" on success, else why the
/// program is not one the kernels run.
inline std::string decodePlan(const int64_t *program, size_t n, IndexMapPlan &plan) {
  if (n < 2)
    return "the index map program has no header";
  if (program[0] < 0 || program[0] > kMaxRank || program[1] < 0 || program[1] > kMaxRank)
    return "the index map has " + std::to_string(program[0]) + " inputs and " +
           std::to_string(program[1]) + " outputs; the kernel takes at most " +
           std::to_string(kMaxRank) + " of each";
  if (n - 2 > size_t(kMaxCode))
    return "the index map program has " + std::to_string(n - 2) +
           " slots; the kernel takes at most " + std::to_string(kMaxCode);
  plan.numIn = int(program[0]);
  plan.numOut = int(program[1]);
  plan.len = int(n - 2);
  const int64_t *code = program + 2;
  int outputs = 0, depth = 0;
  bool constDivisor = false; // The last token pushed a positive constant.
  for (int i = 0; i < plan.len; ++i) {
    int64_t t = code[i];
    plan.code[i] = t;
    switch (t) {
    case kVar:
    case kConst:
      if (i + 1 >= plan.len)
        return "the index map program ends inside a token";
      if (t == kVar && (code[i + 1] < 0 || code[i + 1] >= plan.numIn))
        return "the index map reads input index " + std::to_string(code[i + 1]) + " of " +
               std::to_string(plan.numIn);
      plan.code[i + 1] = code[i + 1];
      constDivisor = t == kConst && code[i + 1] > 0;
      ++i;
      if (++depth > kMaxStack)
        return "the index map needs more than " + std::to_string(kMaxStack) + " stack slots";
      break;
    case kAdd:
    case kSub:
    case kMul:
    case kFloorDiv:
    case kFloorMod:
      if (depth < 2)
        return "the index map program pops an empty stack";
      // The divisor is the constant pushed just before.
      if ((t == kFloorDiv || t == kFloorMod) && !constDivisor)
        return "the index map divides by something other than a positive constant";
      constDivisor = false;
      --depth;
      break;
    case kEnd:
      if (depth != 1)
        return "an index of the index map program leaves " + std::to_string(depth) +
               " values instead of 1";
      depth = 0;
      constDivisor = false;
      ++outputs;
      break;
    default:
      return "the index map program has an unknown token " + std::to_string(t);
    }
  }
  if (outputs != plan.numOut || depth != 0)
    return "the index map program has " + std::to_string(outputs) + " complete indices, not " +
           std::to_string(plan.numOut);
  return "";
}

GRAFT_HD inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// The output indices of input index `in` (numIn values) into `out`
/// (numOut values).
GRAFT_HD inline void applyPlan(const IndexMapPlan &p, const int64_t *in, int64_t *out) {
  int64_t stack[kMaxStack];
  int sp = 0, o = 0;
  for (int i = 0; i < p.len; ++i) {
    int64_t t = p.code[i];
    if (t == kVar) {
      stack[sp++] = in[p.code[++i]];
      continue;
    }
    if (t == kConst) {
      stack[sp++] = p.code[++i];
      continue;
    }
    if (t == kEnd) {
      out[o++] = stack[--sp];
      continue;
    }
    int64_t b = stack[--sp], a = stack[sp - 1], r;
    switch (t) {
    case kAdd:
      r = a + b;
      break;
    case kSub:
      r = a - b;
      break;
    case kMul:
      r = a * b;
      break;
    case kFloorDiv:
      r = floorDiv(a, b);
      break;
    default: // kFloorMod
      r = a - floorDiv(a, b) * b;
      break;
    }
    stack[sp - 1] = r;
  }
}

} // namespace graft::kernels::indexmap

#endif // GRAFT_KERNELS_INDEXMAPPLAN_H
