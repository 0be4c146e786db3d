//===- transforms/PassRegistry.cpp - Pass and pipeline registry -------------===//

#include "transforms/Pass.h"
#include "transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"

#include <deque>

using namespace graft;

Pass::~Pass() = default;

namespace {
struct Registry {
  // Deques keep element addresses stable across registration.
  std::deque<PassInfo> passes;
  std::deque<PipelineInfo> pipelines;
  llvm::StringMap<const PassInfo *> passByName;
  llvm::StringMap<const PipelineInfo *> pipelineByName;
};

Registry &rawRegistry() {
  static Registry registry;
  return registry;
}

Registry &registry() {
  static bool initialized = [] {
    registerAllPasses();
    return true;
  }();
  (void)initialized;
  return rawRegistry();
}
} // namespace

void graft::registerAllPasses() {
  registerCanonicalizeBindingsPass();
  registerDeadCodeEliminationPass();
  registerFuseMaskedCopyPass();
  registerRemoveDeviceAssertsPass();
  registerKillAfterLastUsePass();
  registerStaticPlanBlockMemoryPass();
  registerRewriteCUDAGraphPass();
  registerVMShapeLowerPass();
  registerToNonDataflowPass();
  registerRemovePurityCheckingPass();
  registerCallTIRRewritePass();
  registerLowerAllocTensorPass();
  registerLowerRuntimeBuiltinPass();
  registerComputePrimValuePass();
  registerAttachGlobalSymbolPass();
  // TVM's VM finalize pipeline (docs/passes.md); a pipeline's text is parsed only
  // when it is used, so it is registered before every pass of it exists.
  registerPipeline({"finalize", "TVM's VM finalize pipeline",
                    "to-non-dataflow,remove-purity-checking,call-tir-rewrite,"
                    "static-plan-block-memory,rewrite-cuda-graph,lower-alloc-tensor,"
                    "kill-after-last-use,lower-runtime-builtin,compute-prim-value,"
                    "vm-shape-lower,attach-global-symbol"});
  registerTestDropBindingPass();
  registerTestRemovePrintPass();
}

void graft::registerPass(PassInfo info) {
  Registry &r = rawRegistry();
  r.passes.push_back(std::move(info));
  const PassInfo *p = &r.passes.back();
  r.passByName[p->name] = p;
  if (!p->alias.empty())
    r.passByName[p->alias] = p;
}

void graft::registerPipeline(PipelineInfo info) {
  Registry &r = rawRegistry();
  r.pipelines.push_back(std::move(info));
  r.pipelineByName[r.pipelines.back().name] = &r.pipelines.back();
}

const PassInfo *graft::lookupPass(llvm::StringRef name) {
  return registry().passByName.lookup(name);
}

const PipelineInfo *graft::lookupPipeline(llvm::StringRef name) {
  return registry().pipelineByName.lookup(name);
}

std::vector<const PassInfo *> graft::allPasses() {
  std::vector<const PassInfo *> out;
  for (const PassInfo &p : registry().passes)
    out.push_back(&p);
  llvm::sort(out, [](const PassInfo *a, const PassInfo *b) { return a->name < b->name; });
  return out;
}

std::vector<const PipelineInfo *> graft::allPipelines() {
  std::vector<const PipelineInfo *> out;
  for (const PipelineInfo &p : registry().pipelines)
    out.push_back(&p);
  return out;
}

//===----------------------------------------------------------------------===//
// Options and context
//===----------------------------------------------------------------------===//

static bool parseBool(llvm::StringRef v, bool &out) {
  if (v == "true" || v == "1") {
    out = true;
    return true;
  }
  if (v == "false" || v == "0") {
    out = false;
    return true;
  }
  return false;
}

bool PassOptions::getBool(llvm::StringRef name) const {
  bool b = false;
  parseBool(values_.lookup(name), b);
  return b;
}

int64_t PassOptions::getInt(llvm::StringRef name) const {
  int64_t v = 0;
  (void)llvm::StringRef(values_.lookup(name)).getAsInteger(10, v);
  return v;
}

const std::string &PassOptions::getString(llvm::StringRef name) const {
  static const std::string empty;
  auto it = values_.find(name);
  return it == values_.end() ? empty : it->second;
}

std::vector<std::string> PassOptions::getList(llvm::StringRef name) const {
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  llvm::StringRef(getString(name)).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts)
    out.push_back(p.trim().str());
  return out;
}

llvm::Expected<PassOptions>
PassOptions::build(llvm::StringRef passName, const std::vector<PassOptionSpec> &specs,
                   const std::vector<std::pair<std::string, std::string>> &given) {
  PassOptions opts;
  for (const PassOptionSpec &s : specs)
    opts.values_[s.name] = s.defaultValue;
  for (const auto &[key, value] : given) {
    const PassOptionSpec *spec = nullptr;
    for (const PassOptionSpec &s : specs)
      if (s.name == key)
        spec = &s;
    if (!spec)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "pass '" + passName.str() + "' has no option '" + key + "'");
    bool b;
    int64_t i;
    if (spec->kind == PassOptionSpec::Kind::Bool && !parseBool(value, b))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "option '" + key + "' of pass '" + passName.str() +
                                         "' expects true or false, got '" + value + "'");
    if (spec->kind == PassOptionSpec::Kind::Int && llvm::StringRef(value).getAsInteger(10, i))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "option '" + key + "' of pass '" + passName.str() +
                                         "' expects an integer, got '" + value + "'");
    opts.values_[key] = value;
  }
  return opts;
}

bool PassContext::configBool(llvm::StringRef key, bool defaultValue) const {
  auto it = config.find(key.str());
  if (it == config.end())
    return defaultValue;
  // Python spellings (True/False) are accepted too.
  bool b = defaultValue;
  parseBool(llvm::StringRef(it->second).lower(), b);
  return b;
}

void PassContext::addStat(llvm::StringRef pass, llvm::StringRef name, int64_t n) {
  stats_[(pass + "." + name).str()] += n;
}
