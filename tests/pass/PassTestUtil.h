//===- tests/pass/PassTestUtil.h - Modules and passes for library tests -*- C++ -*-===//
//
// The pass-library tests use their own small passes (no transforms/ pass is
// linked): each marks the functions it rewrites with a function attribute,
// which changes the function node and its structural identity.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTS_PASS_PASSTESTUTIL_H
#define GRAFT_TESTS_PASS_PASSTESTUTIL_H

#include "ir/Attrs.h"
#include "pass/Pass.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace graft::testing {

/// Two functions, main first.
inline const char *kTwoFunctions = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        z = R.multiply(y, x)
        return z

    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y
)";

/// Parses `text` (one module); fails the test on error.
inline std::unique_ptr<IRModule> parseModule(const std::string &text) {
  llvm::Expected<ParsedFile> file = parseText(text, "test.py");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return nullptr;
  }
  return std::move(file->modules.front());
}

/// `fn` with the boolean attribute `key` set: a new node, same body.
inline Function markFunction(const FunctionNode &fn, llvm::StringRef key) {
  Function out =
      make<FunctionNode>(fn.params, fn.body, fn.retSInfo, fn.isPure,
                         withAttr(fn.attrs.get(), key, AttrValue::boolean(true)), fn.loc);
  return out;
}

} // namespace graft::testing

#endif // GRAFT_TESTS_PASS_PASSTESTUTIL_H
