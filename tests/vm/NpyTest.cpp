//===- tests/vm/NpyTest.cpp - .npy reader and writer ----------------------===//

#include "vm/Npy.h"

#include "kernels/Kernel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace graft::vm;

namespace {

std::string fixture(const char *name) {
  return std::string(GRAFT_SOURCE_DIR) + "/tests/data/npy/" + name;
}

template <class T> std::vector<T> elems(const NpyArray &a) {
  std::vector<T> r(a.data.size() / sizeof(T));
  std::memcpy(r.data(), a.data.data(), r.size() * sizeof(T));
  return r;
}

NpyArray read(const char *name) {
  auto a = readNpy(fixture(name));
  EXPECT_TRUE(bool(a)) << (a ? "" : llvm::toString(a.takeError()));
  return a ? std::move(*a) : NpyArray();
}

std::string errorOf(llvm::StringRef bytes) {
  auto a = parseNpy(bytes);
  if (a)
    return "";
  return llvm::toString(a.takeError());
}

TEST(Npy, ReadsNumpyFiles) {
  NpyArray f = read("f4_2x3.npy");
  EXPECT_EQ(f.dtype.code, kDLFloat);
  EXPECT_EQ(f.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(elems<float>(f), (std::vector<float>{0, 0.5, 1, 1.5, 2, 2.5}));
  NpyArray b = read("b1_4.npy");
  EXPECT_EQ(b.dtype.code, graft::kernels::kGraftDLBool);
  EXPECT_EQ(b.data, (std::vector<uint8_t>{1, 0, 0, 1}));
  NpyArray s = read("i8_scalar.npy");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(elems<int64_t>(s), (std::vector<int64_t>{-42}));
  NpyArray h = read("f2_3.npy");
  EXPECT_EQ(elems<uint16_t>(h), (std::vector<uint16_t>{0x3c00, 0xc000, 0x7bff}));
  NpyArray e = read("f8_0x2.npy");
  EXPECT_EQ(e.shape, (std::vector<int64_t>{0, 2}));
  EXPECT_TRUE(e.data.empty());
}

TEST(Npy, FortranOrderIsTransposedToC) {
  NpyArray u = read("u1_fortran_2x3.npy");
  EXPECT_EQ(u.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(u.data, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Npy, BigEndianAndVersion2AndBf16) {
  EXPECT_EQ(elems<int16_t>(read("i2_be_2.npy")), (std::vector<int16_t>{1, -2}));
  EXPECT_EQ(elems<int32_t>(read("i4_v2.npy")), (std::vector<int32_t>{7, 8}));
  NpyArray bf = read("bf16_2.npy");
  EXPECT_EQ(bf.dtype.code, kDLBfloat);
  EXPECT_EQ(elems<uint16_t>(bf), (std::vector<uint16_t>{0x3F80, 0xBF00}));
}

TEST(Npy, WriterMatchesNumpyBytes) {
  for (const char *name :
       {"f4_2x3.npy", "b1_4.npy", "i8_scalar.npy", "f2_3.npy", "f8_0x2.npy", "bf16_2.npy"}) {
    auto file = llvm::MemoryBuffer::getFile(fixture(name));
    ASSERT_TRUE(bool(file));
    NpyArray a = read(name);
    DLTensor t = a.view();
    auto bytes = encodeNpy(t);
    ASSERT_TRUE(bool(bytes));
    EXPECT_EQ(*bytes, (*file)->getBuffer().str()) << name;
  }
}

TEST(Npy, RoundTripsEveryDtypeAndStrides) {
  DLDataType types[] = {{graft::kernels::kGraftDLBool, 8, 1},
                        {kDLInt, 8, 1},
                        {kDLInt, 16, 1},
                        {kDLInt, 32, 1},
                        {kDLInt, 64, 1},
                        {kDLUInt, 8, 1},
                        {kDLFloat, 16, 1},
                        {kDLFloat, 32, 1},
                        {kDLFloat, 64, 1},
                        {kDLBfloat, 16, 1}};
  for (DLDataType type : types) {
    size_t es = type.bits / 8;
    std::vector<uint8_t> buf(6 * es);
    for (size_t i = 0; i < buf.size(); ++i)
      buf[i] = type.code == graft::kernels::kGraftDLBool ? i % 2 : uint8_t(i * 37 + 1);
    // Write the transpose of a [2, 3] buffer through strides.
    int64_t shape[] = {3, 2}, strides[] = {1, 3};
    DLTensor t{buf.data(), {kDLCPU, 0}, 2, type, shape, strides, 0};
    auto bytes = encodeNpy(t);
    ASSERT_TRUE(bool(bytes));
    auto back = parseNpy(*bytes);
    ASSERT_TRUE(bool(back));
    EXPECT_EQ(back->shape, (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(back->dtype.code, type.code);
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t c = 0; c < 2; ++c)
        EXPECT_EQ(0, std::memcmp(&back->data[(r * 2 + c) * es], &buf[(c * 3 + r) * es], es));
  }
}

TEST(Npy, FileRoundTrip) {
  float v[] = {1, 2, 3};
  int64_t shape[] = {3};
  DLTensor t{v, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("graft-npy-test", "npy", path));
  ASSERT_FALSE(bool(writeNpy(path, t)));
  auto a = readNpy(path);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(elems<float>(*a), (std::vector<float>{1, 2, 3}));
  auto missing = readNpy((path + ".missing").str());
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"), std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST(Npy, RejectsMalformedInput) {
  auto file = llvm::MemoryBuffer::getFile(fixture("f4_2x3.npy"));
  ASSERT_TRUE(bool(file));
  std::string good = (*file)->getBuffer().str();
  EXPECT_EQ(errorOf(""), "npy: not a .npy file (bad magic)");
  EXPECT_EQ(errorOf("PK\x03\x04 hello"), "npy: not a .npy file (bad magic)");
  EXPECT_EQ(errorOf(good.substr(0, 9)), "npy: truncated header length");
  EXPECT_EQ(errorOf(good.substr(0, 40)),
            "npy: truncated header: length 118 but only 30 bytes follow");
  EXPECT_EQ(errorOf(good.substr(0, good.size() - 1)),
            "npy: truncated data: the shape needs 6 elements of 4 bytes, but "
            "23 bytes follow");
  std::string v9 = good;
  v9[6] = 9;
  EXPECT_EQ(errorOf(v9), "npy: unsupported format version 9.0");
  auto withHeader = [&](std::string dict) {
    std::string s = good.substr(0, 8);
    dict += '\n';
    s += char(dict.size() & 0xff);
    s += char(dict.size() >> 8);
    return s + dict + std::string(64, '\0');
  };
  EXPECT_EQ(errorOf(withHeader("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }")),
            "npy: unsupported dtype descr '<c8'");
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f4', 'shape': (2,), }")),
            "npy: bad header: no 'fortran_order' key in \"{'descr': '<f4', "
            "'shape': (2,), }\"");
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }"))
                .find("malformed value of 'fortran_order'"),
            std::string::npos);
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }"))
                .find("malformed value of 'shape'"),
            std::string::npos);
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                               "(99999999999999999999,), }"))
                .find("malformed value of 'shape'"),
            std::string::npos);
  // A huge but representable shape is refused before any allocation.
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': "
                               "(4611686018427387904, 4), }")),
            "npy: shape 2-d overflows the element count");
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': "
                               "(1000000000000,), }")),
            "npy: truncated data: the shape needs 1000000000000 elements of 8 "
            "bytes, but 64 bytes follow");
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}"))
                .find("unknown key 'x'"),
            std::string::npos);
  // Every prefix of a valid file is rejected cleanly (no crash).
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_NE(errorOf(good.substr(0, n)), "") << n;
}

} // namespace
