//===- ir/ops/OpDefs.h - Op definition entry points -------------*- C++ -*-===//
//
// Each op definition file (ir/ops/*.cpp) exposes one function that registers
// its ops. ir/OpRegistry.cpp calls all of them, once, the first time the
// registry is queried. Calling them by name (rather than registering from
// static initializers) keeps the static linker from dropping the op files
// out of the graft_ir archive.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OPS_OPDEFS_H
#define GRAFT_IR_OPS_OPDEFS_H

namespace graft {

/// Call forms (call_tir, call_packed, ...), memory/vm/builtin ops,
/// null_value, shape_of, print, assert_op and the like.
void registerCoreOps();
void registerElementwiseOps();
void registerManipulationOps();
void registerReductionOps();
void registerNNOps();
void registerIndexOps();
void registerCreationOps();
void registerLinalgOps();
void registerLayoutOps();
void registerConvOps();
void registerParityOps();
/// Losses, dropout, group/instance norm, grad.*, wrap_param, call_py_func.
void registerTrainingOps();
/// relax.inspect.*: a tensor's DLTensor fields (A.dtype.bits, A.shape[i], ...).
void registerInspectOps();
void registerDistributedOps();
/// multinomial_from_uniform, vision.all_class_non_max_suppression.
void registerSamplingVisionOps();
/// gather_elements, gather_nd, scatter_nd, slice_scatter, nn.pad, nn.pixel_shuffle,
/// median, unique, image.resize2d, image.grid_sample.
void registerBatchBOps();

} // namespace graft

#endif // GRAFT_IR_OPS_OPDEFS_H
