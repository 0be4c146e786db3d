//===- vm/Npy.cpp - Reading and writing NumPy .npy files ------------------===//
//
// The header is a Python dict literal; only the subset NumPy writes is
// parsed (strings, True/False, tuples of ints, and for the bfloat16
// extension a list of (str, str) tuples), with every read bounds-checked.
//
//===----------------------------------------------------------------------===//

#include "vm/Npy.h"

#include "kernels/Kernel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

namespace graft::vm {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr llvm::StringLiteral kBf16Descr = "[('bfloat16', '<u2')]";

llvm::Error npyError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), ("npy: " + msg).str());
}

/// The parsed header dict.
struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
};

/// Recursive-descent parser of NumPy's header dict.
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : s(text) {}

  llvm::Expected<Header> parse() {
    Header h;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    if (!eat('{'))
      return fail("expected '{'");
    while (!peekIs('}')) {
      std::string key;
      if (!string(key) || !eat(':'))
        return fail("expected a quoted key and ':'");
      if (key == "descr") {
        haveDescr = descr(h.descr);
      } else if (key == "fortran_order") {
        haveOrder = boolean(h.fortran);
      } else if (key == "shape") {
        haveShape = tuple(h.shape);
      } else {
        return fail("unknown key '" + key + "'");
      }
      if (!ok)
        return fail("malformed value of '" + key + "'");
      if (!eat(','))
        break;
    }
    if (!eat('}'))
      return fail("expected '}'");
    for (auto [have, key] : {std::pair{haveDescr, "descr"}, std::pair{haveOrder, "fortran_order"},
                             std::pair{haveShape, "shape"}})
      if (!have)
        return npyError(llvm::Twine("bad header: no '") + key + "' key in \"" +
                        s.rtrim().take_front(200) + "\"");
    skipSpace();
    if (pos != s.size())
      return fail("trailing characters after the header dict");
    return h;
  }

private:
  llvm::Error fail(const llvm::Twine &msg) {
    return npyError("bad header: " + msg + " at offset " + llvm::Twine(pos) + " in \"" +
                    s.rtrim().take_front(200) + "\"");
  }
  void skipSpace() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\t'))
      ++pos;
  }
  bool peekIs(char c) {
    skipSpace();
    return pos < s.size() && s[pos] == c;
  }
  bool eat(char c) {
    if (!peekIs(c))
      return false;
    ++pos;
    return true;
  }
  bool string(std::string &out) {
    skipSpace();
    if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"'))
      return ok = false;
    char q = s[pos++];
    size_t end = s.find(q, pos);
    if (end == llvm::StringRef::npos)
      return ok = false;
    out = s.substr(pos, end - pos).str();
    pos = end + 1;
    return true;
  }
  bool boolean(bool &out) {
    skipSpace();
    if (s.substr(pos).startswith("True")) {
      out = true;
      pos += 4;
      return true;
    }
    if (s.substr(pos).startswith("False")) {
      out = false;
      pos += 5;
      return true;
    }
    return ok = false;
  }
  bool integer(int64_t &out) {
    skipSpace();
    size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
      ++pos;
    // Shapes are non-negative; getAsInteger rejects overflow.
    if (pos == start || s.substr(start, pos - start).getAsInteger(10, out))
      return ok = false;
    if (pos < s.size() && s[pos] == 'L') // Python 2 longs.
      ++pos;
    return true;
  }
  bool tuple(std::vector<int64_t> &out) {
    if (!eat('('))
      return ok = false;
    while (!peekIs(')')) {
      int64_t v;
      if (!integer(v))
        return false;
      out.push_back(v);
      if (!eat(','))
        break;
    }
    return eat(')') || (ok = false);
  }
  /// A type string, or the list form of the bfloat16 extension, kept as
  /// its canonical spelling.
  bool descr(std::string &out) {
    if (!eat('['))
      return string(out);
    std::string name, fmt;
    if (!eat('(') || !string(name) || !eat(',') || !string(fmt) || !eat(')'))
      return ok = false;
    eat(',');
    if (!eat(']'))
      return ok = false;
    out = "[('" + name + "', '" + fmt + "')]";
    return true;
  }

  llvm::StringRef s;
  size_t pos = 0;
  bool ok = true;
};

struct TypeEntry {
  llvm::StringRef descr; ///< Little-endian (or byte) spelling.
  DLDataType type;
};

const TypeEntry kTypes[] = {
    {"|b1", {kernels::kGraftDLBool, 8, 1}},
    {"|i1", {kDLInt, 8, 1}},
    {"<i2", {kDLInt, 16, 1}},
    {"<i4", {kDLInt, 32, 1}},
    {"<i8", {kDLInt, 64, 1}},
    {"|u1", {kDLUInt, 8, 1}},
    {"<f2", {kDLFloat, 16, 1}},
    {"<f4", {kDLFloat, 32, 1}},
    {"<f8", {kDLFloat, 64, 1}},
    {kBf16Descr, {kDLBfloat, 16, 1}},
};

bool sameType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/// Maps a descr to a dtype; `swap` says the data is big-endian.
llvm::Expected<DLDataType> typeOfDescr(llvm::StringRef d, bool &swap) {
  swap = false;
  std::string norm = d.str();
  if (norm.size() == 3 && (norm[0] == '>' || norm[0] == '=' || norm[0] == '<')) {
    swap = norm[0] == '>' && norm[2] != '1';
    // One-byte types are spelled with '|' in the table.
    norm[0] = norm[2] == '1' ? '|' : '<';
  }
  for (const TypeEntry &e : kTypes)
    if (e.descr == norm)
      return e.type;
  return npyError("unsupported dtype descr '" + d + "'");
}

llvm::Expected<std::string> descrOfType(DLDataType t) {
  for (const TypeEntry &e : kTypes)
    if (sameType(e.type, t))
      return e.descr.str();
  return npyError("cannot write dtype code " + llvm::Twine(int(t.code)) + " with " +
                  llvm::Twine(int(t.bits)) + " bits x " + llvm::Twine(int(t.lanes)) + " lanes");
}

uint32_t readLE(llvm::StringRef b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= uint32_t(uint8_t(b[at + i])) << (8 * i);
  return v;
}

/// Reorders column-major data into row-major.
std::vector<uint8_t> fortranToC(const std::vector<uint8_t> &src, const std::vector<int64_t> &shape,
                                size_t elem) {
  std::vector<uint8_t> dst(src.size());
  size_t n = src.size() / (elem ? elem : 1);
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    // idx is the row-major index of element i; its column-major offset:
    size_t off = 0, mul = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      off += size_t(idx[d]) * mul;
      mul *= size_t(shape[d]);
    }
    std::memcpy(&dst[i * elem], &src[off * elem], elem);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return dst;
}

} // namespace

int64_t NpyArray::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

DLTensor NpyArray::view() {
  DLTensor t{};
  t.data = data.data();
  t.device = {kDLCPU, 0};
  t.ndim = int32_t(shape.size());
  t.dtype = dtype;
  t.shape = shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  return t;
}

llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes) {
  if (bytes.size() < kMagicLen + 2 ||
      bytes.substr(0, kMagicLen) != llvm::StringRef(kMagic, kMagicLen))
    return npyError("not a .npy file (bad magic)");
  unsigned major = uint8_t(bytes[6]);
  if (major < 1 || major > 3)
    return npyError("unsupported format version " + llvm::Twine(major) + "." +
                    llvm::Twine(unsigned(uint8_t(bytes[7]))));
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t start = 8 + lenBytes;
  if (bytes.size() < start)
    return npyError("truncated header length");
  size_t hlen = readLE(bytes, 8, lenBytes);
  if (hlen > bytes.size() - start)
    return npyError("truncated header: length " + llvm::Twine(hlen) + " but only " +
                    llvm::Twine(bytes.size() - start) + " bytes follow");
  auto header = HeaderParser(bytes.substr(start, hlen)).parse();
  if (!header)
    return header.takeError();
  bool swap = false;
  auto type = typeOfDescr(header->descr, swap);
  if (!type)
    return type.takeError();
  NpyArray a;
  a.dtype = *type;
  a.shape = header->shape;
  size_t elem = type->bits / 8;
  uint64_t count = 1;
  for (int64_t d : a.shape)
    if (__builtin_mul_overflow(count, uint64_t(d), &count))
      return npyError("shape " + llvm::Twine(a.shape.size()) + "-d overflows the element count");
  uint64_t need;
  size_t have = bytes.size() - start - hlen;
  if (__builtin_mul_overflow(count, uint64_t(elem), &need) || need > have)
    return npyError("truncated data: the shape needs " + llvm::Twine(count) + " elements of " +
                    llvm::Twine(elem) + " bytes, but " + llvm::Twine(have) + " bytes follow");
  llvm::StringRef payload = bytes.substr(start + hlen, size_t(need));
  a.data.assign(payload.bytes_begin(), payload.bytes_end());
  if (swap)
    for (size_t i = 0; i + elem <= a.data.size(); i += elem)
      std::reverse(a.data.begin() + i, a.data.begin() + i + elem);
  if (header->fortran && a.shape.size() > 1)
    a.data = fortranToC(a.data, a.shape, elem);
  return a;
}

llvm::Expected<NpyArray> readNpy(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return npyError("cannot read '" + path + "': " + buf.getError().message());
  auto a = parseNpy((*buf)->getBuffer());
  if (!a)
    return npyError(path + ": " + llvm::toString(a.takeError()));
  return a;
}

llvm::Expected<std::string> encodeNpy(const DLTensor &t) {
  auto descr = descrOfType(t.dtype);
  if (!descr)
    return descr.takeError();
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    return npyError("tensor has no valid shape");
  std::string shape = "(";
  int64_t numel = 1;
  for (int d = 0; d < t.ndim; ++d) {
    if (t.shape[d] < 0)
      return npyError("tensor has a negative dim");
    shape += std::to_string(t.shape[d]) + (t.ndim == 1 ? "," : d + 1 < t.ndim ? ", " : "");
    numel *= t.shape[d];
  }
  shape += ")";
  std::string dict = "{'descr': " + (descr->front() == '[' ? *descr : "'" + *descr + "'") +
                     ", 'fortran_order': False, 'shape': " + shape + ", }";
  // Like NumPy (1.23 and later): spare spaces so the leading dim can grow
  // in place, then padding so the data starts at a multiple of 64 bytes.
  if (t.ndim > 0)
    dict.append(21 - std::to_string(t.shape[0]).size(), ' ');
  size_t hlen = dict.size() + 1;
  bool v2 = 10 + hlen + 64 > 0xffff;
  size_t prefix = v2 ? 12 : 10;
  dict.append(64 - (prefix + hlen) % 64, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicLen);
  out += char(v2 ? 2 : 1);
  out += char(0);
  for (size_t i = 0; i < prefix - 8; ++i)
    out += char((dict.size() >> (8 * i)) & 0xff);
  out += dict;
  if (numel == 0)
    return out;
  if (!t.data)
    return npyError("tensor has no data");
  // Gather in row-major order through the strides.
  size_t elem = t.dtype.bits / 8;
  const char *base = static_cast<const char *>(t.data) + t.byte_offset;
  std::vector<int64_t> idx(size_t(t.ndim), 0);
  for (int64_t i = 0; i < numel; ++i) {
    int64_t off = 0, stride = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      off += idx[d] * (t.strides ? t.strides[d] : stride);
      stride *= t.shape[d];
    }
    out.append(base + off * int64_t(elem), elem);
    for (int d = t.ndim - 1; d >= 0; --d) {
      if (++idx[d] < t.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

llvm::Error writeNpy(llvm::StringRef path, const DLTensor &t) {
  auto bytes = encodeNpy(t);
  if (!bytes)
    return bytes.takeError();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError("cannot write '" + path + "': " + ec.message());
  os << *bytes;
  os.close();
  if (os.has_error())
    return npyError("cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}

} // namespace graft::vm
