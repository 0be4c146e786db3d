//===- tests/text/AnnotationMemoTest.cpp - Shared binding annotations -----===//
//
// The parser gives bindings with the same annotation text one struct-info
// node; these tests pin down when it must not.
//
//===----------------------------------------------------------------------===//

#include "text/Lexer.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const char *kTwoFunctions = R"(@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        a: R.Tensor((n, 16), dtype="float32") = R.exp(x)
        b: R.Tensor((n, 16), dtype="float32") = R.exp(a)
        return b

    @R.function
    def g(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        a: R.Tensor((n, 16), dtype="float32") = R.exp(x)
        return a
)";

const BindingNode *binding(const IRModule &m, llvm::StringRef fn, size_t i) {
  return m.lookup(fn)->asFunction()->body->blocks[0]->bindings[i].get();
}

const Node *firstDim(const StructInfoNode *s) {
  return (*llvm::cast<TensorSInfoNode>(s)->shapeValues())[0].get();
}

TEST(AnnotationMemo, SameTextInOneFunctionSharesTheNode) {
  auto file = parseText(kTwoFunctions, "memo.py");
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  const IRModule &m = *file->modules.front();
  EXPECT_EQ(binding(m, "f", 0)->var->sinfo.get(), binding(m, "f", 1)->var->sinfo.get());
}

TEST(AnnotationMemo, AnotherFunctionResolvesItsOwnVars) {
  auto file = parseText(kTwoFunctions, "memo.py");
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  const IRModule &m = *file->modules.front();
  const Node *nf = firstDim(binding(m, "f", 0)->var->sinfo.get());
  const Node *ng = firstDim(binding(m, "g", 0)->var->sinfo.get());
  EXPECT_NE(nf, ng);
  const Node *gParam = firstDim(m.lookup("g")->asFunction()->params[0]->sinfo.get());
  EXPECT_EQ(ng, gParam);
}

TEST(AnnotationMemo, RebindingANameDropsTheMemo) {
  // The second `n = T.int32()` replaces the int64 var: the same annotation
  // text then names a different var.
  auto file = parseText(R"(@R.function
def f(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    n = T.int64()
    a: R.Shape([n]) = R.shape([n])
    n = T.int32()
    b: R.Shape([n]) = R.shape([n])
    return x
)",
                        "memo.py");
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  const IRModule &m = *file->modules.front();
  ASSERT_NE(m.lookup("f"), nullptr);
  const FunctionNode *fn = m.lookup("f")->asFunction();
  ASSERT_NE(fn, nullptr);
  const auto &bs = fn->body->blocks[0]->bindings;
  ASSERT_EQ(bs.size(), 2u);
  EXPECT_NE(bs[0]->var->sinfo.get(), bs[1]->var->sinfo.get());
}

TEST(Lexer, TokensArePacked) { EXPECT_EQ(sizeof(Token), 8u); }

TEST(Lexer, OverlongTokenIsAnError) {
  std::string text = "x = \"" + std::string(Token::kMaxLength, 'a') + "\"\n";
  auto lexed = lex(text);
  ASSERT_FALSE(bool(lexed));
  EXPECT_NE(llvm::toString(lexed.takeError()).find("token too long"), std::string::npos);
}

} // namespace
