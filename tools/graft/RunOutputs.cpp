//===- tools/graft/RunOutputs.cpp - graft run outputs and reports ---------===//
//
// A result is walked with a work list (tuples nest): each leaf gets a
// path-like name (output, output_0, output_1_0, ...) and becomes one .npy
// file under --out or one printed line.
//
//===----------------------------------------------------------------------===//

#include "RunSupport.h"

#include "kernels/Kernel.h"
#include "kernels/cpu/TensorIter.h"
#include "vm/FusedKernels.h"
#include "vm/Npy.h"
#include "vm/ScalarProgram.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>

using namespace graft;
using namespace graft::driver;
using vm::Value;

namespace {

/// Calls `fn(name, leaf)` on each non-tuple value, in field order.
void forEachOutput(const Value &root,
                   llvm::function_ref<void(const std::string &, const Value &)> fn) {
  llvm::SmallVector<std::pair<Value, std::string>, 8> work;
  work.push_back({root, "output"});
  bool top = true;
  while (!work.empty()) {
    auto [v, name] = work.pop_back_val();
    auto *t = v.as<vm::TupleObj>();
    if (!t) {
      fn(name, v);
      top = false;
      continue;
    }
    for (size_t i = t->fields.size(); i-- > 0;)
      work.push_back({t->fields[i], name + "_" + std::to_string(i)});
    top = false;
  }
  (void)top;
}

/// A DLTensor over host memory the caller keeps alive.
DLTensor hostTensor(void *data, DLDataType dt, int64_t *shape, int32_t ndim) {
  DLTensor t{};
  t.data = data;
  t.device = {kDLCPU, 0};
  t.ndim = ndim;
  t.dtype = dt;
  t.shape = shape;
  return t;
}

llvm::Error writeLeaf(const std::string &path, const std::string &name, const Value &v) {
  if (auto *t = v.as<vm::TensorObj>())
    return vm::writeNpy(path, t->dl);
  if (auto *s = v.as<vm::ShapeObj>()) {
    llvm::SmallVector<int64_t, 4> dims(s->dims.begin(), s->dims.end());
    int64_t n = static_cast<int64_t>(dims.size());
    return vm::writeNpy(path, hostTensor(dims.data(), DLDataType{kDLInt, 64, 1}, &n, 1));
  }
  int64_t i = v.isBool() ? v.getBool() : v.getInt();
  double f = v.getFloat();
  uint8_t b = v.isBool() && v.getBool();
  if (v.isInt())
    return vm::writeNpy(path, hostTensor(&i, DLDataType{kDLInt, 64, 1}, nullptr, 0));
  if (v.isFloat())
    return vm::writeNpy(path, hostTensor(&f, DLDataType{kDLFloat, 64, 1}, nullptr, 0));
  if (v.isBool())
    return vm::writeNpy(path, hostTensor(&b, DLDataType{kernels::kGraftDLBool, 8, 1}, nullptr, 0));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "output '" + name + "' is " +
                                                                     v.str() +
                                                                     ", which has no .npy form");
}

std::string formatDouble(double d) {
  std::string s = llvm::formatv("{0}", llvm::format("%.6g", d)).str();
  return s;
}

/// The element `i` of a host tensor, formatted.
std::string element(const vm::TensorObj &t, int64_t i) {
  const char *p = t.bytes() + i * vm::dtypeBytes(t.dtype());
  DLDataType dt = t.dtype();
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (dt.code == kernels::kGraftDLBool)
    return *p ? "True" : "False";
  if (dt.code == kDLBfloat)
    return formatDouble(kernels::cpu::bf16ToFloat(load(uint16_t())));
  if (dt.code == kDLFloat)
    return formatDouble(dt.bits == 16   ? kernels::cpu::halfToFloat(load(uint16_t()))
                        : dt.bits == 32 ? load(float())
                                        : load(double()));
  bool s = dt.code == kDLInt;
  switch (dt.bits) {
  case 8:
    return s ? std::to_string(load(int8_t())) : std::to_string(load(uint8_t()));
  case 16:
    return s ? std::to_string(load(int16_t())) : std::to_string(load(uint16_t()));
  case 32:
    return s ? std::to_string(load(int32_t())) : std::to_string(load(uint32_t()));
  default:
    return s ? std::to_string(load(int64_t())) : std::to_string(load(uint64_t()));
  }
}

constexpr int64_t kShownValues = 8;

void printTensor(llvm::raw_ostream &os, const vm::TensorObj &t) {
  os << vm::dtypeStr(t.dtype()) << " [";
  llvm::interleaveComma(t.shape(), os);
  os << "] [";
  int64_t n = t.numElements();
  if (t.device().device_type != kDLCPU || !t.isCompact()) {
    os << "...]";
    return;
  }
  for (int64_t i = 0; i < std::min(n, kShownValues); ++i)
    os << (i ? ", " : "") << element(t, i);
  os << (n > kShownValues ? ", ...]" : "]");
}

void printLeaf(llvm::raw_ostream &os, const std::string &name, const Value &v) {
  os << name << ": ";
  if (auto *t = v.as<vm::TensorObj>())
    printTensor(os, *t);
  else if (auto *s = v.as<vm::ShapeObj>()) {
    os << "shape [";
    llvm::interleaveComma(s->dims, os);
    os << "]";
  } else if (v.isInt())
    os << "int64 " << v.getInt();
  else if (v.isFloat())
    os << "float64 " << formatDouble(v.getFloat());
  else if (v.isBool())
    os << "bool " << (v.getBool() ? "True" : "False");
  else
    os << v;
  os << "\n";
}

} // namespace

llvm::Error driver::writeOutputs(const Value &result, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec,
                                   "cannot create output directory " + dir + ": " + ec.message());
  llvm::Error first = llvm::Error::success();
  forEachOutput(result, [&](const std::string &name, const Value &v) {
    if (first)
      return;
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name + ".npy");
    if (v.isNone())
      return;
    first = writeLeaf(std::string(path), name, v);
  });
  return first;
}

void driver::printOutputs(const Value &result, llvm::raw_ostream &os) {
  forEachOutput(result, [&](const std::string &name, const Value &v) { printLeaf(os, name, v); });
}

void driver::printProfile(llvm::ArrayRef<vm::ProfileEntry> entries, unsigned runs,
                          llvm::raw_ostream &os) {
  std::vector<vm::ProfileEntry> rows(entries.begin(), entries.end());
  llvm::erase_if(rows, [](const vm::ProfileEntry &e) { return e.calls == 0; });
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto &a, const auto &b) { return a.seconds > b.seconds; });
  double total = 0;
  for (const auto &r : rows)
    total += r.seconds;
  os << llvm::formatv("profile ({0} run{1}): time per kernel and builtin\n", runs,
                      runs == 1 ? "" : "s");
  os << llvm::formatv("{0,-40} {1,8} {2,12} {3,12} {4,7}\n", "name", "calls", "total (us)",
                      "mean (us)", "share");
  for (const auto &r : rows)
    os << llvm::formatv("{0,-40} {1,8} {2,12:F2} {3,12:F3} {4,6:F1}%\n", r.name, r.calls,
                        r.seconds * 1e6, r.seconds * 1e6 / double(r.calls),
                        total > 0 ? 100 * r.seconds / total : 0.0);
  os << llvm::formatv("{0,-40} {1,8} {2,12:F2}\n", "total", "", total * 1e6);
}

void driver::printKernelTable(const vm::Executable &exe, llvm::raw_ostream &os) {
  os << "kernel table:\n";
  for (size_t i = 0; i < exe.functions.size(); ++i) {
    const vm::FuncInfo &fn = exe.functions[i];
    if (fn.kind != vm::FuncKind::Packed)
      continue;
    os << "  f[" << i << "] " << fn.name << ": ";
    const vm::KernelSource *source = nullptr;
    for (const vm::KernelSource &k : exe.kernelSources)
      if (k.name == fn.name)
        source = &k;
    if (source && vm::isScalarProgram(source->text)) {
      os << "scalar program (kernel source)\n";
    } else if (source && vm::isFusedKernelSource(*source)) {
      os << "fused kernel (kernel source)\n";
      for (llvm::StringRef line : llvm::split(llvm::StringRef(source->text).rtrim(), '\n'))
        os << "      " << line << "\n";
    } else if (vm::PackedRegistry::global().find(fn.name)) {
      os << "builtin\n";
    } else if (const kernels::KernelInfo *k = kernels::lookupKernel(fn.name, kDLCPU)) {
      auto count = [](int n) { return n < 0 ? std::string("variadic") : std::to_string(n); };
      os << "kernel, inputs " << count(k->numInputs) << ", attrs [";
      llvm::interleaveComma(k->attrNames, os);
      os << "], outputs " << count(k->numOutputs) << "\n";
    } else {
      os << "unresolved (not a builtin, kernel or kernel source)\n";
    }
  }
}
