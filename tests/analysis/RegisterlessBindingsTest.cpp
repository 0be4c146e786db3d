//===- tests/analysis/RegisterlessBindingsTest.cpp - The registerless table --===//
//
// One binding per row of analysis/RegisterlessBindings.h: the table must
// classify it as that row, and kill-after-last-use (run through the graft
// binary, since analysis tests do not link the passes) must never kill it,
// although the binding is read after its definition. A control binding that
// does get a register proves the harness sees kills.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "analysis/RegisterlessBindings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace graft;
using graft::testing::function;
using graft::testing::parseModule;

namespace {

/// A module whose `main` binds `v` with `binding` (indented, may span lines)
/// and then reads it in a packed call.
std::string moduleWith(const std::string &binding) {
  return R"(
from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def helper(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return a

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
)" + binding +
         R"(
        _u = R.call_packed("use", v, sinfo_args=(R.Tuple,))
        y = R.add(x, x)
        return y
)";
}

std::string bindingFor(const RegisterlessRow &row) {
  if (row.kind == RegisterlessKind::Function)
    return "        @R.function\n"
           "        def v(a: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
           "            return a\n";
  std::string annotation = row.annotation.empty() ? "" : ": " + row.annotation.str();
  return "        v" + annotation + " = " + row.example.str() + "\n";
}

const BindingNode *bindingOf(const FunctionNode &fn, llvm::StringRef name) {
  for (const BindingBlock &block : fn.body->blocks)
    for (const Binding &b : block->bindings)
      if (b->var->name == name)
        return b.get();
  return nullptr;
}

/// Runs `graft opt -p kill-after-last-use` on `text`; returns its output.
std::string runKillAfterLastUse(const std::string &text, int &status) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("registerless", "py", fd, path)) {
    status = -1;
    return "cannot create a temporary file";
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
  }
  std::string cmd =
      std::string(GRAFT_BINARY) + " opt " + path.str().str() + " -p kill-after-last-use 2>&1";
  std::string out;
  FILE *pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  while (pipe && fgets(buf, sizeof buf, pipe))
    out += buf;
  status = pipe ? pclose(pipe) : -1;
  llvm::sys::fs::remove(path);
  return out;
}

/// Names of the vars that kill ops of `main` take, after the pass.
std::vector<std::string> killedNames(const std::string &text, int &status) {
  std::string out = runKillAfterLastUse(text, status);
  std::vector<std::string> names;
  if (status != 0) {
    ADD_FAILURE() << out;
    return names;
  }
  std::unique_ptr<IRModule> m = parseModule(out);
  const FunctionNode *main = m ? function(*m, "main") : nullptr;
  if (!main) {
    ADD_FAILURE() << "no main in\n" << out;
    return names;
  }
  for (const BindingBlock &block : main->body->blocks)
    for (const Binding &b : block->bindings) {
      const auto *call = llvm::dyn_cast<CallNode>(b->value.get());
      const auto *op = call ? llvm::dyn_cast<OpNode>(call->op.get()) : nullptr;
      if (!op || !op->name().contains("kill_") || call->args.empty())
        continue;
      if (const auto *v = llvm::dyn_cast<VarNode>(call->args[0].get()))
        names.push_back(v->name);
    }
  return names;
}

TEST(RegisterlessBindings, TableCoversCodegenSpecialCases) {
  std::vector<std::string> names;
  for (const RegisterlessRow &row : registerlessTable())
    names.push_back(row.name.str());
  EXPECT_EQ(names,
            (std::vector<std::string>{"null-value", "void-call", "constant", "shape", "prim-value",
                                      "string", "dtype", "global-var", "extern-func", "function"}));
}

TEST(RegisterlessBindings, EachRowIsClassifiedAndNeverKilled) {
  for (const RegisterlessRow &row : registerlessTable()) {
    SCOPED_TRACE("row " + row.name.str());
    std::string text = moduleWith(bindingFor(row));
    std::unique_ptr<IRModule> m = parseModule(text);
    ASSERT_TRUE(m) << text;
    const BindingNode *v = bindingOf(*function(*m, "main"), "v");
    ASSERT_TRUE(v) << text;
    EXPECT_EQ(registerlessRowFor(v->value.get()), &row);
    EXPECT_FALSE(bindingHasRegister(*v));

    int status = 0;
    std::vector<std::string> killed = killedNames(text, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(std::count(killed.begin(), killed.end(), "v"), 0) << text;
  }
}

TEST(RegisterlessBindings, ControlBindingWithRegisterIsKilled) {
  std::string text = moduleWith("        v = R.multiply(x, x)\n");
  std::unique_ptr<IRModule> m = parseModule(text);
  ASSERT_TRUE(m);
  const BindingNode *v = bindingOf(*function(*m, "main"), "v");
  ASSERT_TRUE(v);
  EXPECT_EQ(registerlessRowFor(v->value.get()), nullptr);
  EXPECT_TRUE(bindingHasRegister(*v));
  int status = 0;
  EXPECT_EQ(killedNames(text, status), std::vector<std::string>{"v"});
}

TEST(RegisterlessBindings, MatchCastIsClassifiedByItsValue) {
  // Codegen ignores the cast: a match_cast of a shape literal is a constant.
  std::unique_ptr<IRModule> m =
      parseModule(moduleWith("        v = R.match_cast(R.shape([2, 3]), R.Shape(ndim=2))\n"));
  ASSERT_TRUE(m);
  const BindingNode *v = bindingOf(*function(*m, "main"), "v");
  ASSERT_TRUE(v);
  const RegisterlessRow *row = registerlessRowFor(v->value.get());
  ASSERT_TRUE(row);
  EXPECT_EQ(row->kind, RegisterlessKind::ShapeExpr);
}

TEST(RegisterlessBindings, ValueOfAVarHasARegister) {
  // `w = v` is a vm.builtin.copy into a fresh register, whatever v is.
  std::unique_ptr<IRModule> m =
      parseModule(moduleWith("        n: R.Object = R.null_value()\n        v: R.Object = n\n"));
  ASSERT_TRUE(m);
  const BindingNode *v = bindingOf(*function(*m, "main"), "v");
  ASSERT_TRUE(v);
  EXPECT_TRUE(bindingHasRegister(*v));
  const BindingNode *n = bindingOf(*function(*m, "main"), "n");
  ASSERT_TRUE(n);
  EXPECT_EQ(registerlessRowFor(n->value.get())->kind, RegisterlessKind::NullValue);
}

} // namespace
