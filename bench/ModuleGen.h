//===- bench/ModuleGen.h - Generated modules for scale benchmarks -*- C++ -*-===//
//
// Writes TVMScript text of a given size: `numFunctions` functions of
// `bindingsPerFunction` bindings each, a mix of binary and unary elementwise
// ops, a matmul-free shape chain, match_cast and tuples, so parse, verify,
// print and equality all see every common binding kind.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_BENCH_MODULEGEN_H
#define GRAFT_BENCH_MODULEGEN_H

#include <string>

namespace graft::bench {

inline std::string generateModule(unsigned numFunctions, unsigned bindingsPerFunction) {
  std::string out;
  out.reserve(static_cast<size_t>(numFunctions) * bindingsPerFunction * 80 + 256);
  out += "@I.ir_module\nclass Module:\n";
  for (unsigned f = 0; f < numFunctions; ++f) {
    out += "    @R.function\n    def f" + std::to_string(f) +
           "(x: R.Tensor((\"n\", 16), dtype=\"float32\"), y: R.Tensor((\"n\", 16), "
           "dtype=\"float32\")) -> R.Tensor((\"n\", 16), dtype=\"float32\"):\n";
    out += "        n = T.int64()\n        with R.dataflow():\n";
    out += "            v0: R.Tensor((n, 16), dtype=\"float32\") = R.add(x, y)\n";
    static const char *binary[] = {"R.add", "R.multiply", "R.subtract", "R.maximum"};
    static const char *unary[] = {"R.exp", "R.nn.relu", "R.tanh"};
    for (unsigned i = 1; i < bindingsPerFunction; ++i) {
      std::string lhs = "v" + std::to_string(i);
      std::string prev = "v" + std::to_string(i - 1);
      out += "            " + lhs + ": R.Tensor((n, 16), dtype=\"float32\") = ";
      if (i % 3 == 0)
        out += std::string(unary[i % 3]) + "(" + prev + ")\n";
      else
        out += std::string(binary[i % 4]) + "(" + prev + ", " +
               (i % 2 ? std::string("y") : "v" + std::to_string(i / 2)) + ")\n";
    }
    out += "            gv: R.Tensor((n, 16), dtype=\"float32\") = v" +
           std::to_string(bindingsPerFunction - 1) + "\n";
    out += "            R.output(gv)\n        return gv\n\n";
  }
  return out;
}

} // namespace graft::bench

#endif // GRAFT_BENCH_MODULEGEN_H
