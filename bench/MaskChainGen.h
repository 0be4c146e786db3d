//===- bench/MaskChainGen.h - Masked-copy modules for fuse-masked-copy -*- C++ -*-===//
//
// TVMScript text for fuse-masked-copy's scale test and benchmark:
//  - maskChainModule: one masked copy whose two masks are built by two
//    separate chains of `chainLength` ops each, with diamonds (add(p, p)),
//    so only a memoized, non-recursive comparison is fast and safe;
//  - manyCopiesModule: `copies` masked copies in one function, each mask
//    computed twice, 5 bindings per copy (linearity in module size).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_BENCH_MASKCHAINGEN_H
#define GRAFT_BENCH_MASKCHAINGEN_H

#include <string>

namespace graft::bench {

/// How the second chain relates to the first.
enum class ChainVariant {
  Same,          ///< The same ops: the masks are equal.
  DifferentRoot, ///< The chains differ only in their first op.
  RandomRoot,    ///< Both chains start from a draw of call_pure_packed("random").
};

inline const char *kMaskSignature =
    "    def main(src: R.Tensor((4, 8), dtype=\"float32\"), out: R.Tensor((4, 8), "
    "dtype=\"float32\"), x: R.Tensor((4, 8), dtype=\"float32\")) -> R.Tensor((4, 8), "
    "dtype=\"float32\"):\n";

inline void appendMaskChain(std::string &out, char name, unsigned length, const char *root) {
  static const char *ops[] = {"R.abs(%)", "R.negative(%)", "R.add(%, %)", "R.multiply(%, x)"};
  out += "        ";
  out += name;
  out += "0 = ";
  out += root;
  out += "\n";
  for (unsigned i = 1; i < length; ++i) {
    std::string prev = name + std::to_string(i - 1);
    out += "        ";
    out += name + std::to_string(i) + " = ";
    for (const char *c = ops[i % 4]; *c; ++c) {
      if (*c == '%')
        out += prev;
      else
        out += *c;
    }
    out += "\n";
  }
  out += "        m";
  out += name;
  out += " = R.greater(";
  out += name + std::to_string(length - 1) + ", R.const(0.5, \"float32\"))\n";
}

/// `chainLength` ops per mask (the greater included), 2 * chainLength + 3
/// bindings in all.
inline std::string maskChainModule(unsigned chainLength,
                                   ChainVariant variant = ChainVariant::Same) {
  std::string out;
  out.reserve(static_cast<size_t>(chainLength) * 64 + 1024);
  out += "@I.ir_module\nclass Module:\n    @R.function\n";
  out += kMaskSignature;
  const char *random = "R.call_pure_packed(\"random\", x, sinfo_args=(R.Tensor((4, 8), "
                       "dtype=\"float32\"),))";
  bool randomRoot = variant == ChainVariant::RandomRoot;
  unsigned length = chainLength > 1 ? chainLength - 1 : 1;
  appendMaskChain(out, 'a', length, randomRoot ? random : "R.abs(x)");
  out += "        picked = R.index_tensor(src, (ma,))\n";
  appendMaskChain(out, 'b', length,
                  randomRoot ? random
                             : (variant == ChainVariant::DifferentRoot ? "R.exp(x)" : "R.abs(x)"));
  out += "        out2 = R.index_put(out, (mb,), picked, accumulate=False)\n";
  out += "        return out2\n";
  return out;
}

/// `copies` masked copies in a row, 5 bindings each.
inline std::string manyCopiesModule(unsigned copies) {
  std::string out;
  out.reserve(static_cast<size_t>(copies) * 5 * 72 + 1024);
  out += "@I.ir_module\nclass Module:\n    @R.function\n";
  out += kMaskSignature;
  out += "        o0 = out\n        v0 = x\n";
  for (unsigned i = 0; i < copies; ++i) {
    std::string k = std::to_string(i), n = std::to_string(i + 1);
    out += "        p" + k + " = R.greater(v" + k + ", R.const(0.5, \"float32\"))\n";
    out += "        s" + k + " = R.index_tensor(src, (p" + k + ",))\n";
    out += "        q" + k + " = R.greater(v" + k + ", R.const(0.5, \"float32\"))\n";
    out += "        o" + n + " = R.index_put(o" + k + ", (q" + k + ",), s" + k +
           ", accumulate=False)\n";
    out += "        v" + n + " = R.abs(o" + n + ")\n";
  }
  out += "        return o" + std::to_string(copies) + "\n";
  return out;
}

} // namespace graft::bench

#endif // GRAFT_BENCH_MASKCHAINGEN_H
