//===- tests/vm/ValueTest.cpp - Values, tensors, devices -------------------===//

#include "VMTestUtil.h"

using namespace graft::vm;
using namespace graft::vm::test;

TEST(Value, ScalarsAreInline) {
  EXPECT_EQ(sizeof(Value), 16u);
  Value i = Value::integer(-7), f = Value::real(2.5), b = Value::boolean(true);
  EXPECT_TRUE(Value().isNone());
  EXPECT_EQ(i.getInt(), -7);
  EXPECT_EQ(f.getFloat(), 2.5);
  EXPECT_TRUE(b.getBool());
  EXPECT_EQ(Value::dataType(kF32).str(), "float32");
  EXPECT_EQ(i.str(), "-7");
}

TEST(Value, CopiesShareTheObject) {
  Value s = Value::string("abc");
  EXPECT_EQ(s.getObject()->refCount(), 1u);
  {
    Value copy = s;
    EXPECT_EQ(copy.getObject(), s.getObject());
    EXPECT_EQ(s.getObject()->refCount(), 2u);
    Value moved = std::move(copy);
    EXPECT_TRUE(copy.isNone());
    EXPECT_EQ(s.getObject()->refCount(), 2u);
  }
  EXPECT_EQ(s.getObject()->refCount(), 1u);
  EXPECT_EQ(s.str(), "\"abc\"");
}

TEST(Value, RttiAndPrinting) {
  Value shape = Value::shape({2, 3});
  Value tup = Value::tuple({Value::integer(1), shape, Value()});
  EXPECT_NE(shape.as<ShapeObj>(), nullptr);
  EXPECT_EQ(shape.as<TupleObj>(), nullptr);
  EXPECT_EQ(Value::integer(3).as<ShapeObj>(), nullptr);
  EXPECT_EQ(tup.str(), "(1, shape[2, 3], none)");
  Value t = f32Tensor({2}, {1, 2});
  EXPECT_EQ(t.str(), "tensor<float32[2], cpu:0>");
}

TEST(Value, StructuralEquality) {
  EXPECT_TRUE(structurallyEqual(f32Tensor({2}, {1, 2}), f32Tensor({2}, {1, 2})));
  EXPECT_FALSE(structurallyEqual(f32Tensor({2}, {1, 2}), f32Tensor({2}, {1, 3})));
  EXPECT_FALSE(structurallyEqual(f32Tensor({2}, {1, 2}), f32Tensor({1, 2}, {1, 2})));
  EXPECT_TRUE(structurallyEqual(Value::shape({1}), Value::shape({1})));
  EXPECT_EQ(structuralHash(Value::string("x")), structuralHash(Value::string("x")));
  EXPECT_FALSE(structurallyEqual(Value::real(0.0), Value::real(-0.0)));
}

TEST(DType, NamesAndBool) {
  EXPECT_EQ(dtypeStr(kBool), "bool");
  EXPECT_EQ(dtypeStr(DLDataType{kDLUInt, 1, 1}), "bool");
  EXPECT_TRUE(dtypeEqual(DLDataType{kDLUInt, 1, 1}, kBool));
  EXPECT_EQ(dtypeStr(DLDataType{kDLBfloat, 16, 1}), "bfloat16");
  for (const char *name : {"bool", "int8", "int16", "int32", "int64", "uint8", "float16",
                           "bfloat16", "float32", "float64"}) {
    auto dt = parseDType(name);
    ASSERT_TRUE(bool(dt)) << name;
    EXPECT_EQ(dtypeStr(*dt), name);
  }
  EXPECT_EQ(errorOf(parseDType("float13")), "unknown dtype 'float13'");
}

TEST(Tensor, ViewChecksBounds) {
  auto storage = take(StorageObj::hostBlock(64));
  auto ok = TensorObj::view(storage, 48, {4}, kF32);
  ASSERT_TRUE(bool(ok));
  EXPECT_EQ((*ok)->bytes(), static_cast<char *>(storage->data()) + 48);
  EXPECT_EQ(errorOf(TensorObj::view(storage, 52, {4}, kF32)),
            "tensor of 16 bytes at offset 52 does not fit in a storage of 64 "
            "bytes");
  EXPECT_EQ(errorOf(TensorObj::view(storage, 0, {-1}, kF32)), "negative dimension -1 in shape");
}

TEST(Tensor, DLPackRoundTripWithoutCopy) {
  Value t = f32Tensor({3}, {1, 2, 3});
  auto *obj = t.as<TensorObj>();
  DLManagedTensor *m = obj->toDLPack();
  EXPECT_EQ(m->dl_tensor.data, obj->dl.data);
  EXPECT_EQ(obj->refCount(), 2u);
  auto back = take(TensorObj::fromDLPack(m));
  EXPECT_EQ(back->dl.data, obj->dl.data);
  back = Ref<TensorObj>();
  // Releasing the import ran the exported deleter.
  EXPECT_EQ(obj->refCount(), 1u);
  EXPECT_EQ(errorOf(TensorObj::fromDLPack(nullptr)), "cannot import a null DLManagedTensor");
}

static int foreignDeleted = 0;

TEST(Tensor, ImportRunsForeignDeleter) {
  static int64_t shape[2] = {2, 2};
  static float data[4] = {1, 2, 3, 4};
  auto *m = new DLManagedTensor();
  m->dl_tensor.data = data;
  m->dl_tensor.device = {kDLCPU, 0};
  m->dl_tensor.ndim = 2;
  m->dl_tensor.dtype = kF32;
  m->dl_tensor.shape = shape;
  m->deleter = [](DLManagedTensor *self) {
    ++foreignDeleted;
    delete self;
  };
  {
    Value v = Value::object(take(TensorObj::fromDLPack(m)));
    EXPECT_EQ(tensorData<float>(v), (std::vector<float>{1, 2, 3, 4}));
  }
  EXPECT_EQ(foreignDeleted, 1);
}

TEST(Allocator, ReusesBlocksBySizeClass) {
  CachingAllocator alloc(cpuDevice());
  void *a = take(alloc.allocate(1000));
  EXPECT_EQ(alloc.stats().currentBytes, 1024u);
  alloc.free(a, 1000);
  void *b = take(alloc.allocate(1010)); // same 1024-byte class
  EXPECT_EQ(a, b);
  EXPECT_EQ(alloc.stats().cacheHits, 1u);
  EXPECT_EQ(alloc.stats().deviceAllocs, 1u);
  void *c = take(alloc.allocate(5000));
  EXPECT_EQ(alloc.stats().peakBytes, 1024u + CachingAllocator::sizeClass(5000));
  alloc.free(b, 1010);
  alloc.free(c, 5000);
  EXPECT_EQ(alloc.stats().currentBytes, 0u);
  EXPECT_GT(alloc.stats().cachedBytes, 0u);
  alloc.releaseCache();
  EXPECT_EQ(alloc.stats().cachedBytes, 0u);
}

TEST(Allocator, SizeClasses) {
  EXPECT_EQ(CachingAllocator::sizeClass(0), 64u);
  EXPECT_EQ(CachingAllocator::sizeClass(65), 128u);
  EXPECT_EQ(CachingAllocator::sizeClass(4097), 5120u);
  EXPECT_EQ(CachingAllocator::sizeClass(1 << 20), size_t(1) << 20);
  EXPECT_EQ(CachingAllocator::sizeClass((1 << 20) + 1), size_t(1280) << 10);
}

TEST(Allocator, RefusesDuringCapture) {
  CachingAllocator alloc(cpuDevice());
  alloc.setCaptureOpen(true);
  EXPECT_EQ(errorOf(alloc.allocate(16)),
            "allocation of 16 bytes on cpu:0 refused: a CUDA-graph capture is "
            "open");
  alloc.setCaptureOpen(false);
  void *p = take(alloc.allocate(16));
  alloc.free(p, 16);
}

TEST(Allocator, StorageReturnsBlockWhenLastViewDies) {
  auto alloc = std::make_shared<CachingAllocator>(cpuDevice());
  Value t;
  {
    auto tensor = take(TensorObj::empty(alloc, {4}, kF32));
    t = Value::object(tensor);
  }
  EXPECT_EQ(alloc->stats().currentBytes, 64u);
  t = Value();
  EXPECT_EQ(alloc->stats().currentBytes, 0u);
}
