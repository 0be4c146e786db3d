//===- kernels/cpu/TensorIter.cpp - Shared machinery of the CPU kernels ---===//

#include "kernels/cpu/TensorIter.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace graft::kernels::cpu {

std::optional<ScalarType> scalarTypeOf(DLDataType t) {
  if (t.lanes != 1)
    return std::nullopt;
  switch (t.code) {
  case kDLInt:
    switch (t.bits) {
    case 8:
      return ScalarType::Int8;
    case 16:
      return ScalarType::Int16;
    case 32:
      return ScalarType::Int32;
    case 64:
      return ScalarType::Int64;
    }
    break;
  case kDLUInt:
    if (t.bits == 8)
      return ScalarType::UInt8;
    break;
  case kDLFloat:
    switch (t.bits) {
    case 16:
      return ScalarType::Float16;
    case 32:
      return ScalarType::Float32;
    case 64:
      return ScalarType::Float64;
    }
    break;
  case kDLBfloat:
    if (t.bits == 16)
      return ScalarType::BFloat16;
    break;
  case kGraftDLBool:
    if (t.bits == 8)
      return ScalarType::Bool;
    break;
  }
  return std::nullopt;
}

DLDataType dlTypeOf(ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
    return {kGraftDLBool, 8, 1};
  case ScalarType::Int8:
    return {kDLInt, 8, 1};
  case ScalarType::Int16:
    return {kDLInt, 16, 1};
  case ScalarType::Int32:
    return {kDLInt, 32, 1};
  case ScalarType::Int64:
    return {kDLInt, 64, 1};
  case ScalarType::UInt8:
    return {kDLUInt, 8, 1};
  case ScalarType::Float16:
    return {kDLFloat, 16, 1};
  case ScalarType::BFloat16:
    return {kDLBfloat, 16, 1};
  case ScalarType::Float32:
    return {kDLFloat, 32, 1};
  case ScalarType::Float64:
    return {kDLFloat, 64, 1};
  }
  llvm_unreachable("covered switch");
}

std::string dtypeName(DLDataType t) {
  std::string base;
  switch (t.code) {
  case kDLInt:
    base = "int";
    break;
  case kDLUInt:
    base = "uint";
    break;
  case kDLFloat:
    base = "float";
    break;
  case kDLBfloat:
    base = "bfloat";
    break;
  case kGraftDLBool:
    base = t.bits == 8 ? "bool" : "bool" + std::to_string(t.bits);
    break;
  default:
    base = "code" + std::to_string(t.code) + "_";
    break;
  }
  if (t.code != kGraftDLBool)
    base += std::to_string(t.bits);
  if (t.lanes != 1)
    base += "x" + std::to_string(t.lanes);
  return base;
}

int64_t elemBytes(ScalarType t) { return dlTypeOf(t).bits / 8; }

int64_t numelOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t View::numel() const { return numelOf(shape); }

View View::permuted(llvm::ArrayRef<int64_t> perm) const {
  View r = *this;
  for (size_t i = 0; i < perm.size(); ++i) {
    r.shape[i] = shape[perm[i]];
    r.strides[i] = strides[perm[i]];
  }
  return r;
}

View View::axisLast(int64_t axis) const {
  Dims perm;
  for (int64_t d = 0; d < ndim(); ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  return permuted(perm);
}

View View::sliced(int64_t axis, int64_t begin, int64_t len, int64_t step) const {
  View r = *this;
  // An empty slice never dereferences, so its start may lie past the end.
  if (len > 0)
    r.data += begin * strides[axis];
  r.shape[axis] = len;
  // One element never steps; a longer slice fits in the axis, so its step
  // is below the axis length and the product cannot overflow.
  if (len > 1)
    r.strides[axis] = strides[axis] * step;
  return r;
}

View View::at(int64_t axis, int64_t index) const {
  View r = *this;
  r.data += index * strides[axis];
  r.shape.erase(r.shape.begin() + axis);
  r.strides.erase(r.strides.begin() + axis);
  return r;
}

View View::select(llvm::ArrayRef<int64_t> dims) const {
  View r = *this;
  r.shape.clear();
  r.strides.clear();
  for (int64_t d : dims) {
    r.shape.push_back(shape[d]);
    r.strides.push_back(strides[d]);
  }
  return r;
}

char *View::ptr(llvm::ArrayRef<int64_t> idx) const {
  char *p = data;
  for (size_t d = 0; d < idx.size(); ++d)
    p += idx[d] * strides[d];
  return p;
}

char *View::elementAt(int64_t flat) const {
  char *p = data;
  for (int64_t d = ndim() - 1; d >= 0; --d) {
    p += (flat % shape[d]) * strides[d];
    flat /= shape[d];
  }
  return p;
}

std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Dims shapeOf(const DLTensor &t) { return Dims(t.shape, t.shape + t.ndim); }

Dims contiguousStrides(llvm::ArrayRef<int64_t> shape, int64_t elemSize) {
  Dims s(shape.size());
  int64_t acc = elemSize;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    s[d] = acc;
    acc *= std::max<int64_t>(shape[d], 1);
  }
  return s;
}

void RowMajorCursor::next() {
  for (int64_t d = int64_t(idx.size()) - 1; d >= 0; --d) {
    p += v.strides[d];
    if (++idx[d] < v.shape[d])
      return;
    p -= v.strides[d] * v.shape[d];
    idx[d] = 0;
  }
}

void copyRowMajor(const View &src, const View &dst) {
  int64_t n = src.numel();
  int64_t bytes = src.elemSize();
  RowMajorCursor s(src), d(dst);
  for (int64_t i = 0; i < n; ++i, s.next(), d.next())
    std::memmove(d.get(), s.get(), bytes);
}

void copySameShape(const View &src, const View &dst) {
  int64_t bytes = src.elemSize();
  forEach<2>(dst.shape, {&dst, &src},
             [bytes](const std::array<char *, 2> &p) { std::memmove(p[0], p[1], bytes); });
}

//===----------------------------------------------------------------------===//
// Ctx
//===----------------------------------------------------------------------===//

bool Ctx::fail(const llvm::Twine &msg) {
  if (err.empty())
    err = msg.str();
  return false;
}

llvm::Error Ctx::error() const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), (symbol + ": " + err).str());
}

llvm::Error Ctx::finish() const { return ok() ? llvm::Error::success() : error(); }

bool Ctx::checkTensor(const DLTensor *t, llvm::StringRef role, size_t i) {
  std::string what = (role + " " + llvm::Twine(i)).str();
  if (!t)
    return fail(what + " is null");
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(what + " is not in host memory (device type " +
                llvm::Twine(int(t->device.device_type)) + ")");
  if (!scalarTypeOf(t->dtype))
    return fail(what + " has unsupported dtype " + dtypeName(t->dtype));
  if (t->ndim < 0 || (t->ndim > 0 && !t->shape))
    return fail(what + " has no valid shape");
  for (int d = 0; d < t->ndim; ++d)
    if (t->shape[d] < 0)
      return fail(what + " has a negative dim " + shapeStr(shapeOf(*t)));
  if (!t->data && numelOf(shapeOf(*t)) != 0)
    return fail(what + " has no data");
  return true;
}

bool Ctx::checkArity(int numInputs, int numOutputs, int minVariadic) {
  auto countOk = [&](int want, size_t got) {
    return want < 0 ? got >= size_t(minVariadic) : got == size_t(want);
  };
  auto wantStr = [&](int want) {
    return want < 0 ? "at least " + std::to_string(minVariadic) : std::to_string(want);
  };
  if (!countOk(numInputs, numIn()))
    return fail("expects " + wantStr(numInputs) + " inputs, got " + llvm::Twine(numIn()));
  if (!countOk(numOutputs, numOut()))
    return fail("expects " + wantStr(numOutputs) + " outputs, got " + llvm::Twine(numOut()));
  for (size_t i = 0; i < numIn(); ++i)
    if (!checkTensor(args.inputs[i], "input", i))
      return false;
  for (size_t i = 0; i < numOut(); ++i)
    if (!checkTensor(args.outputs[i], "output", i))
      return false;
  return true;
}

View Ctx::viewOf(const DLTensor &t) {
  View v;
  v.type = *scalarTypeOf(t.dtype);
  v.data = static_cast<char *>(t.data);
  if (v.data)
    v.data += t.byte_offset;
  v.shape = shapeOf(t);
  if (t.strides) {
    v.strides.assign(t.strides, t.strides + t.ndim);
    for (int64_t &s : v.strides)
      s *= v.elemSize();
  } else {
    v.strides = contiguousStrides(v.shape, v.elemSize());
  }
  return v;
}

std::optional<View> Ctx::broadcast(const View &v, llvm::ArrayRef<int64_t> shape,
                                   const llvm::Twine &what) {
  if (v.ndim() > int64_t(shape.size())) {
    fail("cannot broadcast " + what + " of shape " + shapeStr(v.shape) + " to " + shapeStr(shape));
    return std::nullopt;
  }
  View r = v;
  int64_t lead = int64_t(shape.size()) - v.ndim();
  r.shape.assign(shape.begin(), shape.end());
  r.strides.assign(shape.size(), 0);
  for (int64_t d = 0; d < v.ndim(); ++d) {
    int64_t have = v.shape[d], want = shape[lead + d];
    if (have == want)
      r.strides[lead + d] = v.strides[d];
    else if (have != 1) {
      fail("cannot broadcast " + what + " of shape " + shapeStr(v.shape) + " to " +
           shapeStr(shape));
      return std::nullopt;
    }
  }
  return r;
}

bool Ctx::expectOutShape(size_t i, llvm::ArrayRef<int64_t> shape) {
  Dims got = shapeOf(out(i));
  if (llvm::ArrayRef<int64_t>(got) != shape)
    return fail("output " + llvm::Twine(i) + " has shape " + shapeStr(got) + ", expected " +
                shapeStr(shape));
  return true;
}

bool Ctx::expectSameType(ScalarType got, ScalarType want, const llvm::Twine &what) {
  if (got != want)
    return fail(what + " has dtype " + dtypeName(dlTypeOf(got)) + ", expected " +
                dtypeName(dlTypeOf(want)));
  return true;
}

std::optional<int64_t> Ctx::axis(int64_t a, int64_t ndim) {
  if (a < -ndim || a >= ndim || ndim == 0) {
    fail("axis " + llvm::Twine(a) + " is out of range for rank " + llvm::Twine(ndim));
    return std::nullopt;
  }
  return a < 0 ? a + ndim : a;
}

const AttrValue *Ctx::attr(size_t i) const {
  if (i >= args.attrs.size() || std::holds_alternative<std::monostate>(args.attrs[i]))
    return nullptr;
  return &args.attrs[i];
}

bool Ctx::hasAttr(size_t i) const { return attr(i) != nullptr; }

int64_t Ctx::intAttr(size_t i, llvm::StringRef name, std::optional<int64_t> dflt) {
  const AttrValue *a = attr(i);
  if (!a) {
    if (!dflt)
      fail("missing attr '" + name + "'");
    return dflt.value_or(0);
  }
  if (auto *v = std::get_if<int64_t>(a))
    return *v;
  if (auto *v = std::get_if<bool>(a))
    return *v;
  fail("attr '" + name + "' must be an integer");
  return 0;
}

double Ctx::floatAttr(size_t i, llvm::StringRef name, std::optional<double> dflt) {
  const AttrValue *a = attr(i);
  if (!a) {
    if (!dflt)
      fail("missing attr '" + name + "'");
    return dflt.value_or(0);
  }
  if (auto *v = std::get_if<double>(a))
    return *v;
  if (auto *v = std::get_if<int64_t>(a))
    return double(*v);
  fail("attr '" + name + "' must be a number");
  return 0;
}

bool Ctx::boolAttr(size_t i, llvm::StringRef name, std::optional<bool> dflt) {
  const AttrValue *a = attr(i);
  if (!a) {
    if (!dflt)
      fail("missing attr '" + name + "'");
    return dflt.value_or(false);
  }
  if (auto *v = std::get_if<bool>(a))
    return *v;
  if (auto *v = std::get_if<int64_t>(a))
    return *v != 0;
  fail("attr '" + name + "' must be a bool");
  return false;
}

std::string Ctx::strAttr(size_t i, llvm::StringRef name, std::optional<std::string> dflt) {
  const AttrValue *a = attr(i);
  if (!a) {
    if (!dflt)
      fail("missing attr '" + name + "'");
    return dflt.value_or("");
  }
  if (auto *v = std::get_if<std::string>(a))
    return *v;
  fail("attr '" + name + "' must be a string");
  return "";
}

Dims Ctx::intListAttr(size_t i, llvm::StringRef name) {
  const AttrValue *a = attr(i);
  if (!a)
    return {};
  if (auto *v = std::get_if<std::vector<int64_t>>(a))
    return Dims(v->begin(), v->end());
  if (auto *v = std::get_if<int64_t>(a))
    return Dims{*v};
  fail("attr '" + name + "' must be a list of integers");
  return {};
}

bool Ctx::needWorkspace(size_t bytes) {
  if (args.workspace.bytes < bytes || (bytes && !args.workspace.data))
    return fail("needs a workspace of " + llvm::Twine(bytes) + " bytes, got " +
                llvm::Twine(args.workspace.bytes));
  return true;
}

std::optional<Dims> broadcastShapes(Ctx &ctx, llvm::ArrayRef<Dims> shapes) {
  size_t rank = 0;
  for (const Dims &s : shapes)
    rank = std::max(rank, s.size());
  Dims r(rank, 1);
  for (const Dims &s : shapes) {
    size_t lead = rank - s.size();
    for (size_t d = 0; d < s.size(); ++d) {
      int64_t &have = r[lead + d];
      if (s[d] == have || s[d] == 1)
        continue;
      if (have != 1) {
        std::string all;
        for (const Dims &t : shapes)
          all += (all.empty() ? "" : " and ") + shapeStr(t);
        ctx.fail("cannot broadcast shapes " + all);
        return std::nullopt;
      }
      have = s[d];
    }
  }
  return r;
}

std::optional<Dims> normalizeAxes(Ctx &ctx, const Dims &axes, int64_t ndim) {
  Dims r;
  for (int64_t a : axes) {
    if (a < -ndim || a >= ndim) {
      ctx.fail("axis " + llvm::Twine(a) + " is out of range for rank " + llvm::Twine(ndim));
      return std::nullopt;
    }
    r.push_back(a < 0 ? a + ndim : a);
  }
  llvm::sort(r);
  if (std::adjacent_find(r.begin(), r.end()) != r.end()) {
    ctx.fail("axes " + shapeStr(axes) + " repeat an axis");
    return std::nullopt;
  }
  return r;
}

} // namespace graft::kernels::cpu
