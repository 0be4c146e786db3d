//===- transforms/Passes.cpp - Registration of every pass -------------------===//

#include "transforms/Passes.h"

#include "pass/Pass.h"

using namespace graft;

void graft::registerAllPasses() {
  static bool registered = [] {
    registerCanonicalizeBindingsPass();
    registerDeadCodeEliminationPass();
    registerFuseMaskedCopyPass();
    registerFuseElementwisePass();
    registerRemoveDeviceAssertsPass();
    registerLegalizeOpsPass();
    registerKillAfterLastUsePass();
    registerStaticPlanBlockMemoryPass();
    registerRewriteCUDAGraphPass();
    registerStageCUDAGraphInputsPass();
    registerVMShapeLowerPass();
    registerToNonDataflowPass();
    registerRemovePurityCheckingPass();
    registerCallTIRRewritePass();
    registerLowerAllocTensorPass();
    registerLowerRuntimeBuiltinPass();
    registerComputePrimValuePass();
    registerAttachGlobalSymbolPass();
    // TVM's VM finalize pipeline; a pipeline's text is parsed only when it is
    // used, so it may name passes registered after it.
    registerPipeline({"finalize", "TVM's VM finalize pipeline",
                      "to-non-dataflow,remove-purity-checking,call-tir-rewrite,"
                      "static-plan-block-memory,rewrite-cuda-graph,lower-alloc-tensor,"
                      "kill-after-last-use,lower-runtime-builtin,compute-prim-value,"
                      "vm-shape-lower,attach-global-symbol"});
    // fuse-elementwise groups high-level op calls, so it runs before
    // legalize-ops turns them into kernel calls (docs/fusion.md).
    registerPipeline({"build-cpu", "What graft build --target cpu runs before code generation",
                      "fuse-elementwise,legalize-ops,finalize"});
    // Fused groups run as CUDA C++ that NVRTC compiles when the executable
    // loads (kernels/FusedCuda.h; docs/cuda.md, "Fused kernels").
    // fuse-masked-copy and remove-device-asserts come first: they take the
    // host reads out of masked copies and device checks, so that these need
    // no stream wait and can run inside CUDA graphs; stage-cuda-graph-inputs
    // (only with graphs on) lets graphs take in what reads activation inputs
    // (docs/cuda-graphs.md).
    registerPipeline({"build-cuda", "What graft build --target cuda runs before code generation",
                      "fuse-masked-copy,remove-device-asserts,fuse-elementwise,legalize-ops,"
                      "stage-cuda-graph-inputs,finalize"});
    registerTestDropBindingPass();
    registerTestRemovePrintPass();
    return true;
  }();
  (void)registered;
}
