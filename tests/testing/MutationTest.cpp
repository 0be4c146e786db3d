//===- tests/testing/MutationTest.cpp - Mutation testing of the verifier ---===//
//
// Every single fault of tools/testing/Mutations.h, put into generated programs,
// is reported by the verifier; each kind finds a place in many programs.
//
//===----------------------------------------------------------------------===//

#include "tools/testing/Mutations.h"
#include "tools/testing/ProgramGenerator.h"

#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>

using namespace graft;
using namespace graft::testing;

namespace {

TEST(VerifierMutations, EverySingleFaultIsCaught) {
  std::map<std::string, unsigned> applied;
  std::map<std::string, std::string> firstMessage;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::string text = generateProgram(seed);
    for (Mutation m : allMutations()) {
      auto file = parseText(text, "generated.py");
      ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError());
      IRModule &module = *file->modules.front();
      if (!applyMutation(module, m, seed))
        continue;
      ++applied[mutationName(m).str()];
      std::vector<Violation> v = verifyModule(module);
      if (!v.empty() && !firstMessage.count(mutationName(m).str()))
        firstMessage[mutationName(m).str()] = v.front().message;
      EXPECT_FALSE(v.empty()) << mutationName(m).str() << " on seed " << seed << " is not caught:\n"
                              << printModule(module);
    }
  }
  for (Mutation m : allMutations()) {
    std::string name = mutationName(m).str();
    EXPECT_GE(applied[name], 30u) << name;
    std::cout << name << ": " << applied[name] << " programs, e.g. " << firstMessage[name] << "\n";
  }
}

} // namespace
