/* ROCport's model of ExecuTorch's kernel API (`executorch/runtime/kernel/kernel_includes.h`,
 * `executorch/extension/kernel_util/make_boxed_from_unboxed_functor.h` and the like) for a parse without its
 * headers: the portable Tensor, ScalarType, Error, the kernel's runtime context, the ET_CHECK family, the
 * ET_SWITCH dispatch macros, EXECUTORCH_LIBRARY and the threadpool, declared permissively. A project that ships
 * its operators for both ATen and ExecuTorch builds them from the same kernels; enough that such a file keeps its
 * declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_EXECUTORCH_H
#define ROCPORT_MODEL_EXECUTORCH_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
namespace executorch {
namespace runtime {
enum class Error : unsigned int { Ok = 0, Internal = 1, InvalidState = 2, EndOfMethod = 3, NotSupported = 16,
                                  NotImplemented = 17, InvalidArgument = 18, InvalidType = 19, OperatorMissing = 20,
                                  NotFound = 32, MemoryAllocationFailed = 33, AccessFailed = 34, InvalidProgram = 35 };
template <class T> class ArrayRef {
public:
  ArrayRef();
  template <class... A> ArrayRef(A &&...);
  ArrayRef(std::initializer_list<T>);
  const T *data() const;
  size_t size() const;
  bool empty() const;
  const T &operator[](size_t) const;
  const T *begin() const;
  const T *end() const;
};
template <class T> using Span = ArrayRef<T>;
template <class T> class Result {
public:
  template <class... A> Result(A &&...);
  bool ok() const;
  Error error() const;
  T &get();
  T &operator*();
  T *operator->();
};
template <class T> class optional {
public:
  optional();
  template <class... A> optional(A &&...);
  bool has_value() const;
  T &value();
  const T &value() const;
  explicit operator bool() const;
  T &operator*();
  T *operator->();
};
} // namespace runtime
namespace aten {
enum class ScalarType : signed char { Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat,
                                      ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4,
                                      Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16, Float8_e5m2, Float8_e4m3fn,
                                      Float8_e5m2fnuz, Float8_e4m3fnuz, UInt16, UInt32, UInt64, Undefined, NumOptions };
using SizesType = int32_t;
using DimOrderType = unsigned char;
using StridesType = int32_t;
using IntArrayRef = ::executorch::runtime::ArrayRef<int64_t>;
enum class TensorShapeDynamism : unsigned char { STATIC = 0, DYNAMIC_BOUND = 1, DYNAMIC_UNBOUND = 2 };
class Tensor {
public:
  Tensor();
  template <class... A> explicit Tensor(A &&...);
  ssize_t dim() const;
  ssize_t numel() const;
  ssize_t size(ssize_t) const;
  size_t nbytes() const;
  size_t element_size() const;
  ScalarType scalar_type() const;
  ScalarType dtype() const;
  ::executorch::runtime::ArrayRef<SizesType> sizes() const;
  ::executorch::runtime::ArrayRef<StridesType> strides() const;
  ::executorch::runtime::ArrayRef<DimOrderType> dim_order() const;
  TensorShapeDynamism shape_dynamism() const;
  template <class T = void> const T *const_data_ptr() const;
  template <class T = void> T *mutable_data_ptr() const;
  template <class T = void> T *data_ptr() const;
  void *unsafeGetTensorImpl() const;
};
struct Scalar {
  Scalar();
  template <class T> Scalar(T);
  template <class T> T to() const;
  bool isFloatingPoint() const;
  bool isIntegral(bool = false) const;
};
template <class T> using optional = ::executorch::runtime::optional<T>;
template <class T> using ArrayRef = ::executorch::runtime::ArrayRef<T>;
} // namespace aten
namespace runtime {
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::SizesType;
class KernelRuntimeContext {
public:
  KernelRuntimeContext();
  template <class... A> KernelRuntimeContext(A &&...);
  void fail(Error);
  Error failure_state() const;
  Result<void *> allocate_temp(size_t, size_t = 16);
};
using RuntimeContext = KernelRuntimeContext;
Error resize_tensor(Tensor &, ArrayRef<SizesType>);
template <class... A> Error resize_tensor(Tensor &, A &&...);
bool tensor_is_contiguous(const Tensor &);
bool tensors_have_same_dtype(const Tensor &, const Tensor &);
bool tensors_have_same_shape(const Tensor &, const Tensor &);
bool tensor_has_dim(const Tensor &, int64_t);
const char *toString(ScalarType);
size_t elementSize(ScalarType);
bool isFloatingType(ScalarType);
bool isIntegralType(ScalarType, bool);
template <class T> struct CppTypeToScalarType { static constexpr ScalarType value = ScalarType::Float; };
struct Kernel {
  template <class... A> Kernel(A &&...);
};
template <class... A> Error register_kernel(A &&...);
template <class... A> Error register_kernels(A &&...);
namespace internal {
template <class... A> Error resize_tensor_impl(A &&...);
} // namespace internal
} // namespace runtime
namespace extension {
namespace threadpool {
class ThreadPool {
public:
  template <class F> bool run(F &&, size_t);
  size_t get_thread_count() const;
  bool _unsafe_reset_threadpool(uint32_t);
};
ThreadPool *get_threadpool();
} // namespace threadpool
template <class F> struct __rocport_kernel_wrapper { static void wrap(::executorch::runtime::KernelRuntimeContext &, void **); };
template <class... A> ::executorch::runtime::Kernel make_boxed_kernel(A &&...);
template <class F> ::__rocport_cx parallel_for(int64_t, int64_t, int64_t, const F &);
} // namespace extension
} // namespace executorch
namespace exec_aten = ::executorch::aten;
namespace torch {
namespace executor {
using namespace ::executorch::runtime;
using ::executorch::aten::Scalar;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::SizesType;
namespace util {
using namespace ::executorch::extension;
} // namespace util
} // namespace executor
namespace executorch {
namespace threadpool {
using namespace ::executorch::extension::threadpool;
} // namespace threadpool
} // namespace executorch
} // namespace torch
#define ET_LOG(level, ...) ((void)0)
#define ET_CHECK(cond) ((void)(cond))
#define ET_CHECK_MSG(cond, ...) ((void)(cond))
#define ET_DCHECK(cond) ((void)(cond))
#define ET_DCHECK_MSG(cond, ...) ((void)(cond))
#define ET_CHECK_OK_OR_RETURN_ERROR(...) ((void)(__VA_ARGS__))
#define ET_CHECK_OR_RETURN_ERROR(cond, error, ...) ((void)(cond))
#define ET_CHECK_OR_RETURN_FALSE(cond, ...) ((void)(cond))
#define ET_KERNEL_CHECK(ctx, cond, error, retval) ((void)(ctx), (void)(cond))
#define ET_KERNEL_CHECK_MSG(ctx, cond, error, retval, ...) ((void)(ctx), (void)(cond))
#define ET_UNWRAP(...) (*(__VA_ARGS__))
#define ET_UNUSED __attribute__((unused))
#define ET_INLINE inline
#define ET_NODISCARD [[nodiscard]]
#define ET_UNREACHABLE() __builtin_unreachable()
#define ET_FALLTHROUGH [[fallthrough]]
#define ET_LIKELY(x) (x)
#define ET_UNLIKELY(x) (x)
/* EXECUTORCH_LIBRARY(ns, "op.out", fn): a static registration of the function; the function itself stays the
 * unit's declaration. */
#define EXECUTORCH_LIBRARY(ns, op_name, func)                                                                          \
  static auto __ROCPORT_ET_CONCAT(__rocport_et_registered_, __LINE__) =                                               \
      ::executorch::runtime::register_kernel(op_name, &func)
#define __ROCPORT_ET_CONCAT(a, b) __ROCPORT_ET_CONCAT_(a, b)
#define __ROCPORT_ET_CONCAT_(a, b) a##b
/* ET_SWITCH_*: the lambda (the last arguments) runs with the type alias declared, as each case of the switch. */
#define __ROCPORT_ET_SWITCH(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)                                                      \
  [&] {                                                                                                                \
    (void)(TYPE);                                                                                                      \
    (void)(NAME);                                                                                                      \
    using CTYPE_ALIAS = float;                                                                                         \
    return __VA_ARGS__();                                                                                              \
  }()
#define ET_SWITCH_REAL_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_REALH_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_REALHB_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_REALHBF16_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_REALHBBF16_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_FLOAT_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_FLOATH_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_FLOATHBF16_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_INT_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#define ET_SWITCH_ALL_TYPES(T, C, N, A, ...) __ROCPORT_ET_SWITCH(T, C, N, A, __VA_ARGS__)
#endif
