//===- ir/StructInfo.h - Relax struct info ----------------------*- C++ -*-===//
//
// Struct info is Relax's static description of a value (TVM `include/tvm/relax/struct_info.h`):
// Object, Prim, Shape, Tensor (with an optional vdevice), Tuple and Func.
// The algorithms over it (subtyping, LCA, erasure of out-of-scope symbolic
// vars, call return derivation) live in ir/StructInfoAnalysis.h.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_STRUCTINFO_H
#define GRAFT_IR_STRUCTINFO_H

#include "ir/Attrs.h"
#include "ir/DataType.h"
#include "ir/Node.h"
#include "ir/PrimExpr.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace graft {

class ExprNode;
using Expr = Ref<ExprNode>;

/// A virtual device of a module's `global_infos["vdevice"]`.
class VDeviceNode : public Node {
public:
  std::string targetKind; ///< "cuda", "llvm", ...
  AttrDict targetConfig;  ///< The full target dict when the text gives one.
  int64_t vdeviceId = 0;
  std::string memoryScope = "global";
  VDeviceNode(std::string targetKind, AttrDict targetConfig, int64_t vdeviceId,
              std::string memoryScope)
      : Node(NodeKind::VDevice), targetKind(std::move(targetKind)),
        targetConfig(std::move(targetConfig)), vdeviceId(vdeviceId),
        memoryScope(std::move(memoryScope)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::VDevice; }
};
using VDevice = Ref<VDeviceNode>;

/// A relax.distributed device mesh (`R.device_mesh((2, 2), I.Range(0, 4))`), kept in a
/// module's global infos and named by DTensor struct info as "mesh[0]".
class DeviceMeshNode : public Node {
public:
  std::vector<int64_t> shape;
  std::vector<int64_t> deviceIds;
  /// `I.Range(begin, end)` when the mesh was written with one (TVM keeps it
  /// and prints it instead of the ids).
  llvm::Optional<std::pair<int64_t, int64_t>> range;
  DeviceMeshNode(std::vector<int64_t> shape, std::vector<int64_t> deviceIds,
                 llvm::Optional<std::pair<int64_t, int64_t>> range)
      : Node(NodeKind::DeviceMesh), shape(std::move(shape)), deviceIds(std::move(deviceIds)),
        range(range) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::DeviceMesh; }
};
using DeviceMesh = Ref<DeviceMeshNode>;

/// A placement: per mesh dimension, the tensor axis sharded over it, or
/// kReplica (TVM's `"S[0], R"`).
using Placement = llvm::SmallVector<int32_t, 2>;
inline constexpr int32_t kReplica = -1;
/// TVM's Placement::ToString: `S[0], R`.
std::string placementText(const Placement &p);
/// TVM's Placement::FromText; None for text it rejects.
llvm::Optional<Placement> parsePlacement(llvm::StringRef text);

class StructInfoNode : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::FirstSInfo && n->getKind() <= NodeKind::LastSInfo;
  }

protected:
  explicit StructInfoNode(NodeKind kind) : Node(kind) {}
};
using StructInfo = Ref<StructInfoNode>;

/// `R.Object`: any value.
class ObjectSInfoNode : public StructInfoNode {
public:
  ObjectSInfoNode() : StructInfoNode(NodeKind::ObjectSInfo) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::ObjectSInfo; }
};

/// `R.Prim("int64")` or `R.Prim(value=n)`.
class PrimSInfoNode : public StructInfoNode {
public:
  DataType dtype;
  PrimExpr value; ///< Null when only the dtype is known.
  PrimSInfoNode(DataType dtype, PrimExpr value = nullptr)
      : StructInfoNode(NodeKind::PrimSInfo), dtype(dtype), value(std::move(value)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimSInfo; }
};

/// `R.Shape([n, 4])`, `R.Shape(ndim=2)`, `R.Shape` (ndim -1).
class ShapeSInfoNode : public StructInfoNode {
public:
  llvm::Optional<std::vector<PrimExpr>> values;
  int ndim; ///< -1: unknown. Equals values->size() when values are known.
  explicit ShapeSInfoNode(std::vector<PrimExpr> vals)
      : StructInfoNode(NodeKind::ShapeSInfo), values(std::move(vals)),
        ndim(static_cast<int>(values->size())) {}
  explicit ShapeSInfoNode(int ndim) : StructInfoNode(NodeKind::ShapeSInfo), ndim(ndim) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::ShapeSInfo; }
};

/// `R.Tensor((n, 4), dtype="float32", vdevice=...)`.
class TensorSInfoNode : public StructInfoNode {
public:
  Expr shape;     ///< Null, a ShapeExpr, or a Var with Shape struct info.
  DataType dtype; ///< void: unknown.
  int ndim;       ///< -1: unknown; taken from the shape when it is known.
  VDevice vdevice;
  TensorSInfoNode(Expr shape, DataType dtype, int ndim, VDevice vdevice = nullptr);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::TensorSInfo; }

  /// The dims when the shape is a ShapeExpr; null otherwise.
  const std::vector<PrimExpr> *shapeValues() const;
};

/// `R.Tuple(a, b)`; the empty tuple is Relax's "void".
class TupleSInfoNode : public StructInfoNode {
public:
  std::vector<StructInfo> fields;
  explicit TupleSInfoNode(std::vector<StructInfo> fields)
      : StructInfoNode(NodeKind::TupleSInfo), fields(std::move(fields)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::TupleSInfo; }
};

/// `R.Callable((params), ret, purity)`; params absent means opaque.
class FuncSInfoNode : public StructInfoNode {
public:
  llvm::Optional<std::vector<StructInfo>> params;
  StructInfo ret;
  bool purity;
  std::string deriveFunc; ///< Empty: none. ExternFunc's default names one.
  FuncSInfoNode(llvm::Optional<std::vector<StructInfo>> params, StructInfo ret, bool purity,
                std::string deriveFunc = {})
      : StructInfoNode(NodeKind::FuncSInfo), params(std::move(params)), ret(std::move(ret)),
        purity(purity), deriveFunc(std::move(deriveFunc)) {}
  bool isOpaque() const { return !params.hasValue(); }
  static bool classof(const Node *n) { return n->getKind() == NodeKind::FuncSInfo; }
};

/// `R.DTensor((8, 4), "float16", "mesh[0]", "S[0]")`: a tensor distributed
/// over a device mesh (relax.distributed's DTensorStructInfo). `tensor` is
/// the global view.
class DTensorSInfoNode : public StructInfoNode {
public:
  Ref<TensorSInfoNode> tensor;
  DeviceMesh mesh;
  Placement placement; ///< One entry per mesh dimension.
  DTensorSInfoNode(Ref<TensorSInfoNode> tensor, DeviceMesh mesh, Placement placement)
      : StructInfoNode(NodeKind::DTensorSInfo), tensor(std::move(tensor)), mesh(std::move(mesh)),
        placement(std::move(placement)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::DTensorSInfo; }
};

/// The name of the derive function ExternFunc's default struct info carries.
inline constexpr const char *kInferBySInfoArgs = "tvm.relax.struct_info.infer_by_sinfo_args";

//===----------------------------------------------------------------------===//
// Shared constructors for the common cases.
//===----------------------------------------------------------------------===//

StructInfo objectSInfo();
StructInfo voidSInfo(); ///< R.Tuple()
StructInfo primSInfo(DataType dtype);
StructInfo primValueSInfo(PrimExpr value);
StructInfo shapeSInfo(std::vector<PrimExpr> values);
StructInfo shapeSInfoNDim(int ndim);
/// A tensor with a ShapeExpr shape built from `dims`.
StructInfo tensorSInfo(std::vector<PrimExpr> dims, DataType dtype, VDevice vdevice = nullptr);
StructInfo tensorSInfoNDim(int ndim, DataType dtype, VDevice vdevice = nullptr);
StructInfo tupleSInfo(std::vector<StructInfo> fields);

bool isVoidSInfo(const StructInfoNode *s);
/// Equal shape, device ids and range (TVM compares meshes structurally).
bool sameDeviceMesh(const DeviceMeshNode *a, const DeviceMeshNode *b);
/// `d` with its global view replaced by `tensor` (`d` itself when that is
/// d's own; the tensor alone when `tensor` is not a TensorSInfo).
StructInfo withDTensorView(const DTensorSInfoNode *d, const StructInfo &tensor);

} // namespace graft

#endif // GRAFT_IR_STRUCTINFO_H
