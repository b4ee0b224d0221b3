/* ROCport's model of PyTorch's C++ extension API (torch/extension.h, ATen, c10, the CUDA helpers) for a parse
 * without an installed torch: at::Tensor and its common methods, scalar types, factories, the checks and the
 * AT_DISPATCH_* macros, CUDA guards and streams, TORCH_LIBRARY. Declared permissively: enough that an extension's
 * translation unit keeps its declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_TORCH_H
#define ROCPORT_MODEL_TORCH_H
#pragma clang system_header
#include "/__rocport_models__/pybind11.h"

/* std::optional, std::mutex and the locks c10's API names come with the prelude's std. */

namespace c10 {
enum class ScalarType : signed char {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble, Bool, QInt8, QUInt8,
  QInt32, BFloat16, QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16, Float8_e5m2, Float8_e4m3fn,
  Float8_e5m2fnuz, Float8_e4m3fnuz, UInt16, UInt32, UInt64, UInt1, UInt2, UInt3, UInt4, UInt5, UInt6, UInt7,
  Int1, Int2, Int3, Int4, Int5, Int6, Int7, Float8_e8m0fnu, Float4_e2m1fn_x2, Undefined, NumOptions
};
enum class DeviceType : signed char { CPU, CUDA, MKLDNN, OPENGL, OPENCL, IDEEP, HIP, FPGA, MAIA, XLA, Vulkan, Metal, XPU, MPS, Meta, HPU, VE, Lazy, IPU, MTIA, PrivateUse1 };
enum class Layout : signed char { Strided, Sparse, SparseCsr, Mkldnn, SparseCsc, SparseBsr, SparseBsc, Jagged };
enum class MemoryFormat : signed char { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
using DeviceIndex = signed char;
struct Half { unsigned short x; __host__ __device__ Half(); __host__ __device__ Half(float); __host__ __device__ operator float() const; };
struct BFloat16 { unsigned short x; __host__ __device__ BFloat16(); __host__ __device__ BFloat16(float); __host__ __device__ operator float() const; };
struct Float8_e4m3fn { unsigned char x; __host__ __device__ Float8_e4m3fn(); __host__ __device__ Float8_e4m3fn(float); __host__ __device__ operator float() const; };
struct Float8_e5m2 { unsigned char x; __host__ __device__ Float8_e5m2(); __host__ __device__ Float8_e5m2(float); __host__ __device__ operator float() const; };
struct Float8_e4m3fnuz { unsigned char x; __host__ __device__ Float8_e4m3fnuz(); __host__ __device__ Float8_e4m3fnuz(float); __host__ __device__ operator float() const; };
struct Float8_e5m2fnuz { unsigned char x; __host__ __device__ Float8_e5m2fnuz(); __host__ __device__ Float8_e5m2fnuz(float); __host__ __device__ operator float() const; };
template <class T> struct complex { T real_, imag_; __host__ __device__ complex(); __host__ __device__ complex(T, T = T()); T real() const; T imag() const; };
using std::optional;
using std::nullopt;
using std::make_optional;
struct Device {
  Device(DeviceType, DeviceIndex = -1);
  Device(const std::string &);
  Device(const char *);
  DeviceType type() const;
  DeviceIndex index() const;
  bool has_index() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_meta() const;
  std::string str() const;
};
struct TypeMeta {
  template <class T> static TypeMeta Make();
  template <class T> bool Match() const;
  ScalarType toScalarType() const;
  operator ScalarType() const;
  size_t itemsize() const;
  const char *name() const;
  bool operator==(const TypeMeta &) const;
  bool operator!=(const TypeMeta &) const;
  bool operator==(ScalarType) const;
  bool operator!=(ScalarType) const;
};
template <class T> struct ArrayRef {
  ArrayRef();
  template <class... A> ArrayRef(A &&...);
  const T *data() const;
  size_t size() const;
  bool empty() const;
  const T &operator[](size_t) const;
  const T &at(size_t) const;
  const T *begin() const;
  const T *end() const;
  const T &front() const;
  const T &back() const;
  std::vector<T> vec() const;
  ArrayRef slice(size_t, size_t = 0) const;
  bool equals(ArrayRef) const;
  bool operator==(ArrayRef) const;
  bool operator!=(ArrayRef) const;
};
using IntArrayRef = ArrayRef<int64_t>;
struct SymInt { SymInt(int64_t = 0); int64_t expect_int() const; operator int64_t() const; };
using SymIntArrayRef = ArrayRef<SymInt>;
template <class T> using OptionalArrayRef = optional<ArrayRef<T>>;
struct Scalar {
  Scalar();
  template <class T> Scalar(T);
  template <class T> T to() const;
  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
  int toInt() const;
  bool toBool() const;
  bool isFloatingPoint() const;
  bool isIntegral(bool) const;
};
struct Stream { DeviceIndex device_index() const; Device device() const; int64_t id() const; };
template <class T> struct intrusive_ptr { T *get() const; T *operator->() const; T &operator*() const; explicit operator bool() const; };
template <class T, class... A> intrusive_ptr<T> make_intrusive(A &&...);
struct intrusive_ptr_target {};
template <class T> struct List;
namespace ivalue { struct Tuple; }
}  // namespace c10
namespace at { class Tensor; }
namespace c10 {
/* TorchScript's boxed value, as custom classes pickle and unpickle their state through it. */
struct IValue {
  IValue();
  template <class T> IValue(T &&);
  template <class T> T to() const;
  bool isTensor() const; bool isNone() const; bool isTuple() const; bool isList() const; bool isInt() const;
  bool isDouble() const; bool isBool() const; bool isString() const; bool isIntList() const; bool isDoubleList() const;
  at::Tensor toTensor() const;
  int64_t toInt() const;
  double toDouble() const;
  bool toBool() const;
  const std::string &toStringRef() const;
  intrusive_ptr<ivalue::Tuple> toTuple() const;
  List<IValue> toList() const;
  List<int64_t> toIntList() const;
  List<double> toDoubleList() const;
  List<bool> toBoolList() const;
  std::vector<int64_t> toIntVector() const;
  std::vector<double> toDoubleVector() const;
};
namespace ivalue {
struct Tuple : intrusive_ptr_target {
  const std::vector<IValue> &elements() const;
  static intrusive_ptr<Tuple> create(std::vector<IValue>);
  template <class... A> static intrusive_ptr<Tuple> create(A &&...);
};
}  // namespace ivalue
template <class T> struct irange_t { struct iterator { T operator*() const; iterator &operator++(); bool operator!=(const iterator &) const; }; iterator begin() const; iterator end() const; };
template <class A, class B = A> irange_t<B> irange(A, B);
template <class A> irange_t<A> irange(A);
const char *toString(ScalarType);
size_t elementSize(ScalarType);
bool isFloatingType(ScalarType);
bool isIntegralType(ScalarType, bool);
bool isComplexType(ScalarType);
bool isReducedFloatingType(ScalarType);
ScalarType typeMetaToScalarType(TypeMeta);
template <class T> struct CppTypeToScalarType { static constexpr ScalarType value = ScalarType::Float; };
template <ScalarType S> struct ScalarTypeToCPPType { using type = float; };
template <ScalarType S> using ScalarTypeToCPPTypeT = float;
template <class F, class... A> void ForcedUnroll(A &&...);
std::string str(...);
struct Error { const char *what() const; };
struct ValueError : Error {};
struct TypeError : Error {};
struct NotImplementedError : Error {};
struct DeviceGuard { explicit DeviceGuard(Device); };
/* Heterogeneous-graph and dispatcher vocabulary (PyG's pyg-lib, torch-scatter/sparse): typed dictionaries, small
 * vectors and calls through the dispatcher by schema name. */
template <class K, class V> struct Dict {
  struct Entry { const K &key() const; V &value() const; };
  struct iterator {
    Entry operator*() const;
    const Entry *operator->() const;
    iterator &operator++();
    bool operator==(const iterator &) const;
    bool operator!=(const iterator &) const;
  };
  Dict();
  template <class... A> Dict(A &&...);
  iterator begin() const;
  iterator end() const;
  iterator find(const K &) const;
  template <class... A> std::pair<iterator, bool> insert(A &&...) const;
  template <class... A> std::pair<iterator, bool> insert_or_assign(A &&...) const;
  V at(const K &) const;
  bool contains(const K &) const;
  size_t size() const;
  bool empty() const;
  void reserve(size_t) const;
  Dict copy() const;
};
template <class T> struct List {
  List();
  template <class... A> List(A &&...);
  T get(size_t) const;
  T operator[](size_t) const;
  void push_back(T) const;
  size_t size() const;
  bool empty() const;
  const T *begin() const;
  const T *end() const;
  std::vector<T> vec() const;
};
template <class T, unsigned N = 4> struct SmallVector {
  SmallVector();
  template <class... A> SmallVector(A &&...);
  SmallVector(std::initializer_list<T>);
  T *data();
  const T *data() const;
  size_t size() const;
  bool empty() const;
  void resize(size_t);
  void reserve(size_t);
  void push_back(const T &);
  template <class... A> void emplace_back(A &&...);
  T &operator[](size_t);
  const T &operator[](size_t) const;
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  T &back();
  template <class U> operator ArrayRef<U>() const;
};
template <class F> struct TypedOperatorHandle;
template <class R, class... P> struct TypedOperatorHandle<R(P...)> {
  template <class... A> R call(A &&...) const;
  template <class... A> R redispatch(A &&...) const;
};
struct OperatorHandle { template <class F> TypedOperatorHandle<F> typed() const; };
struct Dispatcher {
  static Dispatcher &singleton();
  OperatorHandle findSchemaOrThrow(const char *, const char *);
  optional<OperatorHandle> findSchema(...);
  optional<OperatorHandle> findOp(...);
};
struct OptionalDeviceGuard { OptionalDeviceGuard(); template <class T> explicit OptionalDeviceGuard(T &&); };
namespace cuda {
struct CUDAStream {
  CUDAStream(Stream);
  cudaStream_t stream() const;
  operator cudaStream_t() const;
  operator Stream() const;
  DeviceIndex device_index() const;
  Device device() const;
  int64_t id() const;
  void synchronize() const;
  bool query() const;
  Stream unwrap() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex = -1);
CUDAStream getStreamFromPool(bool = false, DeviceIndex = -1);
CUDAStream getStreamFromPool(int, DeviceIndex = -1);
CUDAStream getStreamFromExternal(cudaStream_t, DeviceIndex);
void setCurrentCUDAStream(CUDAStream);
DeviceIndex current_device();
DeviceIndex device_count();
void set_device(DeviceIndex);
void device_synchronize();
struct CUDAGuard { explicit CUDAGuard(DeviceIndex); explicit CUDAGuard(Device); void set_device(Device); void set_index(DeviceIndex); Device current_device() const; };
struct OptionalCUDAGuard { OptionalCUDAGuard(); template <class T> explicit OptionalCUDAGuard(T &&); template <class T> void set_device(T); template <class T> void set_index(T); void reset(); };
struct CUDAStreamGuard { explicit CUDAStreamGuard(Stream); explicit CUDAStreamGuard(CUDAStream); void reset_stream(Stream); };
struct OptionalCUDAStreamGuard { OptionalCUDAStreamGuard(); template <class T> explicit OptionalCUDAStreamGuard(T &&); };
struct CUDAMultiStreamGuard { explicit CUDAMultiStreamGuard(ArrayRef<CUDAStream>); };
namespace CUDACachingAllocator {
void *raw_alloc(size_t);
void *raw_alloc_with_stream(size_t, cudaStream_t);
void raw_delete(void *);
void emptyCache();
struct CUDAAllocator { void *raw_alloc(size_t); void raw_delete(void *); };
CUDAAllocator *get();
}
}
namespace hip { using namespace cuda; inline CUDAStream getCurrentHIPStream(DeviceIndex = -1); }
}

namespace caffe2 { using c10::TypeMeta; }

namespace at {
using namespace c10;
using c10::ScalarType;
using c10::Half;
using c10::BFloat16;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::optional;
using c10::nullopt;
using c10::Scalar;
using c10::Layout;
using c10::MemoryFormat;
using Dtype = ScalarType;
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
                     kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half,
                     kFloat = ScalarType::Float, kDouble = ScalarType::Double, kBool = ScalarType::Bool,
                     kBFloat16 = ScalarType::BFloat16, kComplexFloat = ScalarType::ComplexFloat,
                     kComplexDouble = ScalarType::ComplexDouble, kFloat8_e4m3fn = ScalarType::Float8_e4m3fn,
                     kFloat8_e5m2 = ScalarType::Float8_e5m2, kFloat8_e4m3fnuz = ScalarType::Float8_e4m3fnuz,
                     kFloat8_e5m2fnuz = ScalarType::Float8_e5m2fnuz, kUInt16 = ScalarType::UInt16,
                     kUInt32 = ScalarType::UInt32, kUInt64 = ScalarType::UInt64, kQInt8 = ScalarType::QInt8,
                     kQUInt8 = ScalarType::QUInt8, kQInt32 = ScalarType::QInt32, kFloat16 = ScalarType::Half,
                     kFloat32 = ScalarType::Float, kFloat64 = ScalarType::Double, kInt8 = ScalarType::Char,
                     kUInt8 = ScalarType::Byte, kInt16 = ScalarType::Short, kInt32 = ScalarType::Int,
                     kInt64 = ScalarType::Long, kFloat8_e8m0fnu = ScalarType::Float8_e8m0fnu,
                     kFloat4_e2m1fn_x2 = ScalarType::Float4_e2m1fn_x2;
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA, kHIP = DeviceType::HIP, kMeta = DeviceType::Meta,
                     kXPU = DeviceType::XPU, kMPS = DeviceType::MPS;
constexpr Layout kStrided = Layout::Strided, kSparse = Layout::Sparse;
template <class T> struct DefaultPtrTraits { typedef T *PtrType; };
template <class T> struct RestrictPtrTraits { typedef T *__restrict__ PtrType; };
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class Index = int64_t> struct TensorAccessor {
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, Index> operator[](Index) const;
  __host__ __device__ T *data() const;
  __host__ __device__ Index size(Index) const;
  __host__ __device__ Index stride(Index) const;
};
template <class T, template <class> class PtrTraits, class Index> struct TensorAccessor<T, 1, PtrTraits, Index> {
  __host__ __device__ T &operator[](Index) const;
  __host__ __device__ T *data() const;
  __host__ __device__ Index size(Index) const;
  __host__ __device__ Index stride(Index) const;
};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class Index = int64_t> struct GenericPackedTensorAccessor {
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, Index> operator[](Index) const;
  __host__ __device__ T *data() const;
  __host__ __device__ Index size(Index) const;
  __host__ __device__ Index stride(Index) const;
};
template <class T, template <class> class PtrTraits, class Index> struct GenericPackedTensorAccessor<T, 1, PtrTraits, Index> {
  __host__ __device__ T &operator[](Index) const;
  __host__ __device__ T *data() const;
  __host__ __device__ Index size(Index) const;
  __host__ __device__ Index stride(Index) const;
};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class Index = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, Index>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
struct TensorOptions {
  TensorOptions();
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions(Layout);
  TensorOptions(MemoryFormat);
  TypeMeta dtype() const;
  template <class T> TensorOptions dtype() const;
  TensorOptions dtype(ScalarType) const;
  TensorOptions dtype(TypeMeta) const;
  Device device() const;
  template <class... A> TensorOptions device(A &&...) const;
  TensorOptions device_index(DeviceIndex) const;
  TensorOptions layout(Layout) const;
  TensorOptions requires_grad(bool) const;
  TensorOptions pinned_memory(bool) const;
  TensorOptions memory_format(MemoryFormat) const;
  Layout layout() const;
  bool requires_grad() const;
};
TensorOptions dtype(ScalarType);
template <class T> TensorOptions dtype();
TensorOptions device(Device);
TensorOptions layout(Layout);
TensorOptions requires_grad(bool = true);
struct Storage { void *data() const; void *mutable_data() const; size_t nbytes() const; };
class Tensor {
public:
  Tensor();
  template <class T = void> T *data_ptr() const;
  template <class T = void> T *mutable_data_ptr() const;
  template <class T = void> const T *const_data_ptr() const;
  int64_t size(int64_t) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t) const;
  IntArrayRef strides() const;
  SymInt sym_size(int64_t) const;
  int64_t numel() const;
  int64_t dim() const;
  int64_t ndimension() const;
  size_t nbytes() const;
  int64_t itemsize() const;
  int64_t element_size() const;
  int64_t storage_offset() const;
  Storage storage() const;
  ScalarType scalar_type() const;
  TypeMeta dtype() const;
  Device device() const;
  int get_device() const;
  Layout layout() const;
  TensorOptions options() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_meta() const;
  bool is_contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  bool is_floating_point() const;
  bool is_sparse() const;
  bool is_complex() const;
  bool defined() const;
  bool requires_grad() const;
  bool is_same(const Tensor &) const;
  bool is_non_overlapping_and_dense() const;
  bool is_pinned() const;
  bool equal(const Tensor &) const;
  bool allclose(const Tensor &, double = 1e-5, double = 1e-8) const;
  Tensor contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  Tensor &zero_();
  template <class T = Scalar> T item() const;
  template <class T, size_t N> TensorAccessor<T, N> accessor() const;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class Index = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, Index> generic_packed_accessor() const;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class Index = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, Index> packed_accessor() const;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int32_t> packed_accessor32() const;
  template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int64_t> packed_accessor64() const;
  std::string toString() const;
  Tensor grad() const;
  std::vector<Tensor> split(int64_t, int64_t = 0) const;
  std::vector<Tensor> chunk(int64_t, int64_t = 0) const;
  std::vector<Tensor> unbind(int64_t = 0) const;
/* A braced list ({n, h, d}) deduces no template argument: the methods and functions also take an IntArrayRef in
 * the places sizes go. */
#define __ROCPORT_TENSOR_METHOD(name)                                                                                  \
  template <class... A> Tensor name(A &&...) const;                                                                    \
  template <class... A> Tensor name(IntArrayRef, A &&...) const;                                                       \
  template <class X, class... A> Tensor name(X &&, IntArrayRef, A &&...) const;
  __ROCPORT_TENSOR_METHOD(view) __ROCPORT_TENSOR_METHOD(reshape) __ROCPORT_TENSOR_METHOD(to)
  __ROCPORT_TENSOR_METHOD(transpose) __ROCPORT_TENSOR_METHOD(permute) __ROCPORT_TENSOR_METHOD(select)
  __ROCPORT_TENSOR_METHOD(narrow) __ROCPORT_TENSOR_METHOD(slice) __ROCPORT_TENSOR_METHOD(index)
  __ROCPORT_TENSOR_METHOD(index_put_) __ROCPORT_TENSOR_METHOD(index_select) __ROCPORT_TENSOR_METHOD(copy_)
  __ROCPORT_TENSOR_METHOD(fill_) __ROCPORT_TENSOR_METHOD(clone) __ROCPORT_TENSOR_METHOD(detach)
  __ROCPORT_TENSOR_METHOD(unsqueeze) __ROCPORT_TENSOR_METHOD(squeeze) __ROCPORT_TENSOR_METHOD(flatten)
  __ROCPORT_TENSOR_METHOD(expand) __ROCPORT_TENSOR_METHOD(expand_as) __ROCPORT_TENSOR_METHOD(repeat)
  __ROCPORT_TENSOR_METHOD(sum) __ROCPORT_TENSOR_METHOD(mean) __ROCPORT_TENSOR_METHOD(max) __ROCPORT_TENSOR_METHOD(min)
  __ROCPORT_TENSOR_METHOD(abs) __ROCPORT_TENSOR_METHOD(exp) __ROCPORT_TENSOR_METHOD(log) __ROCPORT_TENSOR_METHOD(sqrt)
  __ROCPORT_TENSOR_METHOD(pow) __ROCPORT_TENSOR_METHOD(matmul) __ROCPORT_TENSOR_METHOD(mm) __ROCPORT_TENSOR_METHOD(bmm)
  __ROCPORT_TENSOR_METHOD(t) __ROCPORT_TENSOR_METHOD(float_) __ROCPORT_TENSOR_METHOD(half)
  __ROCPORT_TENSOR_METHOD(bfloat16) __ROCPORT_TENSOR_METHOD(cpu) __ROCPORT_TENSOR_METHOD(cuda)
  __ROCPORT_TENSOR_METHOD(type) __ROCPORT_TENSOR_METHOD(add_) __ROCPORT_TENSOR_METHOD(mul_)
  __ROCPORT_TENSOR_METHOD(div_) __ROCPORT_TENSOR_METHOD(sub_) __ROCPORT_TENSOR_METHOD(add) __ROCPORT_TENSOR_METHOD(mul)
  __ROCPORT_TENSOR_METHOD(div) __ROCPORT_TENSOR_METHOD(sub) __ROCPORT_TENSOR_METHOD(masked_fill)
  __ROCPORT_TENSOR_METHOD(masked_fill_) __ROCPORT_TENSOR_METHOD(scatter_) __ROCPORT_TENSOR_METHOD(gather)
  __ROCPORT_TENSOR_METHOD(new_empty) __ROCPORT_TENSOR_METHOD(new_zeros) __ROCPORT_TENSOR_METHOD(new_ones)
  __ROCPORT_TENSOR_METHOD(new_full) __ROCPORT_TENSOR_METHOD(as_strided) __ROCPORT_TENSOR_METHOD(resize_)
  __ROCPORT_TENSOR_METHOD(set_requires_grad) __ROCPORT_TENSOR_METHOD(requires_grad_)
  __ROCPORT_TENSOR_METHOD(double_) __ROCPORT_TENSOR_METHOD(long_) __ROCPORT_TENSOR_METHOD(int_)
  __ROCPORT_TENSOR_METHOD(view_as) __ROCPORT_TENSOR_METHOD(reshape_as) __ROCPORT_TENSOR_METHOD(softmax)
  __ROCPORT_TENSOR_METHOD(argmax) __ROCPORT_TENSOR_METHOD(topk) __ROCPORT_TENSOR_METHOD(clamp)
  __ROCPORT_TENSOR_METHOD(clamp_) __ROCPORT_TENSOR_METHOD(neg) __ROCPORT_TENSOR_METHOD(eq) __ROCPORT_TENSOR_METHOD(ne)
  __ROCPORT_TENSOR_METHOD(lt) __ROCPORT_TENSOR_METHOD(gt) __ROCPORT_TENSOR_METHOD(all) __ROCPORT_TENSOR_METHOD(any)
  __ROCPORT_TENSOR_METHOD(record_stream) __ROCPORT_TENSOR_METHOD(pin_memory) __ROCPORT_TENSOR_METHOD(movedim)
  __ROCPORT_TENSOR_METHOD(unflatten) __ROCPORT_TENSOR_METHOD(cumsum) __ROCPORT_TENSOR_METHOD(rsqrt)
#undef __ROCPORT_TENSOR_METHOD
  template <class T> Tensor operator[](T) const;
  template <class T> Tensor operator+(const T &) const;
  template <class T> Tensor operator-(const T &) const;
  template <class T> Tensor operator*(const T &) const;
  template <class T> Tensor operator/(const T &) const;
  template <class T> Tensor operator==(const T &) const;
  template <class T> Tensor operator!=(const T &) const;
  template <class T> Tensor operator<(const T &) const;
  template <class T> Tensor operator>(const T &) const;
  template <class T> Tensor &operator+=(const T &);
  template <class T> Tensor &operator-=(const T &);
  template <class T> Tensor &operator*=(const T &);
  template <class T> Tensor &operator/=(const T &);
  Tensor operator-() const;
};
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;
#define __ROCPORT_TENSOR_FUNCTION(name)                                                                                \
  template <class... A> Tensor name(A &&...);                                                                          \
  template <class... A> Tensor name(IntArrayRef, A &&...);                                                             \
  template <class X, class... A> Tensor name(X &&, IntArrayRef, A &&...);                                              \
  template <class X, class Y, class... A> Tensor name(X &&, Y &&, IntArrayRef, A &&...);
__ROCPORT_TENSOR_FUNCTION(empty) __ROCPORT_TENSOR_FUNCTION(zeros) __ROCPORT_TENSOR_FUNCTION(ones)
__ROCPORT_TENSOR_FUNCTION(full) __ROCPORT_TENSOR_FUNCTION(empty_like) __ROCPORT_TENSOR_FUNCTION(zeros_like)
__ROCPORT_TENSOR_FUNCTION(ones_like) __ROCPORT_TENSOR_FUNCTION(full_like) __ROCPORT_TENSOR_FUNCTION(empty_strided)
__ROCPORT_TENSOR_FUNCTION(arange) __ROCPORT_TENSOR_FUNCTION(linspace) __ROCPORT_TENSOR_FUNCTION(rand)
__ROCPORT_TENSOR_FUNCTION(randn) __ROCPORT_TENSOR_FUNCTION(randint) __ROCPORT_TENSOR_FUNCTION(from_blob)
__ROCPORT_TENSOR_FUNCTION(tensor) __ROCPORT_TENSOR_FUNCTION(cat) __ROCPORT_TENSOR_FUNCTION(stack)
__ROCPORT_TENSOR_FUNCTION(matmul) __ROCPORT_TENSOR_FUNCTION(mm) __ROCPORT_TENSOR_FUNCTION(bmm)
__ROCPORT_TENSOR_FUNCTION(addmm) __ROCPORT_TENSOR_FUNCTION(softmax) __ROCPORT_TENSOR_FUNCTION(log_softmax)
__ROCPORT_TENSOR_FUNCTION(sum) __ROCPORT_TENSOR_FUNCTION(sum_out) __ROCPORT_TENSOR_FUNCTION(mean)
__ROCPORT_TENSOR_FUNCTION(where) __ROCPORT_TENSOR_FUNCTION(reshape) __ROCPORT_TENSOR_FUNCTION(clamp)
__ROCPORT_TENSOR_FUNCTION(clamp_min) __ROCPORT_TENSOR_FUNCTION(clamp_max) __ROCPORT_TENSOR_FUNCTION(exp)
__ROCPORT_TENSOR_FUNCTION(abs) __ROCPORT_TENSOR_FUNCTION(sqrt) __ROCPORT_TENSOR_FUNCTION(linear)
__ROCPORT_TENSOR_FUNCTION(pad) __ROCPORT_TENSOR_FUNCTION(silu) __ROCPORT_TENSOR_FUNCTION(gelu)
__ROCPORT_TENSOR_FUNCTION(relu) __ROCPORT_TENSOR_FUNCTION(sigmoid) __ROCPORT_TENSOR_FUNCTION(tanh)
__ROCPORT_TENSOR_FUNCTION(einsum) __ROCPORT_TENSOR_FUNCTION(empty_cuda) __ROCPORT_TENSOR_FUNCTION(narrow)
__ROCPORT_TENSOR_FUNCTION(max) __ROCPORT_TENSOR_FUNCTION(min) __ROCPORT_TENSOR_FUNCTION(allclose_)
__ROCPORT_TENSOR_FUNCTION(pow) __ROCPORT_TENSOR_FUNCTION(prod) __ROCPORT_TENSOR_FUNCTION(sort)
#undef __ROCPORT_TENSOR_FUNCTION
template <class... A> int64_t numel(A &&...);
optional<Device> device_of(const Tensor &);
optional<Device> device_of(const optional<Tensor> &);
struct Generator { template <class T> T *get() const; std::mutex &mutex() const; bool defined() const; };
struct PhiloxCudaState { PhiloxCudaState(); template <class... A> PhiloxCudaState(A &&...); union { uint64_t val; int64_t *ptr; } seed_, offset_; uint32_t offset_intragraph_; bool captured_; };
struct CUDAGeneratorImpl { PhiloxCudaState philox_cuda_state(uint64_t); std::pair<uint64_t, uint64_t> philox_engine_inputs(uint64_t); uint64_t current_seed() const; uint64_t seed(); std::mutex mutex_; };
template <class T> T *get_generator_or_default(const optional<Generator> &, const Generator &);
template <class T> T *check_generator(optional<Generator>);
template <class F> void parallel_for(int64_t, int64_t, int64_t, const F &);
int get_num_threads();
int get_thread_num();
ScalarType typeMetaToScalarType(TypeMeta);
/* The argument checks of ATen/TensorUtils.h. */
struct TensorArg {
  const Tensor &tensor;
  const char *name;
  int pos;
  TensorArg(const Tensor &, const char *, int);
  const Tensor *operator->() const;
  const Tensor &operator*() const;
};
struct TensorGeometryArg { TensorGeometryArg(const TensorArg &); };
using CheckedFrom = const char *;
void checkAllDefined(CheckedFrom, ArrayRef<TensorArg>);
void checkAllSameType(CheckedFrom, ArrayRef<TensorArg>);
void checkAllSameGPU(CheckedFrom, ArrayRef<TensorArg>);
void checkAllContiguous(CheckedFrom, ArrayRef<TensorArg>);
void checkSize(CheckedFrom, const TensorArg &, IntArrayRef);
void checkSize(CheckedFrom, const TensorArg &, int64_t, int64_t);
void checkScalarTypes(CheckedFrom, const TensorArg &, ArrayRef<ScalarType>);
template <class... A> void checkDim(A &&...);
template <class... A> void checkDimRange(A &&...);
template <class... A> void checkContiguous(A &&...);
template <class... A> void checkSameType(A &&...);
template <class... A> void checkSameGPU(A &&...);
template <class... A> void checkSameSize(A &&...);
template <class... A> void checkSameDim(A &&...);
template <class... A> void checkNumel(A &&...);
template <class... A> void checkSameNumel(A &&...);
template <class... A> void checkScalarType(A &&...);
template <class... A> void checkDeviceType(A &&...);
template <class... A> void checkLayout(A &&...);
template <class... A> void checkDefined(A &&...);
namespace internal { constexpr int64_t GRAIN_SIZE = 32768; }
void manual_seed(uint64_t);
struct NoGradGuard { NoGradGuard(); };
struct AutoDispatchBelowADInplaceOrView { AutoDispatchBelowADInplaceOrView(); };
template <class T> struct OpMathType { using type = float; };
template <class T> using opmath_type = float;
template <class T, bool C = true> struct AccumulateType { using type = float; };
template <class T, bool C = true> using acc_type = float;
namespace cuda {
using namespace c10::cuda;
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int64_t);
int warp_size();
cublasHandle_t getCurrentCUDABlasHandle();
cublasLtHandle_t getCurrentCUDABlasLtHandle();
cusparseHandle_t getCurrentCUDASparseHandle();
void *getCurrentCUDABlasLtWorkspace();
size_t getCUDABlasLtWorkspaceSize();
struct CUDAEvent {
  CUDAEvent(unsigned int = 0);
  void record();
  template <class S> void record(const S &);
  template <class S> void block(const S &);
  template <class S> void recordOnce(const S &);
  float elapsed_time(const CUDAEvent &) const;
  void synchronize() const;
  bool query() const;
  operator cudaEvent_t() const;
  cudaEvent_t event() const;
};
namespace detail { const Generator &getDefaultCUDAGenerator(DeviceIndex = -1); }
namespace philox { __host__ __device__ std::tuple<uint64_t, uint64_t> unpack(PhiloxCudaState); }
template <class... A> struct ThrustAllocator {};
}
namespace native {}
namespace vec {
template <class T> struct Vectorized {
  Vectorized();
  template <class... A> Vectorized(A &&...);
  static constexpr int size() { return 32 / sizeof(T); }
  static Vectorized loadu(const void *, int64_t = size());
  void store(void *, int = size()) const;
  T operator[](int) const;
  template <class U> Vectorized operator+(const U &) const;
  template <class U> Vectorized operator-(const U &) const;
  template <class U> Vectorized operator*(const U &) const;
  template <class U> Vectorized operator/(const U &) const;
  Vectorized exp() const;
  Vectorized neg() const;
};
template <class... A> struct VectorizedN { template <class... B> VectorizedN(B &&...); };
template <class... A> auto convert(A &&...) -> Vectorized<float>;
template <class... A> auto maximum(A &&...) -> Vectorized<float>;
template <class... A> auto minimum(A &&...) -> Vectorized<float>;
template <class... A> auto clamp(A &&...) -> Vectorized<float>;
template <class... A> auto clamp_min(A &&...) -> Vectorized<float>;
template <class... A> auto fmadd(A &&...) -> Vectorized<float>;
}
}

namespace c10 { using at::TensorOptions; using at::Tensor; }

namespace torch {
using namespace at;
using at::Tensor;
using Dtype = at::ScalarType;
template <class T> struct class_;
/* `torch::arg("scale") = 1.0` in a schema-less def's argument list. */
struct arg { arg(const char *); template <class T> arg &operator=(T &&); };
struct Library {
  template <class T> class_<T> class_(const std::string &);
  template <class... A> Library &def(A &&...) &;
  template <class... A> Library &impl(A &&...) &;
  template <class... A> Library &fallback(A &&...) &;
};
template <class F> F *dispatch(c10::DeviceType, F *);
template <class F> F wrap_pybind_function(F);
template <class F> F wrap_pybind_function_no_gil(F);
/* TorchScript operator and class registration (torch/script.h, torch/custom_class.h). */
struct CustomClassHolder : c10::intrusive_ptr_target {};
template <class... A> struct InitTypes {};
template <class... A> InitTypes<A...> init();
template <class F> InitTypes<> init(F &&);
template <class T> struct class_ {
  class_(const std::string &, const std::string & = "", std::string = "");
  template <class... A> class_ &def(A &&...);
  template <class... A> class_ &def_pickle(A &&...);
  template <class... A> class_ &def_static(A &&...);
  template <class... A> class_ &def_readwrite(A &&...);
  template <class... A> class_ &def_readonly(A &&...);
  template <class... A> class_ &def_property(A &&...);
  // A braced argument list deduces no pack element: `{torch::arg("x"), torch::arg("y")}`.
  template <class N, class F> class_ &def(N &&, F &&, const char *, std::initializer_list<arg>);
  template <class N, class F> class_ &def(N &&, F &&, std::initializer_list<arg>);
};
struct RegisterOperators {
  RegisterOperators();
  template <class... A> RegisterOperators(A &&...);
  template <class... A> RegisterOperators &&op(A &&...) &&;
};
namespace jit {
using torch::class_;
using torch::CustomClassHolder;
using torch::init;
using torch::RegisterOperators;
}
namespace indexing {
struct Slice { Slice(); template <class... A> Slice(A &&...); };
struct EllipsisIndexType {};
constexpr EllipsisIndexType Ellipsis{};
constexpr std::nullopt_t None{0};
}
namespace autograd {
struct AutogradContext {
  template <class... A> void save_for_backward(A &&...);
  std::vector<Tensor> get_saved_variables() const;
  std::map<std::string, c10::IValue> saved_data;
  void mark_non_differentiable(const std::vector<Tensor> &);
};
using variable_list = std::vector<Tensor>;
template <class T> struct Function { template <class... A> static variable_list apply(A &&...); };
}
namespace nn { namespace functional {
struct PadFuncOptions { PadFuncOptions(std::vector<int64_t>); template <class T> PadFuncOptions &mode(T); template <class T> PadFuncOptions &value(T); };
template <class... A> Tensor pad(A &&...);
} }
namespace stable {
using Tensor = at::Tensor;
using at::empty;
using at::empty_like;
using at::zeros;
template <class... A> Tensor new_empty(A &&...);
template <class... A> Tensor new_zeros(A &&...);
template <class... A> Tensor zero_(A &&...);
template <class... A> Tensor fill_(A &&...);
template <class... A> Tensor view(A &&...);
template <class... A> Tensor transpose(A &&...);
template <class... A> Tensor contiguous(A &&...);
namespace accelerator {
using DeviceIndex = int32_t;
struct DeviceGuard { explicit DeviceGuard(DeviceIndex); };
DeviceIndex getCurrentDeviceIndex();
void *getCurrentStream(DeviceIndex);
}
namespace detail { template <class T, class U> T to(U); template <class T> void *from(T); }
struct StableLibrary { template <class... A> StableLibrary &def(A &&...); template <class... A> StableLibrary &impl(A &&...); };
}
namespace headeronly {
using c10::ScalarType;
using c10::Half;
using c10::BFloat16;
template <class T, size_t N, template <class> class PtrTraits = at::DefaultPtrTraits, class Index = int64_t>
using HeaderOnlyGenericPackedTensorAccessor = at::GenericPackedTensorAccessor<T, N, PtrTraits, Index>;
}
}

#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_CHECK_EQ(a, b, ...) ((void)((a) == (b)))
#define TORCH_CHECK_NE(a, b, ...) ((void)((a) != (b)))
#define TORCH_CHECK_LT(a, b, ...) ((void)((a) < (b)))
#define TORCH_CHECK_LE(a, b, ...) ((void)((a) <= (b)))
#define TORCH_CHECK_GT(a, b, ...) ((void)((a) > (b)))
#define TORCH_CHECK_GE(a, b, ...) ((void)((a) >= (b)))
#define TORCH_CHECK_VALUE(cond, ...) ((void)(cond))
#define TORCH_CHECK_TYPE(cond, ...) ((void)(cond))
#define TORCH_CHECK_INDEX(cond, ...) ((void)(cond))
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) ((void)(cond))
#define STD_TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) ((void)(cond))
#define TORCH_WARN(...) ((void)0)
#define TORCH_WARN_ONCE(...) ((void)0)
#define TORCH_ERROR(...) ((void)0)
#define AT_ERROR(...) ((void)0)
#define AT_ASSERT(...) ((void)0)
#define AT_ASSERTM(...) ((void)0)
#define AT_CUDA_CHECK(e) ((void)(e))
#define C10_CUDA_CHECK(e) ((void)(e))
#define C10_CUDA_CHECK_WARN(e) ((void)(e))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define TORCH_CUDABLAS_CHECK(e) ((void)(e))
#define TORCH_CUDASPARSE_CHECK(e) ((void)(e))
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#define C10_ALWAYS_INLINE inline __attribute__((always_inline))
#define C10_NOINLINE __attribute__((noinline))
#define C10_UNUSED __attribute__((unused))
#define C10_LIKELY(e) (e)
#define C10_UNLIKELY(e) (e)
#define C10_API
#define TORCH_API
#define C10_EXPORT
#define C10_WARP_SIZE 32
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__(max_threads)
#define C10_LAUNCH_BOUNDS_2(max_threads, min_blocks) __launch_bounds__(max_threads, min_blocks)
#define C10_CONCATENATE(a, b) a##b
#define C10_STRINGIZE(x) #x
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(...)
#define C10_DIAGNOSTIC_POP()
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 6
#define TORCH_EXTENSION_NAME rocport_torch_extension
#define TORCH_FN(f) (f)
#define TORCH_BOX(f) (f)
#define TORCH_SELECTIVE_SCHEMA(s) (s)
#define TORCH_SELECTIVE_NAME(s) (s)
#define TORCH_LIBRARY(ns, m) void __rocport_torch_library_##ns(::torch::Library &m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) void __rocport_torch_library_fragment_##ns(::torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, k, m) void __rocport_torch_library_impl_##ns##_##k(::torch::Library &m)
#define STABLE_TORCH_LIBRARY(ns, m) void __rocport_stable_library_##ns(::torch::stable::StableLibrary &m)
#define STABLE_TORCH_LIBRARY_FRAGMENT(ns, m) void __rocport_stable_fragment_##ns(::torch::stable::StableLibrary &m)
#define STABLE_TORCH_LIBRARY_IMPL(ns, k, m) void __rocport_stable_impl_##ns##_##k(::torch::stable::StableLibrary &m)
/* AT_DISPATCH_*: the lambda (the last arguments) runs with `scalar_t` declared, as each case of the real switch. */
#define __ROCPORT_AT_DISPATCH(TYPE, NAME, ...)                                                                         \
  [&] {                                                                                                                \
    (void)(TYPE);                                                                                                      \
    (void)(NAME);                                                                                                      \
    using scalar_t = float;                                                                                            \
    using opmath_t = float;                                                                                            \
    return __VA_ARGS__();                                                                                              \
  }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(T1, T2, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(T1, T2, TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) __ROCPORT_AT_DISPATCH(TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                                                            \
  [&] {                                                                                                                \
    (void)(NAME);                                                                                                      \
    switch (TYPE) {                                                                                                    \
      __VA_ARGS__                                                                                                      \
    default:;                                                                                                          \
    }                                                                                                                  \
  }()
#define AT_DISPATCH_CASE(enum_type, ...)                                                                               \
  case enum_type: {                                                                                                    \
    using scalar_t = float;                                                                                            \
    __VA_ARGS__();                                                                                                     \
    break;                                                                                                             \
  }
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(...) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND(T1, ...) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND2(T1, T2, ...) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...) AT_DISPATCH_CASE(at::ScalarType::Int, __VA_ARGS__)
#endif
