//===- tests/codegen/FusedKernelGenTest.cpp - Primitive functions to programs ===//

#include "codegen/FusedKernelGen.h"

#include "pass/Pass.h"
#include "text/Parser.h"

#include "ir/Op.h"
#include "kernels/FusedKernel.h"
#include "vm/ExecBuilder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

ParsedFile parseOrDie(llvm::StringRef text) {
  auto parsed = parseText(text, "test.py");
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return {};
  }
  return std::move(*parsed);
}

std::string programOf(const IRModule &m, llvm::StringRef fn) {
  const ModuleEntry *e = m.lookup(fn);
  if (!e || !e->asFunction())
    return "no function " + fn.str();
  auto text = fusedKernelProgram(*e->asFunction(), fn);
  return text ? *text : llvm::toString(text.takeError());
}

ParsedFile passTest(llvm::StringRef file) {
  auto parsed =
      parseFile((llvm::Twine(GRAFT_SOURCE_DIR) + "/tests/passes/fuse-elementwise/" + file).str());
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return {};
  }
  return std::move(*parsed);
}

TEST(FusedKernelGen, BroadcastChainWithBoolIntermediate) {
  ParsedFile f = passTest("broadcast.py");
  ASSERT_TRUE(f.find("Expected"));
  EXPECT_EQ(programOf(*f.find("Expected"), "fused_add_nn_relu_less_where"),
            "fused 2\n"
            "input %0 float32 2\n"
            "input %1 float32 1\n"
            "input %2 float32 2\n"
            "%3 = add float32 %0 %1\n"
            "%4 = nn.relu float32 %3\n"
            "%5 = less bool %4 %2\n"
            "%6 = where float32 %5 %4 %2\n"
            "output %6\n");
}

TEST(FusedKernelGen, ScalarConstantsAreImmediates) {
  ParsedFile f = passTest("constants.py");
  ASSERT_TRUE(f.find("Expected"));
  EXPECT_EQ(programOf(*f.find("Expected"), "fused_multiply_add"), "fused 2\n"
                                                                  "input %0 float32 1\n"
                                                                  "input %1 float32 1\n"
                                                                  "const %2 float32 0x1.4p+1\n"
                                                                  "%3 = multiply float32 %0 %2\n"
                                                                  "%4 = add float32 %3 %1\n"
                                                                  "output %4\n");
}

TEST(FusedKernelGen, EveryFusedFunctionOfThePassTestsEmits) {
  std::error_code ec;
  std::string dir = std::string(GRAFT_SOURCE_DIR) + "/tests/passes/fuse-elementwise";
  unsigned emitted = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".py")
      continue;
    ParsedFile f = passTest(llvm::sys::path::filename(it->path()));
    const IRModule *m = f.find("Expected");
    if (!m)
      continue;
    vm::ExecBuilder b;
    llvm::Error err = addFusedKernelSources(*m, b);
    EXPECT_FALSE(bool(err)) << it->path() << ": " << llvm::toString(std::move(err));
    for (const ModuleEntry &e : m->entries())
      emitted += e.asFunction() && isPrimitiveFunction(*e.asFunction());
  }
  EXPECT_GE(emitted, 15u);
}

TEST(FusedKernelGen, ErrorsNameTheFunction) {
  ParsedFile f = parseOrDie(R"(
from tvm.script import ir as I, relax as R

@I.ir_module
class M:
    @R.function(private=True)
    def softmax_exp(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4,), dtype="float32") = R.nn.softmax(x)
            b: R.Tensor((4,), dtype="float32") = R.exp(a)
            R.output(b)
        return b

    @R.function(private=True)
    def shape_param(x: R.Tensor((4,), dtype="float32"), s: R.Shape([4])) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            b: R.Tensor((4,), dtype="float32") = R.exp(x)
            R.output(b)
        return b
)");
  ASSERT_TRUE(f.find("M"));
  EXPECT_EQ(programOf(*f.find("M"), "softmax_exp"),
            "fused kernel 'softmax_exp': binding 'a' (R.nn.softmax) is not an op call a fused "
            "kernel can hold (docs/fusion.md)");
  EXPECT_EQ(programOf(*f.find("M"), "shape_param"),
            "fused kernel 'shape_param': parameter 's' is not a tensor of known dtype and rank");
}

} // namespace

namespace {

/// Every op fuse-elementwise may put in a group (a pure ElemWise or
/// Broadcast op whose calls can carry no attributes, or astype) is an op
/// of the program format, so codegen never meets a fused op it cannot
/// write.
TEST(FusedKernelGen, EveryFusableOpHasAProgramOp) {
  unsigned checked = 0;
  for (const OpInfo *info : builtinOps()) {
    OpPattern pattern = info->fusionPattern();
    if (!info->pure || (pattern != OpPattern::ElemWise && pattern != OpPattern::Broadcast))
      continue;
    bool hasAttrs = !info->attrParamIndices().empty();
    bool allTensorParams = true;
    for (const OpParam &p : info->params)
      allTensorParams &= p.kind == ParamKind::Expr || p.kind == ParamKind::Attr;
    // clip's bounds must be R.Prim values (its inference says so), never
    // tensors, so no clip call is fusable.
    if ((hasAttrs && info->scriptName() != "astype") || !allTensorParams ||
        info->scriptName() == "clip")
      continue;
    ++checked;
    EXPECT_TRUE(kernels::isFusedProgramOp(info->scriptName())) << info->scriptName().str();
  }
  EXPECT_GE(checked, 50u);
}

} // namespace
