//===- ir/PrintExpr.cpp - Expressions, calls, constants, attr values --------===//
//
// Literals are always explicit (`R.prim_value`, `R.str`, `R.dtype`,
// `R.shape`); calls print every attr as a keyword in schema order, then
// `sinfo_args=(...)`; the call forms of TVM's printer (call_tir & co,
// call_packed, print/assert_op, hint_on_device) print in their own shapes.
//
//===----------------------------------------------------------------------===//

#include "ir/PrintImpl.h"

#include "ir/IndexMap.h"
#include "ir/Op.h"

#include <cstring>

using namespace graft;
using namespace graft::printer;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

bool graft::printer::hasDefaultSInfo(const ExternFuncNode &ext) {
  const auto *f = llvm::dyn_cast_or_null<FuncSInfoNode>(ext.sinfo.get());
  return f && f->isOpaque() && !f->purity && f->deriveFunc == kInferBySInfoArgs &&
         llvm::isa_and_nonnull<ObjectSInfoNode>(f->ret.get());
}

namespace {

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000 | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      // Subnormal: normalize.
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
    }
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// One element of `data` at byte offset `off`.
void printElement(llvm::raw_ostream &os, const TensorData &data, size_t off) {
  const uint8_t *p = data.bytes.data() + off;
  DataType dt = data.dtype;
  if (dt.isBool()) {
    os << (*p ? "True" : "False");
    return;
  }
  switch (dt.code) {
  case DataType::Int:
    switch (dt.bits) {
    case 8:
      os << static_cast<int>(load<int8_t>(p));
      return;
    case 16:
      os << load<int16_t>(p);
      return;
    case 32:
      os << load<int32_t>(p);
      return;
    default:
      os << load<int64_t>(p);
      return;
    }
  case DataType::UInt:
    switch (dt.bits) {
    case 8:
      os << static_cast<unsigned>(load<uint8_t>(p));
      return;
    case 16:
      os << load<uint16_t>(p);
      return;
    case 32:
      os << load<uint32_t>(p);
      return;
    default:
      os << load<uint64_t>(p);
      return;
    }
  case DataType::Float:
    switch (dt.bits) {
    case 16:
      printFloat32(os, halfToFloat(load<uint16_t>(p)));
      return;
    case 32:
      printFloat32(os, load<float>(p));
      return;
    default:
      printDouble(os, load<double>(p));
      return;
    }
  case DataType::BFloat: {
    uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    printFloat32(os, f);
    return;
  }
  default:
    os << "0";
    return;
  }
}

/// Prints dims [dim, rank) of the row-major array starting at element
/// `first` as nested lists; returns nothing, recursion depth is the rank.
void printNested(llvm::raw_ostream &os, const TensorData &data, size_t dim, int64_t first,
                 int64_t stride, size_t elemBytes) {
  int64_t extent = data.shape[dim];
  int64_t inner = extent > 0 ? stride / extent : 0;
  os << '[';
  for (int64_t i = 0; i < extent; ++i) {
    if (i)
      os << ", ";
    if (dim + 1 == data.shape.size())
      printElement(os, data, static_cast<size_t>(first + i) * elemBytes);
    else
      printNested(os, data, dim + 1, first + i * inner, inner, elemBytes);
  }
  os << ']';
}

} // namespace

bool graft::printer::constantPrintsData(const ConstantNode &c) {
  const TensorData *data = c.data.get();
  if (!data)
    return false;
  size_t elemBytes = data->dtype.isBool() ? 1 : data->dtype.storageBytes();
  int64_t count = data->numElements();
  return elemBytes != 0 && data->bytes.size() >= static_cast<size_t>(count) * elemBytes;
}

void ScriptPrinter::printConstant(llvm::raw_ostream &os, const ConstantNode &c) {
  const TensorData *data = c.data.get();
  // A distributed constant (TVM's R.dist.const) carries its DTensor struct
  // info in place of the dtype.
  const auto *dist = llvm::dyn_cast_or_null<DTensorSInfoNode>(c.sinfo.get());
  os << (dist ? "R.dist.const(" : "R.const(");
  auto finish = [&] {
    if (dist) {
      os << ", ";
      printDTensorSInfo(os, *dist);
      os << ')';
    } else {
      os << ", \"" << dtypeSpelling(data->dtype) << "\")";
    }
  };
  if (!data) {
    os << "0, \"int32\")";
    return;
  }
  if (!constantPrintsData(c)) {
    os << "[], \"" << dtypeSpelling(data->dtype) << "\")"; // Malformed data.
    return;
  }
  size_t elemBytes = data->dtype.isBool() ? 1 : data->dtype.storageBytes();
  int64_t count = data->numElements();
  if (data->shape.empty())
    printElement(os, *data, 0);
  else
    printNested(os, *data, 0, 0, count, elemBytes);
  finish();
}

//===----------------------------------------------------------------------===//
// Attribute values
//===----------------------------------------------------------------------===//

void ScriptPrinter::printAttrValue(llvm::raw_ostream &os, const AttrValue &v) {
  switch (v.kind()) {
  case AttrValue::Kind::None:
    os << "None";
    return;
  case AttrValue::Kind::Bool:
    os << (v.getBool() ? "True" : "False");
    return;
  case AttrValue::Kind::Int:
    os << v.getInt();
    return;
  case AttrValue::Kind::Float:
    printDouble(os, v.getFloat());
    return;
  case AttrValue::Kind::String:
    printQuoted(os, v.getString());
    return;
  case AttrValue::Kind::DType:
    os << '"' << dtypeSpelling(v.getDType()) << '"';
    return;
  case AttrValue::Kind::Prim:
    printPrim(os, v.getPrim().get());
    return;
  case AttrValue::Kind::Array: {
    os << '[';
    bool first = true;
    for (const AttrValue &e : v.getArray()) {
      if (!first)
        os << ", ";
      first = false;
      printAttrValue(os, e);
    }
    os << ']';
    return;
  }
  case AttrValue::Kind::Dict:
    printAttrDict(os, v.getDict());
    return;
  case AttrValue::Kind::SInfo:
    printSInfo(os, v.getSInfo());
    return;
  case AttrValue::Kind::IndexMap:
    // The lambda binds its parameters in a scope of its own (TVM frees
    // their names when the map is printed): they print as named.
    printIndexMap(os, *v.getIndexMap(), [](llvm::raw_ostream &o, const TirVarNode *var) {
      o << (var->name.empty() ? llvm::StringRef("v") : llvm::StringRef(var->name));
    });
    return;
  }
}

void ScriptPrinter::printAttrDict(llvm::raw_ostream &os, const AttrDict &d) {
  os << '{';
  bool first = true;
  for (const auto &[key, value] : d) {
    if (!first)
      os << ", ";
    first = false;
    printQuoted(os, key);
    os << ": ";
    printAttrValue(os, value);
  }
  os << '}';
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

void ScriptPrinter::printGlobalVar(llvm::raw_ostream &os, const GlobalVarNode &g) {
  declareCls();
  os << "cls." << g.name;
}

void ScriptPrinter::printExpr(llvm::raw_ostream &os, const ExprNode *e) {
  if (!e) {
    os << "None";
    return;
  }
  switch (e->getKind()) {
  case NodeKind::Var:
  case NodeKind::DataflowVar: {
    const auto *v = llvm::cast<VarNode>(e);
    os << names_.nameOf(v, v->name);
    return;
  }
  case NodeKind::Constant:
    printConstant(os, *llvm::cast<ConstantNode>(e));
    return;
  case NodeKind::ShapeExpr: {
    const auto *s = llvm::cast<ShapeExprNode>(e);
    os << "R.shape([";
    for (size_t i = 0; i < s->values.size(); ++i) {
      if (i)
        os << ", ";
      printPrim(os, s->values[i].get());
    }
    os << "])";
    return;
  }
  case NodeKind::PrimValue:
    os << "R.prim_value(";
    printPrim(os, llvm::cast<PrimValueNode>(e)->value.get());
    os << ')';
    return;
  case NodeKind::StringImm:
    os << "R.str(";
    printQuoted(os, llvm::cast<StringImmNode>(e)->value);
    os << ')';
    return;
  case NodeKind::DataTypeImm:
    os << "R.dtype(\"" << dtypeSpelling(llvm::cast<DataTypeImmNode>(e)->value) << "\")";
    return;
  case NodeKind::Tuple: {
    const auto *t = llvm::cast<TupleNode>(e);
    if (t->fields.empty()) {
      os << "R.tuple()";
      return;
    }
    os << '(';
    for (size_t i = 0; i < t->fields.size(); ++i) {
      if (i)
        os << ", ";
      printExpr(os, t->fields[i].get());
    }
    os << (t->fields.size() == 1 ? ",)" : ")");
    return;
  }
  case NodeKind::TupleGetItem: {
    const auto *g = llvm::cast<TupleGetItemNode>(e);
    printExpr(os, g->tuple.get());
    os << '[' << g->index << ']';
    return;
  }
  case NodeKind::Call:
    printCall(os, *llvm::cast<CallNode>(e));
    return;
  case NodeKind::ExternFunc: {
    const auto *ext = llvm::cast<ExternFuncNode>(e);
    os << "R.ExternFunc(";
    printQuoted(os, ext->symbol);
    if (!hasDefaultSInfo(*ext)) {
      os << ", ";
      printSInfo(os, ext->sinfo.get());
    }
    os << ')';
    return;
  }
  case NodeKind::GlobalVar:
    printGlobalVar(os, *llvm::cast<GlobalVarNode>(e));
    return;
  case NodeKind::Op: {
    llvm::StringRef name = llvm::cast<OpNode>(e)->name();
    if (name.consume_front("relax."))
      os << "R.";
    os << name;
    return;
  }
  case NodeKind::SeqExpr:
    // Only in non-normalized IR built through the C++ API; the blocks are
    // not expressible inline.
    printExpr(os, llvm::cast<SeqExprNode>(e)->body.get());
    return;
  case NodeKind::If: {
    const auto *i = llvm::cast<IfNode>(e);
    os << "R.If(";
    printExpr(os, i->cond.get());
    os << ')';
    return;
  }
  case NodeKind::Function:
    os << "R.function(...)";
    return;
  default:
    os << "<?>";
    return;
  }
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void ScriptPrinter::printCallArg(llvm::raw_ostream &os, const ExprNode *e, bool first) {
  if (first) {
    // The string form reads back with the default struct info only.
    if (const auto *ext = llvm::dyn_cast_or_null<ExternFuncNode>(e); ext && hasDefaultSInfo(*ext)) {
      printQuoted(os, ext->symbol);
      return;
    }
  }
  printExpr(os, e);
}

void ScriptPrinter::printSInfoArgs(llvm::raw_ostream &os, const CallNode &c, bool first) {
  if (c.sinfoArgs.empty())
    return;
  os << (first ? "" : ", ") << "sinfo_args=(";
  for (size_t i = 0; i < c.sinfoArgs.size(); ++i) {
    if (i)
      os << ", ";
    printSInfo(os, c.sinfoArgs[i].get());
  }
  os << (c.sinfoArgs.size() == 1 ? ",)" : ")");
}

namespace {
void printOpName(llvm::raw_ostream &os, const OpInfo &info) {
  llvm::StringRef name = info.name;
  if (name.consume_front("relax."))
    os << "R.";
  os << name;
}
} // namespace

void ScriptPrinter::printCall(llvm::raw_ostream &os, const CallNode &c) {
  if (const OpInfo *info = c.opInfo()) {
    printOpCall(os, c, *info);
    return;
  }
  bool first = true;
  // An ExternFunc with struct info of its own (the pure view of lower-runtime-builtin) is called
  // as written, R.ExternFunc("sym", R.Callable(...))(args), so that the struct info survives.
  if (const auto *ext = llvm::dyn_cast_or_null<ExternFuncNode>(c.op.get());
      ext && hasDefaultSInfo(*ext)) {
    os << "R.call_packed(";
    printQuoted(os, ext->symbol);
    first = false;
  } else {
    printExpr(os, c.op.get());
    os << '(';
  }
  for (const Expr &a : c.args) {
    if (!first)
      os << ", ";
    first = false;
    printExpr(os, a.get());
  }
  if (c.attrs)
    for (const auto &[key, value] : c.attrs->entries) {
      os << (first ? "" : ", ") << key << '=';
      first = false;
      printAttrValue(os, value);
    }
  if (llvm::isa<ExternFuncNode>(c.op.get()))
    printSInfoArgs(os, c, first);
  os << ')';
}

void ScriptPrinter::printOpCall(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info) {
  switch (info.textForm) {
  case TextForm::CallTIR:
  case TextForm::CallTIRInplace:
  case TextForm::CallDPSPacked:
    printCallTIR(os, c, info);
    return;
  case TextForm::PrintOrAssert:
    printPrintOrAssert(os, c, info);
    return;
  case TextForm::HintOnDevice:
    printHintOnDevice(os, c, info);
    return;
  default:
    printGenericOp(os, c, info);
    return;
  }
}

void ScriptPrinter::printCallTIR(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info) {
  printOpName(os, info);
  os << '(';
  for (size_t i = 0; i < 2 && i < c.args.size(); ++i) {
    if (i)
      os << ", ";
    printCallArg(os, c.args[i].get(), i == 0);
  }
  if (!c.sinfoArgs.empty()) {
    os << ", out_sinfo=";
    const auto *tuple = llvm::dyn_cast<TupleSInfoNode>(c.sinfoArgs[0].get());
    if (tuple) {
      os << '[';
      for (size_t i = 0; i < tuple->fields.size(); ++i) {
        if (i)
          os << ", ";
        printSInfo(os, tuple->fields[i].get());
      }
      os << ']';
    } else {
      printSInfo(os, c.sinfoArgs[0].get());
    }
  }
  if (c.attrs)
    for (const auto &[key, value] : c.attrs->entries) {
      // call_tir_with_grad: TVM leaves out empty te_grad_kwargs.
      if (key == "te_grad_kwargs" && value.kind() == AttrValue::Kind::Dict &&
          value.getDict().empty())
        continue;
      os << ", " << key << '=';
      printAttrValue(os, value);
    }
  if (c.args.size() > 2) {
    os << ", tir_vars=";
    printExpr(os, c.args[2].get());
  }
  os << ')';
}

void ScriptPrinter::printPrintOrAssert(llvm::raw_ostream &os, const CallNode &c,
                                       const OpInfo &info) {
  // The format StringImm is stored first (print) or second (assert_op).
  size_t formatIndex = info.name == "relax.assert_op" ? 1 : 0;
  printOpName(os, info);
  os << '(';
  bool first = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i == formatIndex)
      continue;
    if (!first)
      os << ", ";
    first = false;
    printExpr(os, c.args[i].get());
  }
  if (formatIndex < c.args.size()) {
    os << (first ? "" : ", ") << "format=";
    printExpr(os, c.args[formatIndex].get());
  }
  os << ')';
}

void ScriptPrinter::printHintOnDevice(llvm::raw_ostream &os, const CallNode &c,
                                      const OpInfo &info) {
  const AttrValue *type = c.attrs ? c.attrs->lookup("device_type") : nullptr;
  const AttrValue *index = c.attrs ? c.attrs->lookup("index") : nullptr;
  const AttrValue *scope = c.attrs ? c.attrs->lookup("memory_scope") : nullptr;
  if (!type || !index || c.args.size() != 1) {
    printGenericOp(os, c, info);
    return;
  }
  printOpName(os, info);
  os << '(';
  printExpr(os, c.args[0].get());
  os << ", R.device(device_type=";
  printAttrValue(os, *type);
  os << ", index=";
  printAttrValue(os, *index);
  os << ')';
  if (scope) {
    os << ", ";
    printAttrValue(os, *scope);
  }
  os << ')';
}

void ScriptPrinter::printGenericOp(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info) {
  printOpName(os, info);
  os << '(';
  bool first = true;
  auto sep = [&] {
    if (!first)
      os << ", ";
    first = false;
  };
  // Args follow the wrapper's parameter order. Once an attr parameter has
  // been passed over, a later arg must be a keyword: positionally the parser
  // would give it to that attr.
  size_t next = 0;
  bool keyword = false;
  for (const OpParam &p : info.params) {
    if (p.kind == ParamKind::Attr) {
      keyword = true;
      continue;
    }
    if (p.kind == ParamKind::VarArgs) {
      for (; next < c.args.size(); ++next) {
        sep();
        printCallArg(os, c.args[next].get(), next == 0);
      }
      continue;
    }
    if (next >= c.args.size())
      break;
    sep();
    if (keyword)
      os << p.name << '=';
    printCallArg(os, c.args[next].get(), next == 0);
    ++next;
  }
  for (; next < c.args.size(); ++next) { // More args than params: as written.
    sep();
    printCallArg(os, c.args[next].get(), next == 0);
  }
  if (c.attrs) {
    // Schema order first (the attrs already are, for a parsed call), then
    // whatever the schema does not name, as written.
    llvm::SmallVector<bool, 8> done(c.attrs->entries.size(), false);
    for (const OpParam &p : info.params) {
      if (p.kind != ParamKind::Attr)
        continue;
      for (size_t i = 0; i < c.attrs->entries.size(); ++i) {
        if (done[i] || c.attrs->entries[i].first != p.name)
          continue;
        done[i] = true;
        sep();
        os << p.name << '=';
        printAttrValue(os, c.attrs->entries[i].second);
        break;
      }
    }
    for (size_t i = 0; i < c.attrs->entries.size(); ++i) {
      if (done[i])
        continue;
      sep();
      os << c.attrs->entries[i].first << '=';
      printAttrValue(os, c.attrs->entries[i].second);
    }
  }
  printSInfoArgs(os, c, first);
  os << ')';
}
