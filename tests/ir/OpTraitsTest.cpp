//===- tests/ir/OpTraitsTest.cpp - Op traits, handles and strict lookup ---===//
//
// The traits passes ask instead of op names: a sample asserted by value,
// every op of ir/ops/ with a declared pattern, docs/ops.md's traits table
// equal to the registry, the handles of OpHandles.def resolving to their
// ops, and the two lookups: getOp (registered only, aborts otherwise) and
// getOrCreateUnknownOp (the parser's path for annotated unknown ops).
//
//===----------------------------------------------------------------------===//

#include "ir/Op.h"
#include "ir/ops/OpHandles.h"
#include "text/Parser.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace graft;

namespace {

const OpInfo &op(llvm::StringRef name) {
  const OpInfo *info = lookupOp(name);
  EXPECT_NE(info, nullptr) << name.str();
  static const OpInfo kNone;
  return info ? *info : kNone;
}

llvm::StringRef patternName(OpPattern p) {
  switch (p) {
  case OpPattern::ElemWise:
    return "ElemWise";
  case OpPattern::Broadcast:
    return "Broadcast";
  case OpPattern::Injective:
    return "Injective";
  case OpPattern::CommReduce:
    return "CommReduce";
  case OpPattern::OutEWiseFusable:
    return "OutEWiseFusable";
  case OpPattern::Opaque:
    return "Opaque";
  }
  return "?";
}

TEST(OpTraitsTest, FusionPatternsFollowTVM) {
  EXPECT_EQ(op("add").pattern, OpPattern::Broadcast);
  EXPECT_EQ(op("exp").pattern, OpPattern::ElemWise);
  EXPECT_EQ(op("broadcast_to").pattern, OpPattern::Broadcast);
  EXPECT_EQ(op("permute_dims").pattern, OpPattern::Injective);
  EXPECT_EQ(op("sum").pattern, OpPattern::CommReduce);
  EXPECT_EQ(op("matmul").pattern, OpPattern::OutEWiseFusable);
  EXPECT_EQ(op("index_tensor").pattern, OpPattern::Injective);
  EXPECT_EQ(op("nn.softmax").pattern, OpPattern::OutEWiseFusable);
  EXPECT_EQ(op("call_tir").pattern, OpPattern::Opaque);
  EXPECT_EQ(op("expand_dims").pattern, OpPattern::Broadcast);
}

TEST(OpTraitsTest, EveryBuiltinOpDeclaresAPattern) {
  std::vector<const OpInfo *> ops = builtinOps();
  EXPECT_EQ(ops.size(), 220u);
  for (const OpInfo *info : ops)
    EXPECT_TRUE(info->pattern.hasValue()) << info->name;
}

TEST(OpTraitsTest, KillsAndAllocations) {
  for (const char *kill : {"memory.kill_tensor", "memory.kill_storage", "vm.kill_object"}) {
    EXPECT_TRUE(op(kill).kills) << kill;
    EXPECT_FALSE(op(kill).pure) << kill;
    EXPECT_EQ(op(kill).allocates, AllocKind::None) << kill;
  }
  EXPECT_EQ(op("memory.alloc_storage").allocates, AllocKind::Storage);
  EXPECT_EQ(op("vm.alloc_storage").allocates, AllocKind::Storage);
  EXPECT_EQ(op("memory.alloc_tensor").allocates, AllocKind::Tensor);
  EXPECT_EQ(op("builtin.alloc_tensor").allocates, AllocKind::Tensor);
  EXPECT_EQ(op("vm.alloc_tensor").allocates, AllocKind::Tensor);
  EXPECT_FALSE(op("memory.alloc_storage").kills);
  EXPECT_FALSE(op("memory.alloc_storage").deterministic);
  EXPECT_FALSE(op("memory.alloc_storage").launchesKernel);
  EXPECT_EQ(op("add").allocates, AllocKind::None);
  EXPECT_FALSE(op("add").kills);
}

TEST(OpTraitsTest, AliasesDeterminismAndLaunches) {
  for (const char *view : {"reshape", "memory.view", "memory.ensure_zero_offset"})
    EXPECT_TRUE(op(view).aliasesInput) << view;
  EXPECT_FALSE(op("permute_dims").aliasesInput);
  EXPECT_FALSE(op("call_tir_inplace").aliasesInput); // Its output aliases args[1], not args[0].
  for (const char *opaque : {"call_tir", "call_pure_packed", "invoke_pure_closure", "make_closure",
                             "builtin.alloc_tensor", "print"})
    EXPECT_FALSE(op(opaque).deterministic) << opaque;
  EXPECT_TRUE(op("add").deterministic);
  EXPECT_TRUE(op("index_tensor").deterministic);
  for (const char *bookkeeping :
       {"memory.alloc_storage", "memory.kill_tensor", "builtin.alloc_tensor", "reshape",
        "null_value", "call_builtin_with_ctx", "vm.kill_object"})
    EXPECT_FALSE(op(bookkeeping).launchesKernel) << bookkeeping;
  for (const char *launch : {"call_tir", "add", "vm.call_tir_dyn", "call_dps_packed"})
    EXPECT_TRUE(op(launch).launchesKernel) << launch;
}

TEST(OpTraitsTest, HostReadsOfBoolMaskIndexing) {
  Var data = make<VarNode>("x", tensorSInfo({intImm(4)}, DataType::float32()));
  Var mask = make<VarNode>("m", tensorSInfo({intImm(4)}, DataType::boolType()));
  Var idx = make<VarNode>("i", tensorSInfo({intImm(2)}, DataType::int64()));
  auto call = [&](Var index) {
    return make<CallNode>(ops::indexTensor(), std::vector<Expr>{data, tupleExpr({index})});
  };
  EXPECT_TRUE(readsOnHost(*call(mask)));
  EXPECT_FALSE(isCapturableCall(*call(mask)));
  EXPECT_FALSE(readsOnHost(*call(idx)));
  EXPECT_TRUE(isCapturableCall(*call(idx)));
  EXPECT_FALSE(op("index_tensor").readsOnHost); // Decided per call.
  for (const char *reader : {"nonzero", "tensor_to_shape", "assert_op", "print"}) {
    EXPECT_TRUE(op(reader).readsOnHost) << reader;
    EXPECT_FALSE(op(reader).capturable) << reader;
  }
  EXPECT_FALSE(op("add").readsOnHost);
}

TEST(OpTraitsTest, HostReadersAreNeverCapturable) {
  for (const OpInfo *info : builtinOps()) {
    if (info->readsOnHost) {
      EXPECT_FALSE(info->capturable) << info->name;
    }
  }
}

//===----------------------------------------------------------------------===//
// docs/ops.md
//===----------------------------------------------------------------------===//

std::string yesNo(bool b) { return b ? "yes" : "no"; }

/// The row docs/ops.md's traits table must hold for `info`.
std::string traitsRow(const OpInfo &info) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::StringRef alloc = info.allocates == AllocKind::Storage  ? "storage"
                          : info.allocates == AllocKind::Tensor ? "tensor"
                                                                : "no";
  os << "| `R." << info.scriptName() << "` | "
     << (info.pattern ? patternName(*info.pattern) : llvm::StringRef("(none)")) << " | "
     << yesNo(info.pure) << " | " << (info.readsOnHostCall ? "per call" : yesNo(info.readsOnHost))
     << " | " << (info.readsOnHostCall ? "per call" : yesNo(info.capturable)) << " | " << alloc
     << " | " << yesNo(info.kills) << " | " << yesNo(info.aliasesInput) << " | "
     << yesNo(info.deterministic) << " | " << yesNo(info.launchesKernel) << " |";
  return os.str();
}

TEST(OpTraitsTest, DocsListEveryOpsTraits) {
  std::ifstream in(GRAFT_SOURCE_DIR "/docs/ops.md");
  ASSERT_TRUE(in.good());
  llvm::StringMap<std::string> rows; // `R.op` -> its traits row
  std::string line;
  bool inTable = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0)
      inTable = line == "## Traits";
    if (inTable && line.rfind("| `R.", 0) == 0)
      rows[llvm::StringRef(line).split('`').second.split('`').first] = line;
  }
  std::string missing;
  for (const OpInfo *info : builtinOps()) {
    std::string expected = traitsRow(*info);
    auto it = rows.find(("R." + info->scriptName()).str());
    if (it == rows.end() || it->second != expected)
      missing += expected + "\n";
  }
  EXPECT_EQ(rows.size(), builtinOps().size());
  EXPECT_EQ(missing, "") << "docs/ops.md's traits table needs these rows";
}

//===----------------------------------------------------------------------===//
// Handles and lookups
//===----------------------------------------------------------------------===//

TEST(OpTraitsTest, HandlesAreTheRegisteredOps) {
#define GRAFT_OP_HANDLE(Function, Name)                                                            \
  EXPECT_EQ(ops::Function().get(), getOp(Name).get()) << Name;                                     \
  EXPECT_EQ(ops::Function()->name(), Name);                                                        \
  EXPECT_FALSE(ops::Function()->info->unknown) << Name;
#include "ir/ops/OpHandles.def"
  Expr kill = make<CallNode>(ops::vmKillObject(), std::vector<Expr>{});
  const auto *call = llvm::cast<CallNode>(kill.get());
  EXPECT_TRUE(call->op == ops::vmKillObject());
  EXPECT_TRUE(isCallTo(*call, ops::vmKillObject()));
  EXPECT_FALSE(isCallTo(*call, ops::memKillTensor()));
  EXPECT_EQ(asCallTo(kill.get(), ops::vmKillObject()), call);
  EXPECT_EQ(asCallTo(kill.get(), ops::print()), nullptr);
  EXPECT_EQ(calledOp(kill.get()), ops::vmKillObject()->info);
}

TEST(OpTraitsTest, GetOpTakesScriptAndFullNames) {
  EXPECT_EQ(getOp("nn.softmax").get(), getOp("relax.nn.softmax").get());
  EXPECT_EQ(getOp("relax.add")->info, lookupOp("add"));
}

TEST(OpTraitsDeathTest, GetOpOfAnUnregisteredNameAborts) {
  EXPECT_DEATH(getOp("relax.no_such_op"), "getOp: no registered op named 'relax.no_such_op'");
  EXPECT_EQ(lookupOp("relax.no_such_op"), nullptr);
}

TEST(OpTraitsTest, UnknownOpsAreExplicit) {
  Op unknown = getOrCreateUnknownOp("relax.traits_test.mystery");
  EXPECT_TRUE(unknown->info->unknown);
  EXPECT_TRUE(unknown->info->pure);
  EXPECT_FALSE(unknown->info->deterministic);
  EXPECT_FALSE(unknown->info->pattern.hasValue());
  EXPECT_EQ(unknown->info->fusionPattern(), OpPattern::Opaque);
  EXPECT_EQ(unknown.get(), getOrCreateUnknownOp("relax.traits_test.mystery").get());
  EXPECT_EQ(lookupOp("relax.traits_test.mystery"), nullptr);
  // A registered name gives the registered op.
  EXPECT_EQ(getOrCreateUnknownOp("relax.add").get(), getOp("relax.add").get());
  for (const OpInfo *info : allOps())
    EXPECT_NE(info, unknown->info);
}

TEST(OpTraitsTest, ParserBuildsAnnotatedUnknownOps) {
  std::shared_ptr<llvm::SourceMgr> sm;
  auto parsed = parseText("@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                          "    y: R.Tensor((2,), \"float32\") = R.traits_test.frob(x, k=1)\n"
                          "    return y\n",
                          "t.py", &sm);
  ASSERT_TRUE(!!parsed) << llvm::toString(parsed.takeError());
  const FunctionNode *fn = parsed->modules[0]->lookup("main")->asFunction();
  ASSERT_NE(fn, nullptr);
  const auto *seq = llvm::cast<SeqExprNode>(fn->body.get());
  const auto *call = llvm::cast<CallNode>(seq->blocks[0]->bindings[0]->value.get());
  ASSERT_NE(call->opInfo(), nullptr);
  EXPECT_EQ(call->opInfo()->name, "relax.traits_test.frob");
  EXPECT_TRUE(call->opInfo()->unknown);
  EXPECT_FALSE(isImpureCall(*call));

  auto bad = parseText("@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                       "    y = R.traits_test.frob2(x)\n    return y\n",
                       "t.py", &sm);
  ASSERT_FALSE(!!bad);
  EXPECT_NE(llvm::toString(bad.takeError())
                .find("unknown op R.traits_test.frob2: annotate the binding or register the op"),
            std::string::npos);
}

} // namespace
