//===- fuzz/parser.cpp - libFuzzer target: parse, verify, print, re-parse ---===//
//
// Any input must give a module or a located error, never a crash, leak or
// hang. For input that parses and verifies, the printed text must parse
// again and print to the same bytes (the printer's fixpoint); a violation
// traps so the fuzzer keeps the input.
//
//===----------------------------------------------------------------------===//

#include "text/Parser.h"
#include "analysis/WellFormed.h"
#include "ir/Printer.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace graft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto parsed = parseText(text, "fuzz.py");
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return 0;
  }
  for (const auto &module : parsed->modules) {
    if (!verifyModule(*module).empty())
      continue;
    std::string printed = printModule(*module);
    auto again = parseText(printed, "printed.py");
    if (!again) {
      llvm::consumeError(again.takeError());
      __builtin_trap(); // Printed text that does not parse.
    }
    if (again->modules.size() != 1 || printModule(*again->modules.front()) != printed)
      __builtin_trap(); // Printing is not a fixpoint.
  }
  return 0;
}
