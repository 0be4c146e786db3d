//===- ir/OpRegistry.cpp - The operator registry ----------------------------===//
//
// One global table of OpInfo, filled lazily on first query by the op
// definition files (ir/ops/OpDefs.h), plus one interned Op node per name.
// Unknown op names (parsed from annotated bindings, getOrCreateUnknownOp)
// get an entry of their own with `unknown = true`, so that every Op node
// points at a stable OpInfo; getOp never creates one.
//
//===----------------------------------------------------------------------===//

#include "ir/Diagnostics.h"
#include "ir/Op.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>
#include <mutex>

using namespace graft;

namespace {

struct OpEntry {
  std::unique_ptr<OpInfo> info;
  Op node;
};

/// Entries are never removed, so OpInfo pointers and Op nodes stay valid for
/// the life of the process.
struct Registry {
  std::vector<OpEntry> entries; ///< Registration (or first-use) order.
  llvm::StringMap<size_t> byName;
  /// The first `builtinCount` entries are the ops of ir/ops/.
  size_t builtinCount = 0;
  std::recursive_mutex mutex;
};

Registry &rawRegistry() {
  static Registry *registry = new Registry(); // Never destroyed: Op nodes outlive statics.
  return *registry;
}

/// True while registerAllOps runs, so registerOp from the op files does not
/// try to trigger registration again.
thread_local bool registering = false;

void registerAllOps() {
  registerCoreOps();
  registerElementwiseOps();
  registerManipulationOps();
  registerReductionOps();
  registerNNOps();
  registerIndexOps();
  registerCreationOps();
  registerLinalgOps();
  registerLayoutOps();
  registerConvOps();
  registerParityOps();
  registerTrainingOps();
  registerInspectOps();
  registerDistributedOps();
  registerSamplingVisionOps();
  registerBatchBOps();
}

void ensureRegistered() {
  // An op file that queries the registry while registering (getOp to cache
  // a node) sees the ops registered so far instead of deadlocking.
  if (registering)
    return;
  static std::once_flag once;
  std::call_once(once, [] {
    registering = true;
    registerAllOps();
    registering = false;
    rawRegistry().builtinCount = rawRegistry().entries.size();
  });
}

/// Adds or replaces the entry for info.name; returns it. Caller holds the lock.
OpEntry &addEntry(OpInfo info) {
  Registry &reg = rawRegistry();
  auto [it, inserted] = reg.byName.try_emplace(info.name, reg.entries.size());
  if (!inserted) {
    // Replace in place: existing Op nodes keep pointing at the same OpInfo.
    *reg.entries[it->second].info = std::move(info);
    return reg.entries[it->second];
  }
  OpEntry entry;
  entry.info = std::make_unique<OpInfo>(std::move(info));
  entry.node = make<OpNode>(entry.info.get());
  reg.entries.push_back(std::move(entry));
  return reg.entries.back();
}

OpEntry *findEntry(llvm::StringRef name) {
  Registry &reg = rawRegistry();
  auto it = reg.byName.find(name);
  return it == reg.byName.end() ? nullptr : &reg.entries[it->second];
}

/// A registered entry for a full or script name (unknown entries excluded).
OpEntry *findRegistered(llvm::StringRef name) {
  OpEntry *e = findEntry(name);
  if ((!e || e->info->unknown) && !name.startswith("relax.")) {
    llvm::SmallString<64> full("relax."); // No heap string: the parser asks per call.
    full += name;
    e = findEntry(full);
  }
  return e && !e->info->unknown ? e : nullptr;
}

std::string scriptSpelling(const OpInfo &info) { return ("R." + info.scriptName()).str(); }

} // namespace

//===----------------------------------------------------------------------===//
// OpInfo
//===----------------------------------------------------------------------===//

llvm::StringRef OpInfo::scriptName() const {
  llvm::StringRef n = name;
  n.consume_front("relax.");
  return n;
}

llvm::SmallVector<unsigned, 4> OpInfo::attrParamIndices() const {
  llvm::SmallVector<unsigned, 4> out;
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == ParamKind::Attr)
      out.push_back(i);
  return out;
}

//===----------------------------------------------------------------------===//
// Registry queries
//===----------------------------------------------------------------------===//

void graft::registerOp(OpInfo info) {
  ensureRegistered();
  Registry &reg = rawRegistry();
  std::lock_guard<std::recursive_mutex> lock(reg.mutex);
  info.unknown = false;
  addEntry(std::move(info));
}

const OpInfo *graft::lookupOp(llvm::StringRef name) {
  ensureRegistered();
  std::lock_guard<std::recursive_mutex> lock(rawRegistry().mutex);
  OpEntry *e = findRegistered(name);
  return e ? e->info.get() : nullptr;
}

Op graft::getOp(llvm::StringRef name) {
  ensureRegistered();
  std::lock_guard<std::recursive_mutex> lock(rawRegistry().mutex);
  if (OpEntry *e = findRegistered(name))
    return e->node;
  llvm::report_fatal_error(llvm::Twine("getOp: no registered op named '") + name +
                               "' (register it, or use getOrCreateUnknownOp for an op the "
                               "registry may not know)",
                           /*gen_crash_diag=*/false);
}

Op graft::getOrCreateUnknownOp(llvm::StringRef fullName) {
  ensureRegistered();
  std::lock_guard<std::recursive_mutex> lock(rawRegistry().mutex);
  if (OpEntry *e = findRegistered(fullName))
    return e->node;
  if (OpEntry *e = findEntry(fullName))
    return e->node;
  OpInfo info;
  info.name = fullName.str();
  info.unknown = true;
  info.pure = true;           // As annotated: the parser has nothing else to go by.
  info.deterministic = false; // Nothing known about it: never merge two calls.
  OpParam rest;
  rest.name = "args";
  rest.kind = ParamKind::VarArgs;
  info.params.push_back(std::move(rest));
  return addEntry(std::move(info)).node;
}

std::vector<const OpInfo *> graft::builtinOps() {
  ensureRegistered();
  Registry &reg = rawRegistry();
  std::lock_guard<std::recursive_mutex> lock(reg.mutex);
  std::vector<const OpInfo *> out;
  out.reserve(reg.builtinCount);
  for (size_t i = 0; i < reg.builtinCount; ++i)
    out.push_back(reg.entries[i].info.get());
  return out;
}

std::vector<const OpInfo *> graft::allOps() {
  ensureRegistered();
  Registry &reg = rawRegistry();
  std::lock_guard<std::recursive_mutex> lock(reg.mutex);
  std::vector<const OpInfo *> out;
  out.reserve(reg.entries.size());
  for (const OpEntry &e : reg.entries)
    if (!e.info->unknown)
      out.push_back(e.info.get());
  return out;
}

//===----------------------------------------------------------------------===//
// Call inference and purity
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> graft::inferCallSInfo(const CallNode &call, const InferContext &ctx) {
  if (const OpInfo *info = call.opInfo()) {
    if (info->unknown)
      return diagError(call.loc, "unknown op " + scriptSpelling(*info) +
                                     ": annotate the binding or register the op");
    // TVM infers a call with a DTensor argument by the op's distributed rule.
    for (const Expr &arg : call.args)
      if (arg && llvm::isa_and_nonnull<DTensorSInfoNode>(arg->sinfo.get()))
        return opdef::inferDistributedCall(call, *info, ctx);
    if (!info->infer)
      return diagError(call.loc, scriptSpelling(*info) + " has no struct info inference: "
                                                         "annotate the binding");
    return info->infer(call, ctx);
  }
  const StructInfoNode *calleeSInfo = call.op ? call.op->sinfo.get() : nullptr;
  if (const auto *func = llvm::dyn_cast_or_null<FuncSInfoNode>(calleeSInfo))
    return deriveCallRetSInfo(*func, call);
  return diagError(call.loc, "the callee of a call must have function struct info "
                             "(R.Callable); it has none");
}

bool graft::isImpureCall(const CallNode &call) {
  if (const OpInfo *info = call.opInfo())
    return !info->pure;
  const StructInfoNode *calleeSInfo = call.op ? call.op->sinfo.get() : nullptr;
  if (const auto *func = llvm::dyn_cast_or_null<FuncSInfoNode>(calleeSInfo))
    return !func->purity;
  return false;
}
