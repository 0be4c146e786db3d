//===- tests/text/ParserTest.cpp - TVMScript parser -------------------------===//

#include "text/Parser.h"
#include "ir/Diagnostics.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "ir/TirBody.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

std::string errText(llvm::Error err, const llvm::SourceMgr *sm) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printError(std::move(err), sm, os);
  return os.str();
}

ParsedFile parseOK(llvm::StringRef text) {
  std::shared_ptr<llvm::SourceMgr> sm;
  auto r = parseText(text, "test.py", &sm);
  if (!r) {
    ADD_FAILURE() << errText(r.takeError(), sm.get());
    return ParsedFile();
  }
  return std::move(*r);
}

std::string parseErr(llvm::StringRef text) {
  std::shared_ptr<llvm::SourceMgr> sm;
  auto r = parseText(text, "test.py", &sm);
  if (r)
    return "<parsed>";
  return errText(r.takeError(), sm.get());
}

const FunctionNode *mainOf(const ParsedFile &f, size_t m = 0) {
  if (f.modules.size() <= m)
    return nullptr;
  const ModuleEntry *e = f.modules[m]->lookup("main");
  return e ? e->asFunction() : nullptr;
}

std::string fileText(llvm::StringRef rel) {
  std::string path = std::string(GRAFT_SOURCE_DIR) + "/" + rel.str();
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

TEST(ParserTest, StandaloneFunction) {
  ParsedFile f = parseOK(R"(
from tvm.script import relax as R
@R.function
def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
    y = R.add(x, x)
    return y
)");
  ASSERT_EQ(f.modules.size(), 1u);
  EXPECT_EQ(f.modules[0]->name, "Module");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  EXPECT_EQ(fn->params.size(), 1u);
  EXPECT_EQ(fn->globalSymbol(), "main");
  ASSERT_EQ(fn->body->blocks.size(), 1u);
  ASSERT_EQ(fn->body->blocks[0]->bindings.size(), 1u);
  const auto *b = fn->body->blocks[0]->bindings[0].get();
  EXPECT_EQ(b->var->name, "y");
  const auto *call = llvm::dyn_cast<CallNode>(b->value.get());
  ASSERT_TRUE(call);
  ASSERT_TRUE(call->opInfo());
  EXPECT_EQ(call->opInfo()->name, "relax.add");
  const auto *t = llvm::dyn_cast<TensorSInfoNode>(b->var->sinfo.get());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->ndim, 2);
  EXPECT_EQ(t->dtype, DataType::float32());
}

TEST(ParserTest, ANFAndDataflowOutputs) {
  ParsedFile f = parseOK(R"(
@R.function
def main(x: R.Tensor((2,), "float32")):
    with R.dataflow():
        a = R.add(R.multiply(x, x), x)
        b = R.add(a, a)
        R.output(b)
    return b
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  ASSERT_EQ(fn->body->blocks.size(), 1u);
  const BindingBlockNode *blk = fn->body->blocks[0].get();
  EXPECT_TRUE(blk->isDataflow);
  ASSERT_EQ(blk->bindings.size(), 3u);
  EXPECT_TRUE(blk->bindings[0]->var->isDataflow()); // lifted multiply
  EXPECT_EQ(blk->bindings[1]->var->name, "a");
  EXPECT_TRUE(blk->bindings[1]->var->isDataflow());
  EXPECT_EQ(blk->bindings[2]->var->name, "b");
  EXPECT_FALSE(blk->bindings[2]->var->isDataflow());
  EXPECT_EQ(fn->body->body.get(), blk->bindings[2]->var.get());
}

TEST(ParserTest, SymbolicShapesAndMatchCast) {
  ParsedFile f = parseOK(R"(
@R.function
def main(x: R.Tensor(("n", "2 * n + 2"), "float32"), y: R.Tensor) -> R.Tensor(("n",), "float32"):
    n = T.int64()
    m = T.int64()
    z = R.match_cast(y, R.Tensor((m,), "float32"))
    w = R.sum(x, axis=[1])
    return w
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  const auto *t = llvm::cast<TensorSInfoNode>(fn->params[0]->sinfo.get());
  const std::vector<PrimExpr> *dims = t->shapeValues();
  ASSERT_TRUE(dims);
  ASSERT_EQ(dims->size(), 2u);
  const auto *n = llvm::dyn_cast<TirVarNode>((*dims)[0].get());
  ASSERT_TRUE(n);
  EXPECT_EQ(n->name, "n");
  EXPECT_EQ(toString((*dims)[1].get()), "2 * n + 2");
  const auto *mc = llvm::dyn_cast<MatchCastNode>(fn->body->blocks[0]->bindings[0].get());
  ASSERT_TRUE(mc);
  const auto *w = fn->body->blocks[0]->bindings[1].get();
  const auto *ws = llvm::cast<TensorSInfoNode>(w->var->sinfo.get());
  ASSERT_TRUE(ws->shapeValues());
  EXPECT_EQ((*ws->shapeValues())[0].get(), n); // same var object as the signature
}

TEST(ParserTest, SugaredAndPrintedFormsGiveSameIR) {
  ParsedFile f = parseOK(fileText("tests/text/sugared_vs_printed.py"));
  ASSERT_EQ(f.modules.size(), 2u);
  const FunctionNode *a = mainOf(f, 0), *b = mainOf(f, 1);
  ASSERT_TRUE(a && b);
  const auto &ba = a->body->blocks[0]->bindings, &bb = b->body->blocks[0]->bindings;
  ASSERT_EQ(ba.size(), bb.size());
  for (size_t i = 0; i < ba.size(); ++i) {
    const auto *ca = llvm::cast<CallNode>(ba[i]->value.get());
    const auto *cb = llvm::cast<CallNode>(bb[i]->value.get());
    ASSERT_EQ(ca->args.size(), cb->args.size()) << i;
    for (size_t j = 0; j < ca->args.size(); ++j)
      EXPECT_EQ(ca->args[j]->getKind(), cb->args[j]->getKind()) << i << "," << j;
  }
  EXPECT_EQ(llvm::cast<CallNode>(ba[1]->value.get())->args.size(), 5u); // default filled
}

TEST(ParserTest, CorpusParses) {
  ParsedFile f = parseOK(fileText("tests/text/basic.py"));
  ASSERT_EQ(f.modules.size(), 1u);
  const IRModule &m = *f.modules[0];
  const ModuleEntry *pf = m.lookup("add_one");
  ASSERT_TRUE(pf && pf->asPrimFunc());
  EXPECT_FALSE(pf->asPrimFunc()->isPure);
  EXPECT_TRUE(pf->asPrimFunc()->isPrivate);
  // The body is a statement tree: the root block TVM adds, the loop in it.
  const tir::Body *body = pf->asPrimFunc()->body.get();
  ASSERT_TRUE(body);
  EXPECT_TRUE(pf->asPrimFunc()->bodyTokens.empty());
  const tir::TNode &top = body->node(body->root);
  ASSERT_EQ(top.kids.size(), 1u);
  const tir::TNode &root = body->node(top.kids[0]);
  ASSERT_EQ(root.kind, tir::Kind::Block);
  EXPECT_EQ(root.text, "root");
  EXPECT_EQ(body->node(body->node(root.kids.back()).kids[0]).kind, tir::Kind::For);
  const FunctionNode *fn = m.lookup("main")->asFunction();
  ASSERT_TRUE(fn);
  const AttrValue *ni = fn->attr("num_input");
  ASSERT_TRUE(ni);
  EXPECT_EQ(ni->getInt(), 1);
  // A call to the helper GlobalVar exists in the then-branch.
  bool sawIf = false;
  for (const auto &blk : fn->body->blocks)
    for (const auto &b : blk->bindings)
      if (const auto *iff = llvm::dyn_cast<IfNode>(b->value.get())) {
        sawIf = true;
        EXPECT_EQ(b->var->name, "r");
        EXPECT_TRUE(llvm::isa<VarNode>(iff->thenBranch->body.get()));
        EXPECT_EQ(llvm::cast<VarNode>(iff->thenBranch->body.get())->name, "r_then");
      }
  EXPECT_TRUE(sawIf);
}

TEST(ParserTest, DirectivesAndSeveralModules) {
  ParsedFile f = parseOK(R"(# PIPELINE: dead-code-elimination
# CONFIG: relax.backend.use_cuda_graph=true
# EXPECT-ERROR: boom
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2,), "float32")):
        return x
@tvm.script.ir_module
class Expected():
    @R.function(private=True)
    def main(x: R.Tensor((2,), "float32")):
        return x
)");
  EXPECT_EQ(f.pipeline, "dead-code-elimination");
  ASSERT_EQ(f.configs.size(), 1u);
  EXPECT_EQ(f.configs[0], "relax.backend.use_cuda_graph=true");
  EXPECT_EQ(f.expectError, "boom");
  ASSERT_EQ(f.modules.size(), 2u);
  EXPECT_TRUE(f.find("Expected"));
  EXPECT_EQ(mainOf(f, 1)->globalSymbol(), "");
}

TEST(ParserTest, UnknownOpAnnotated) {
  ParsedFile f = parseOK(R"(
@R.function
def main(x: R.Tensor((2,), "float32")):
    y: R.Tensor((2,), "float32") = R.my_op(x, 3, mode="fast", k=2)
    return y
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  const auto *call = llvm::cast<CallNode>(fn->body->blocks[0]->bindings[0]->value.get());
  ASSERT_TRUE(call->opInfo());
  EXPECT_TRUE(call->opInfo()->unknown);
  ASSERT_TRUE(call->attrs);
  ASSERT_EQ(call->attrs->entries.size(), 2u);
  EXPECT_EQ(call->attrs->entries[0].first, "mode");
  EXPECT_EQ(call->attrs->entries[1].second.getInt(), 2);
  EXPECT_EQ(call->args.size(), 2u);
}

TEST(ParserTest, ForwardReferenceAndRecursion) {
  ParsedFile f = parseOK(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = Module.g(x)
        return y
    @R.function
    def g(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        @R.function
        def inner(a: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            b = inner(a)
            return b
        return x
)");
  ASSERT_EQ(f.modules.size(), 1u);
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  const auto *call = llvm::cast<CallNode>(fn->body->blocks[0]->bindings[0]->value.get());
  EXPECT_TRUE(llvm::isa<GlobalVarNode>(call->op.get()));
}

TEST(ParserTest, ConstantsOfEveryDType) {
  ParsedFile f = parseOK(R"(
@R.function
def main():
    a = R.const(1, "int8")
    b = R.const([[1.5, 2.0], [3.0, 4.0]], "float16")
    c = R.const([True, False], "bool")
    d = R.const([1.0, -2.0], "bfloat16")
    e = R.const([255, 1], "uint8")
    g = R.const(-3)
    h = 2.5
    return (a, b, c, d, e, g, h)
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  auto data = [&](size_t i) {
    return llvm::cast<ConstantNode>(fn->body->blocks[0]->bindings[i]->value.get())->data;
  };
  EXPECT_EQ(data(1)->shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(data(1)->bytes.size(), 8u);
  EXPECT_EQ(data(1)->bytes[0], 0x00); // 1.5 in half: 0x3e00
  EXPECT_EQ(data(1)->bytes[1], 0x3e);
  EXPECT_EQ(data(2)->bytes, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(data(3)->bytes[1], 0x3f); // bf16(1.0) = 0x3f80
  EXPECT_EQ(data(4)->bytes, (std::vector<uint8_t>{255, 1}));
  EXPECT_EQ(data(5)->dtype, DataType::int32());
  EXPECT_EQ(data(6)->dtype, DataType::float32());
}

TEST(ParserTest, StandaloneFunctionIsNamedByItsGlobalSymbol) {
  // No module to check the name against: the Python name is dropped.
  ParsedFile f = parseOK(R"(
from tvm.script import relax as R
@R.function
def foo(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    R.func_attr({"global_symbol": "bar"})
    return x
)");
  ASSERT_EQ(f.modules.size(), 1u);
  EXPECT_EQ(f.modules[0]->lookup("foo"), nullptr);
  const ModuleEntry *e = f.modules[0]->lookup("bar");
  ASSERT_TRUE(e && e->asFunction());
  EXPECT_EQ(e->asFunction()->globalSymbol(), "bar");
}

TEST(ParserTest, SeveralSymbolicVarsInOneStatement) {
  ParsedFile f = parseOK(R"(
from tvm.script import relax as R, tir as T
@R.function
def main(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("n", "m"), "float32"):
    n, m = T.int64(), T.int32(is_size_var=True)
    return x
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  const auto *t = llvm::dyn_cast<TensorSInfoNode>(fn->params[0]->sinfo.get());
  ASSERT_TRUE(t && t->shape);
  const auto *shape = llvm::dyn_cast<ShapeExprNode>(t->shape.get());
  ASSERT_TRUE(shape);
  ASSERT_EQ(shape->values.size(), 2u);
  const auto *n = llvm::dyn_cast<TirVarNode>(shape->values[0].get());
  const auto *m = llvm::dyn_cast<TirVarNode>(shape->values[1].get());
  ASSERT_TRUE(n && m);
  EXPECT_EQ(n->dtype, DataType::int64());
  EXPECT_FALSE(n->isSizeVar);
  EXPECT_EQ(m->dtype, DataType::int32());
  EXPECT_TRUE(m->isSizeVar);
}

TEST(ParserTest, SeveralSymbolicVarsErrors) {
  // A count mismatch is a tuple binding of a non-tuple value, located.
  std::string e = parseErr("from tvm.script import relax as R, tir as T\n@R.function\n"
                           "def main(x: R.Tensor((2,), \"float32\")):\n"
                           "    n, m = T.int64(), T.int64(), T.int64()\n    return x\n");
  EXPECT_NE(e.find("test.py:4:"), std::string::npos) << e;
  e = parseErr("from tvm.script import relax as R, tir as T\n@R.function\n"
               "def main(x: R.Tensor((2,), \"float32\")):\n"
               "    n, m = T.int64(), T.int64(size=True)\n    return x\n");
  EXPECT_NE(e.find("test.py:4:31: error: T.int64 got an unexpected keyword argument"),
            std::string::npos)
      << e;
}

TEST(ParserTest, RelaxModuleSpellings) {
  ParsedFile f = parseOK(R"(
from tvm import relax
from tvm.script import relax as R
@R.function
def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    y = relax.op.nn.relu(x)
    z = relax.op.add(y, relax.const(1.0, "float32"))
    return z
)");
  const FunctionNode *fn = mainOf(f);
  ASSERT_TRUE(fn);
  const auto &bs = fn->body->blocks[0]->bindings;
  ASSERT_EQ(bs.size(), 2u);
  const auto *relu = llvm::dyn_cast<CallNode>(bs[0]->value.get());
  const auto *add = llvm::dyn_cast<CallNode>(bs[1]->value.get());
  ASSERT_TRUE(relu && add);
  EXPECT_EQ(llvm::cast<OpNode>(relu->op.get())->name(), "relax.nn.relu");
  EXPECT_EQ(llvm::cast<OpNode>(add->op.get())->name(), "relax.add");
  EXPECT_TRUE(llvm::isa<ConstantNode>(add->args[1].get()));
  std::string e = parseErr("from tvm.script import relax as R\n@R.function\n"
                           "def main(x: R.Tensor((2,), \"float32\")):\n"
                           "    y = relax.op.nope(x)\n    return y\n");
  EXPECT_NE(e.find("test.py:4:9: error: unknown op R.nope"), std::string::npos) << e;
}

TEST(ParserTest, LocatedErrors) {
  std::string e = parseErr("@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                           "    y = R.nope(x)\n    return y\n");
  EXPECT_NE(e.find("test.py:3:9: error: unknown op R.nope: annotate the binding or register "
                   "the op"),
            std::string::npos)
      << e;
}

TEST(ParserTest, NeverCrashesOnTruncations) {
  std::string text = fileText("tests/text/basic.py");
  ASSERT_FALSE(text.empty());
  for (size_t n = 0; n < text.size(); n += 7) {
    std::shared_ptr<llvm::SourceMgr> sm;
    auto r = parseText(llvm::StringRef(text).substr(0, n), "t.py", &sm);
    if (!r)
      llvm::consumeError(r.takeError());
  }
  SUCCEED();
}

// Parsing speed is measured by bench/ir_scale (docs/performance.md); this
// checks that 200k bindings parse, with nothing proportional to the
// function's length on the stack.
TEST(ParserTest, ManyBindingsParse) {
  const int n = 200000;
  std::string text = "@R.function\ndef main(x: R.Tensor((2, 3), \"float32\")):\n"
                     "    with R.dataflow():\n        v0 = R.add(x, x)\n";
  for (int i = 1; i < n; ++i)
    text += "        v" + std::to_string(i) + ": R.Tensor((2, 3), dtype=\"float32\") = R.add(v" +
            std::to_string(i - 1) + ", x)\n";
  text += "        R.output(v" + std::to_string(n - 1) + ")\n    return v" + std::to_string(n - 1) +
          "\n";
  ParsedFile f = parseOK(text);
  ASSERT_TRUE(mainOf(f));
  EXPECT_EQ(mainOf(f)->body->blocks[0]->bindings.size(), static_cast<size_t>(n));
}

} // namespace
