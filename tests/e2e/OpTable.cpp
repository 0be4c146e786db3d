//===- tests/e2e/OpTable.cpp - The op table the end-to-end suite must cover ===//
//
// Prints one line per op that legalize-ops lowers to a CPU kernel, straight
// from the compiler's op -> kernel table (ir/OpKernels.h):
//
//   OP SYMBOL HOST_SYMBOL RULE
//
// OP is the script name (`add`, `nn.softmax`), SYMBOL the destination-passing
// kernel and HOST_SYMBOL the `graft.host.*` form (`-` when there is none),
// and RULE the dtype rule of the elementwise op table
// (kernels/cpu/ElementwiseOps.def) for a kernel generated from it, `-` for
// every other kernel. tests/e2e/run_legalize_e2e.py reads this list, so an op
// added to the table without an end-to-end case fails that test, and the
// dtypes it runs an elementwise op in are the ones its rule accepts.
//
//===----------------------------------------------------------------------===//

#include "ir/OpKernels.h"
#include "kernels/cpu/ElementwiseOps.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;
namespace ew = graft::kernels::cpu::elementwise;

namespace {

llvm::StringRef ruleName(ew::DTypeRule rule) {
  switch (rule) {
  case ew::DTypeRule::Numeric:
    return "Numeric";
  case ew::DTypeRule::Arithmetic:
    return "Arithmetic";
  case ew::DTypeRule::Float:
    return "Float";
  case ew::DTypeRule::IntOrBool:
    return "IntOrBool";
  case ew::DTypeRule::Int:
    return "Int";
  case ew::DTypeRule::Compare:
    return "Compare";
  case ew::DTypeRule::Logical:
    return "Logical";
  case ew::DTypeRule::Predicate:
    return "Predicate";
  }
  return "?";
}

/// The elementwise rule of the kernel `symbol`, or "-".
llvm::StringRef ruleOf(llvm::StringRef symbol) {
  for (const ew::RowInfo &row : ew::kRows)
    if (symbol == row.symbol)
      return ruleName(row.rule);
  return "-";
}

llvm::StringRef orDash(llvm::StringRef s) { return s.empty() ? llvm::StringRef("-") : s; }

} // namespace

int main() {
  for (const OpKernel *k : allOpKernels())
    llvm::outs() << k->op->scriptName() << ' ' << orDash(k->symbol) << ' ' << orDash(k->hostSymbol)
                 << ' ' << ruleOf(k->symbol) << '\n';
  return 0;
}
