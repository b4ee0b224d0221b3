/* ROCport's model of CUTLASS's core vocabulary for a parse without the CUTLASS headers (usually a git submodule the
 * scan did not fetch): the attribute and unroll macros, numeric types, Array, shapes and layouts, arch tags,
 * numeric conversion, status codes, a few device helpers. Declared permissively: enough that a kernel's
 * translation unit keeps its declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_CUTLASS_H
#define ROCPORT_MODEL_CUTLASS_H
#pragma clang system_header
#define CUTLASS_HOST_DEVICE __host__ __device__ inline
#define CUTLASS_DEVICE __device__ inline
#define CUTLASS_HOST __host__
#define CUTLASS_GLOBAL __global__ static
#define CUTLASS_PRAGMA_UNROLL _Pragma("unroll")
#define CUTLASS_PRAGMA_NO_UNROLL _Pragma("unroll 1")
#define CUTLASS_GEMM_LOOP
#define CUTLASS_UNUSED(x) ((void)(x))
#define CUTLASS_ASSERT(x) ((void)(x))
#define CUTLASS_CHECK(status) ((void)(status))
#define CUTLASS_CUDA_CHECK(status) ((void)(status))
#define CUTLASS_TRACE_HOST(x)
#define CUTLASS_TRACE_DEVICE(...)
#define CUTLASS_NOT_IMPLEMENTED() ((void)0)
#define CUTLASS_CONSTEXPR_IF_CXX17 constexpr
#define CUTLASS_STATIC_ASSERT(...)
#define CUTLASS_NAMESPACE cutlass
/* A kernel parameter passed in constant memory on sm_70+ (`__grid_constant__`); nothing for a parse. */
#define CUTLASS_GRID_CONSTANT
/* CUTLASS 4's arch-family tests in `#if` (family- and architecture-specific features, e.g. sm_100f/sm_100a). */
#ifndef CUDA_ARCH_FAMILY
#define CUDA_ARCH_FAMILY(arch) 0
#endif
#ifndef CUDA_ARCH_CONDITIONAL
#define CUDA_ARCH_CONDITIONAL(arch) 0
#endif
#ifndef CUDA_ARCH_CONDITIONAL_OR_FAMILY
#define CUDA_ARCH_CONDITIONAL_OR_FAMILY(arch) 0
#endif
#define CUTLASS_MAJOR 3
#define CUTLASS_MINOR 9
#define CUTE_HOST_DEVICE __host__ __device__ inline
#define CUTE_DEVICE __device__ inline
#define CUTE_HOST __host__ inline
#define CUTE_HOST_RTC __host__ __device__ inline
#define CUTE_UNROLL _Pragma("unroll")
#define CUTE_NO_UNROLL _Pragma("unroll 1")
#define CUTE_INLINE_CONSTANT static const __device__
#define CUTE_STATIC_ASSERT static_assert
#define CUTE_STATIC_ASSERT_V(x, ...) static_assert(decltype(x)::value, "")
#define CUTE_STATIC_V(x) decltype(x)::value
#define CUTE_GCC_UNREACHABLE __builtin_unreachable()
#define CUTE_INVALID_CONTROL_PATH(x) ((void)0)
#define CUTE_RUNTIME_ASSERT(x) ((void)0)
#define CUTE_LOG(...)
#define CUTE_ALIGNAS(n) alignas(n)

#include "/__rocport_models__/permissive.h"

namespace cutlass {
/* A host-side adapter CUTLASS 3 kernels take in their `initialize` (CUDA-graph and driver-API launches). */
struct CudaHostAdapter;
}  // namespace cutlass

namespace cutlass {
namespace detail {
/* static_assert(dependent_false<T>, "...") in the last branch of an `if constexpr` chain. */
template <class... T> inline constexpr bool dependent_false = false;
}  // namespace detail
}  // namespace cutlass

namespace cutlass {
template <class T> struct __numeric {
  unsigned short storage;
  __host__ __device__ __numeric();
  __host__ __device__ __numeric(float);
  __host__ __device__ explicit __numeric(double);
  __host__ __device__ explicit __numeric(int);
  __host__ __device__ operator float() const;
  __host__ __device__ static T bitcast(unsigned);
  __host__ __device__ unsigned raw() const;
};
struct half_t : __numeric<half_t> { using __numeric<half_t>::__numeric; __host__ __device__ half_t(__half); __host__ __device__ __half to_half() const; };
struct bfloat16_t : __numeric<bfloat16_t> { using __numeric<bfloat16_t>::__numeric; __host__ __device__ bfloat16_t(__nv_bfloat16); };
struct tfloat32_t : __numeric<tfloat32_t> { using __numeric<tfloat32_t>::__numeric; };
struct float_e4m3_t : __numeric<float_e4m3_t> { using __numeric<float_e4m3_t>::__numeric; };
struct float_e5m2_t : __numeric<float_e5m2_t> { using __numeric<float_e5m2_t>::__numeric; };
struct float_e2m1_t : __numeric<float_e2m1_t> { using __numeric<float_e2m1_t>::__numeric; };
struct float_e2m3_t : __numeric<float_e2m3_t> { using __numeric<float_e2m3_t>::__numeric; };
struct float_e3m2_t : __numeric<float_e3m2_t> { using __numeric<float_e3m2_t>::__numeric; };
struct float_ue8m0_t : __numeric<float_ue8m0_t> { using __numeric<float_ue8m0_t>::__numeric; };
struct float_ue4m3_t : __numeric<float_ue4m3_t> { using __numeric<float_ue4m3_t>::__numeric; };
template <int Bits, bool Signed = true> struct integer_subbyte : __numeric<integer_subbyte<Bits, Signed>> { using __numeric<integer_subbyte<Bits, Signed>>::__numeric; };
using int4b_t = integer_subbyte<4, true>;
using uint4b_t = integer_subbyte<4, false>;
using int2b_t = integer_subbyte<2, true>;
using uint2b_t = integer_subbyte<2, false>;
using uint1b_t = integer_subbyte<1, false>;
using bin1_t = integer_subbyte<1, false>;
using uint128_t = __rocport_cx_type<>;
template <class T> struct complex { T r, i; __host__ __device__ complex(T = T(), T = T()); __host__ __device__ T real() const; __host__ __device__ T imag() const; };
template <class T> struct sizeof_bits { static constexpr int value = int(sizeof(T) * 8); };
template <class T> constexpr int sizeof_bits_v = sizeof_bits<T>::value;
template <class T, int N, bool RegisterSized = true> struct Array {
  using Element = T;
  using value_type = T;
  using Storage = T;
  using size_type = size_t;
  using reference = T &;
  using const_reference = const T &;
  using pointer = T *;
  using iterator = T *;
  using const_iterator = const T *;
  static constexpr int kElements = N;
  static constexpr size_t kStorageElements = N;
  T storage[N > 0 ? N : 1];
  __host__ __device__ Array();
  __host__ __device__ constexpr size_t size() const { return N; }
  __host__ __device__ T &operator[](size_t);
  __host__ __device__ const T &operator[](size_t) const;
  __host__ __device__ T &at(size_t);
  __host__ __device__ T *data();
  __host__ __device__ const T *data() const;
  __host__ __device__ T *raw_data();
  __host__ __device__ T *begin();
  __host__ __device__ T *end();
  __host__ __device__ T &front();
  __host__ __device__ T &back();
  __host__ __device__ void clear();
  __host__ __device__ void fill(T);
};
template <class T, int N, int Alignment = int(sizeof(T) * N)> struct AlignedArray : Array<T, N> {};
template <class T, int N, int Align = 16> struct AlignedBuffer {
  using Element = T;
  static constexpr int kCount = N;
  __host__ __device__ T *data();
  __host__ __device__ const T *data() const;
  __host__ __device__ size_t size() const;
  __host__ __device__ T &operator[](size_t);
};
template <int Rank, class Index = int, class LongIndex = int64_t> struct Coord {
  static constexpr int kRank = Rank;
  Index idx[Rank];
  __host__ __device__ Coord(Index = 0);
  template <class... A> __host__ __device__ Coord(A...);
  __host__ __device__ Index &operator[](int);
  __host__ __device__ Index operator[](int) const;
  __host__ __device__ Coord operator+(const Coord &) const;
  __host__ __device__ Coord operator-(const Coord &) const;
  __host__ __device__ Coord operator*(const Coord &) const;
  __host__ __device__ LongIndex product() const;
};
template <class... A> __host__ __device__ Coord<int(sizeof...(A))> make_Coord(A...);
struct MatrixCoord : Coord<2> {
  using Coord<2>::Coord;
  __host__ __device__ MatrixCoord(int, int);
  __host__ __device__ int &row();
  __host__ __device__ int &column();
  __host__ __device__ int row() const;
  __host__ __device__ int column() const;
};
template <int Row, int Column> struct MatrixShape {
  static constexpr int kRow = Row, kColumn = Column, kCount = Row * Column;
  __host__ __device__ static MatrixCoord toCoord();
};
struct PitchLinearCoord : Coord<2> { using Coord<2>::Coord; __host__ __device__ int contiguous() const; __host__ __device__ int strided() const; };
template <int Contiguous, int Strided> struct PitchLinearShape { static constexpr int kContiguous = Contiguous, kStrided = Strided, kCount = Contiguous * Strided; };
enum class Status {
  kSuccess, kErrorMisalignedOperand, kErrorInvalidDataType, kErrorInvalidLayout, kErrorInvalidProblem,
  kErrorNotSupported, kErrorWorkspaceNull, kErrorInternal, kErrorArchMismatch, kErrorInsufficientDriver,
  kErrorMemoryAllocation, kInvalid
};
__host__ __device__ const char *cutlassGetStatusString(Status);
enum class FloatRoundStyle {
  round_indeterminate, round_toward_zero, round_to_nearest, round_to_nearest_satfinite, round_toward_infinity,
  round_toward_neg_infinity, round_half_ulp_truncate, round_half_ulp_trunc_dntz
};
enum class ComplexTransform { kNone, kConjugate };
template <class T, class S, FloatRoundStyle Round = FloatRoundStyle::round_to_nearest> struct NumericConverter {
  using result_type = T;
  using source_type = S;
  static constexpr FloatRoundStyle round_style = Round;
  __host__ __device__ static T convert(const S &);
  __host__ __device__ T operator()(const S &) const;
};
template <class T, class S, FloatRoundStyle Round = FloatRoundStyle::round_to_nearest> struct NumericConverterClamp : NumericConverter<T, S, Round> {};
template <class T, class S, int N, FloatRoundStyle Round = FloatRoundStyle::round_to_nearest, class Transform = void>
struct NumericArrayConverter {
  using result_type = Array<T, N>;
  using source_type = Array<S, N>;
  __host__ __device__ static result_type convert(const source_type &);
  __host__ __device__ result_type operator()(const source_type &) const;
};
template <class T, class S, int N, FloatRoundStyle Round = FloatRoundStyle::round_to_nearest>
struct FastNumericArrayConverter : NumericArrayConverter<T, S, N, Round> {};
template <class T> struct plus { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T> struct minus { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T> struct multiplies { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T> struct divides { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T, bool PropagateNaN = false> struct maximum { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T, bool PropagateNaN = false> struct minimum { __host__ __device__ T operator()(const T &, const T &) const; };
template <class T> struct multiply_add { __host__ __device__ T operator()(const T &, const T &, const T &) const; };
template <class T> struct absolute_value_op { __host__ __device__ T operator()(const T &) const; };
template <class T> struct negate { __host__ __device__ T operator()(const T &) const; };
template <class A, class B> __host__ __device__ constexpr auto ceil_div(A a, B b) { return (a + b - 1) / b; }
template <class A, class B> __host__ __device__ constexpr auto round_up(A a, B b) { return ((a + b - 1) / b) * b; }
template <class A, class B> __host__ __device__ constexpr auto fast_min(A a, B b) { return a < b ? a : b; }
template <class A, class B> __host__ __device__ constexpr auto fast_max(A a, B b) { return a < b ? b : a; }
template <class T> __host__ __device__ T fast_exp(T);
template <class T> __host__ __device__ T fast_log(T);
template <class T> __host__ __device__ T fast_sqrt(T);
__host__ __device__ int const_min(int, int);
__host__ __device__ int const_max(int, int);
struct FastDivmod {
  int divisor;
  __host__ __device__ FastDivmod();
  __host__ __device__ FastDivmod(int);
  __host__ __device__ void operator()(int &, int &, int) const;
  __host__ __device__ int div(int) const;
  __host__ __device__ int divide(int) const;
  __host__ __device__ int divmod(int &, int) const;
  __host__ __device__ operator int() const;
};
using FastDivmodU64 = FastDivmod;
constexpr int NumThreadsPerWarp = 32;
constexpr int NumThreadsPerWarpGroup = 128;
constexpr int NumWarpsPerWarpGroup = 4;
constexpr int NumThreadsPerQuad = 4;
constexpr int NumThreadsPerQuadPair = 8;
__device__ int canonical_warp_idx_sync();
__device__ int canonical_warp_idx();
__device__ int canonical_warp_group_idx();
__device__ int canonical_lane_idx();
struct KernelHardwareInfo {
  int device_id = 0;
  int sm_count = 0;
  int max_active_clusters = 0;
  static int query_device_multiprocessor_count(int = 0);
  template <class... A> static int query_device_max_active_clusters(A &&...);
};
template <class... A> void kernel_launch(A &&...);
template <class Kernel> __global__ void device_kernel(typename Kernel::Params);
template <class T, class L> struct TensorRef {
  using Element = T;
  using Layout = L;
  __host__ __device__ TensorRef();
  template <class... A> __host__ __device__ TensorRef(A &&...);
  __host__ __device__ T *data() const;
  __host__ __device__ L layout() const;
  __host__ __device__ typename L::Stride stride() const;
};
template <class T, class L> struct TensorView : TensorRef<T, L> { template <class... A> __host__ __device__ TensorView(A &&...); };
template <class... A> auto make_TensorRef(A &&...) -> __rocport_cx;
template <class... A> auto make_cute_packed_stride(A &&...) -> __rocport_cx;
template <class... A> auto make_producer_start_state() -> __rocport_cx;
template <class... A> struct PipelineTmaAsync : __rocport_cx_type<A...> {};
template <class... A> struct PipelineAsync : __rocport_cx_type<A...> {};
template <class... A> struct PipelineTransactionAsync : __rocport_cx_type<A...> {};
template <class... A> struct PipelineState : __rocport_cx_type<A...> {};
namespace platform {
template <class A, class B> struct is_same { static constexpr bool value = false; };
template <class A> struct is_same<A, A> { static constexpr bool value = true; };
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <class T> struct numeric_limits {
  __host__ __device__ static T max();
  __host__ __device__ static T min();
  __host__ __device__ static T lowest();
  __host__ __device__ static T infinity();
  __host__ __device__ static T quiet_NaN();
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
};
template <class T> struct is_floating_point { static constexpr bool value = false; };
template <class T> struct remove_cv { using type = T; };
template <class T> __host__ __device__ constexpr const T &min(const T &, const T &);
template <class T> __host__ __device__ constexpr const T &max(const T &, const T &);
}
namespace arch {
struct Sm50 {}; struct Sm60 {}; struct Sm61 {}; struct Sm70 {}; struct Sm72 {}; struct Sm75 {}; struct Sm80 {};
struct Sm86 {}; struct Sm89 {}; struct Sm90 {}; struct Sm100 {}; struct Sm101 {}; struct Sm103 {}; struct Sm120 {};
struct OpClassSimt {}; struct OpClassTensorOp {}; struct OpClassWmmaTensorOp {}; struct OpClassSparseTensorOp {};
struct OpClassBlockScaledTensorOp {};
struct OpMultiplyAdd {}; struct OpMultiplyAddSaturate {}; struct OpMultiplyAddFastBF16 {};
struct OpMultiplyAddFastF16 {}; struct OpMultiplyAddFastF32 {}; struct OpMultiplyAddComplex {};
struct OpMultiplyAddMixedInputUpcast {}; struct OpXorPopc {}; struct OpAndPopc {};
struct CacheOperation { enum Kind { Always, Global, Streaming, LastUse, Volatile, Writeback, WriteThrough }; };
enum class ReservedNamedBarriers { EpilogueBarrier = 1, TransposeBarrier = 2, TransformBarrier = 3, StreamkBarrier0 = 4, StreamkBarrier1 = 5, FirstUserBarrier = 6 };
struct NamedBarrier {
  __device__ NamedBarrier(unsigned, unsigned = 0);
  template <class... A> __device__ static void sync(A...);
  template <class... A> __device__ static void arrive(A...);
  template <class... A> __device__ static void arrive_and_wait(A...);
};
struct ClusterBarrier {
  using ValueType = uint64_t;
  template <class... A> __device__ static void init(A...);
  template <class... A> __device__ static void wait(A...);
  template <class... A> __device__ static bool test_wait(A...);
  template <class... A> __device__ static bool try_wait(A...);
  template <class... A> __device__ static void arrive(A...);
};
struct ClusterTransactionBarrier : ClusterBarrier {
  template <class... A> __device__ static void arrive_and_expect_tx(A...);
  template <class... A> __device__ static void expect_transaction(A...);
};
template <class... A> struct Mma : __rocport_cx_type<A...> {};
template <class... A> struct Wmma : __rocport_cx_type<A...> {};
template <int N> __device__ void warpgroup_reg_alloc();
template <int N> __device__ void warpgroup_reg_dealloc();
__device__ void fence_view_async_shared();
__device__ void fence_barrier_init();
__device__ void fence_view_async_tmem_load();
__device__ void fence_view_async_tmem_store();
template <class... A> __device__ void umma_arrive(A...);
template <class... A> __device__ void umma_arrive_multicast_2x1SM(A...);
template <class... A> __device__ void cpasync_barrier_arrive(A...);
template <class... A> __device__ void launch_dependent_grids(A...);
template <class... A> __device__ void wait_on_dependent_grids(A...);
template <int N, CacheOperation::Kind = CacheOperation::Always> struct cp_async_zfill { template <class... A> __device__ cp_async_zfill(A &&...); };
template <int N, CacheOperation::Kind = CacheOperation::Always> struct cp_async { template <class... A> __device__ cp_async(A &&...); };
__device__ void cp_async_fence();
template <int N> __device__ void cp_async_wait();
template <class T, int N, CacheOperation::Kind = CacheOperation::Always> struct global_load { template <class... A> __device__ global_load(A &&...); };
template <class T, int N> struct global_store { template <class... A> __device__ global_store(A &&...); };
template <class... A> __device__ unsigned cast_smem_ptr_to_uint(A...);
}
namespace layout {
struct RowMajor { using Index = int; using LongIndex = int64_t; using Stride = Coord<1>; __host__ __device__ RowMajor(int = 0); __host__ __device__ static RowMajor packed(MatrixCoord); __host__ __device__ Stride stride() const; __host__ __device__ int64_t operator()(MatrixCoord) const; };
struct ColumnMajor { using Index = int; using LongIndex = int64_t; using Stride = Coord<1>; __host__ __device__ ColumnMajor(int = 0); __host__ __device__ static ColumnMajor packed(MatrixCoord); __host__ __device__ Stride stride() const; __host__ __device__ int64_t operator()(MatrixCoord) const; };
template <int N> struct RowMajorInterleaved : RowMajor {};
template <int N> struct ColumnMajorInterleaved : ColumnMajor {};
struct PitchLinear : RowMajor {};
struct NoPermute {};
struct TensorNHWC : RowMajor {};
struct TensorNCHW : RowMajor {};
struct TensorNDHWC : RowMajor {};
struct AffineRankN {};
template <class... A> struct RowMajorTensorOpMultiplicandCrosswise : RowMajor {};
template <class... A> struct ColumnMajorTensorOpMultiplicandCrosswise : ColumnMajor {};
template <class... A> struct RowMajorTensorOpMultiplicandCongruous : RowMajor {};
template <class... A> struct ColumnMajorTensorOpMultiplicandCongruous : ColumnMajor {};
}
namespace gemm {
namespace detail { template <int I, class Stride> __host__ __device__ constexpr bool is_major(); template <class... A> __host__ __device__ constexpr bool is_k_major(); template <class... A> __host__ __device__ constexpr bool is_mn_major(); }
template <int M = 1, int N = 1, int K = 1> struct GemmShape {
  static constexpr int kM = M, kN = N, kK = K, kMN = M * N, kMNK = M * N * K, kCount = M * N * K;
  __host__ __device__ static Coord<3> toCoord();
};
struct GemmCoord : Coord<3> {
  using Coord<3>::Coord;
  __host__ __device__ GemmCoord(int, int, int);
  __host__ __device__ int &m(); __host__ __device__ int &n(); __host__ __device__ int &k();
  __host__ __device__ int m() const; __host__ __device__ int n() const; __host__ __device__ int k() const;
  __host__ __device__ MatrixCoord mk() const; __host__ __device__ MatrixCoord kn() const; __host__ __device__ MatrixCoord mn() const;
};
struct BatchedGemmCoord : Coord<4> { using Coord<4>::Coord; };
enum class SharedMemoryClearOption { kNone, kZfill, kClearLastStage };
enum class GemmUniversalMode { kGemm, kGemmSplitKParallel, kBatched, kArray, kGrouped, kInvalid };
enum class Operand { kA, kB, kC, kD };
struct KernelTmaWarpSpecialized {}; struct KernelTmaWarpSpecializedCooperative {}; struct KernelTmaWarpSpecializedPingpong {};
struct KernelCpAsyncWarpSpecialized {}; struct KernelMultistage {};
struct KernelPtrArrayTmaWarpSpecializedCooperative {}; struct KernelPtrArrayTmaWarpSpecializedPingpong {};
struct KernelTmaWarpSpecializedFP8FastAccum {}; struct KernelTmaWarpSpecializedCooperativeFP8FastAccum {};
struct KernelTmaWarpSpecializedPingpongFP8FastAccum {}; struct KernelCpAsyncWarpSpecializedCooperative {};
struct KernelCpAsyncWarpSpecializedPingpong {}; struct KernelTma {};
struct PersistentScheduler {}; struct StreamKScheduler {};
namespace device { template <class... A> struct Gemm : __rocport_cx_type<A...> {}; template <class... A> struct GemmUniversal : __rocport_cx_type<A...> {}; template <class... A> struct GemmUniversalAdapter : __rocport_cx_type<A...> {}; template <class... A> struct GemmGrouped : __rocport_cx_type<A...> {}; }
namespace kernel { template <class... A> struct GemmUniversal : __rocport_cx_type<A...> {}; template <class... A> struct DefaultGemm : __rocport_cx_type<A...> {}; template <class... A> struct DefaultGemmUniversal : __rocport_cx_type<A...> {}; }
namespace threadblock {
template <int N = 1> struct GemmIdentityThreadblockSwizzle {};
struct GemmHorizontalThreadblockSwizzle {};
/* CUTLASS 2's own parameter list: projects specialize DefaultMma for their mixed-input GEMMs (FasterTransformer's and
 * TensorRT-LLM's cutlass_extensions), which a pack of types cannot take (`kAlignmentA` and `Stages` are ints). */
template <class ElementA, class LayoutA, int kAlignmentA, class ElementB, class LayoutB, int kAlignmentB,
          class ElementAccumulator, class LayoutC, class OperatorClass, class ArchTag, class ThreadblockShape,
          class WarpShape, class InstructionShape, int Stages, class Operator, bool AccumulatorsInRowMajor = false,
          SharedMemoryClearOption SharedMemoryClear = SharedMemoryClearOption::kNone, bool GatherA = false,
          bool GatherB = false, class PermuteALayout = layout::NoPermute, class PermuteBLayout = layout::NoPermute>
struct DefaultMma : __rocport_cx_type<ElementA, LayoutA, ElementB, LayoutB, ElementAccumulator, LayoutC> {};
template <class Shape, class WarpShape, class InstructionShape, class ElementA, class LayoutA, class ElementB,
          class LayoutB, class ElementC, class LayoutC, class OperatorClass, int Stages = 2,
          class Operator = arch::OpMultiplyAdd, bool AccumulatorsInRowMajor = false,
          arch::CacheOperation::Kind CacheOpA = arch::CacheOperation::Global,
          arch::CacheOperation::Kind CacheOpB = arch::CacheOperation::Global,
          ComplexTransform TransformA = ComplexTransform::kNone, ComplexTransform TransformB = ComplexTransform::kNone,
          bool IsComplex = false>
struct DefaultMmaCore : __rocport_cx_type<Shape, WarpShape, InstructionShape, ElementA, LayoutA, ElementB, LayoutB> {};
template <class... A> struct DefaultMmaFromSharedMemory : __rocport_cx_type<A...> {};
template <class... A> struct AccumulatorSharedStorage : __rocport_cx_type<A...> {};
template <class... A> struct MmaPipelined : __rocport_cx_type<A...> {};
template <class Shape, class IteratorA, class SmemIteratorA, arch::CacheOperation::Kind CacheOpA, class IteratorB, class SmemIteratorB, arch::CacheOperation::Kind CacheOpB, class ElementC, class LayoutC, class Policy, int Stages, SharedMemoryClearOption SharedMemoryClear = SharedMemoryClearOption::kNone, class Enable = bool>
struct MmaMultistage : __rocport_cx_type<Shape, IteratorA, IteratorB, ElementC, LayoutC, Policy> {};
}
namespace warp { template <class... A> struct MmaTensorOp : __rocport_cx_type<A...> {}; template <class... A> struct MmaSimtTileIterator : __rocport_cx_type<A...> {}; template <class... A> struct MmaTensorOpMultiplicandTileIterator : __rocport_cx_type<A...> {}; template <class... A> struct MmaTensorOpAccumulatorTileIterator : __rocport_cx_type<A...> {}; template <class... A> struct MmaVoltaTensorOpAccumulatorTileIterator : __rocport_cx_type<A...> {}; template <class... A> struct MmaSimtPolicy : __rocport_cx_type<A...> {}; template <class... A> struct WarpSize : __rocport_cx_type<A...> {}; }
namespace collective {
template <class... A> struct CollectiveBuilder : __rocport_cx_type<A...> {};
template <class... A> struct CollectiveMma : __rocport_cx_type<A...> {};
struct StageCountAuto {};
template <int N> struct StageCount {};
template <int N> struct StageCountAutoCarveout {};
struct KernelScheduleAuto {};
namespace detail { template <class... A> auto ss_smem_selector() -> __rocport_cx; template <class... A> auto rs_smem_selector() -> __rocport_cx; }
}
}
namespace epilogue {
struct TmaWarpSpecialized {}; struct TmaWarpSpecializedCooperative {}; struct NoSmemWarpSpecialized {}; struct EpilogueScheduleAuto {};
namespace thread {
enum class ScaleType { Default, NoBetaScaling, OnlyAlphaScaling, Nothing };
template <class... A> struct LinearCombination : __rocport_cx_type<A...> {};
template <class... A> struct LinearCombinationClamp : __rocport_cx_type<A...> {};
template <class... A> struct LinearCombinationRelu : __rocport_cx_type<A...> {};
template <class... A> struct LinearCombinationGELU : __rocport_cx_type<A...> {};
template <class... A> struct LinearCombinationSilu : __rocport_cx_type<A...> {};
template <class... A> struct Identity : __rocport_cx_type<A...> {};
template <class... A> struct ReLu : __rocport_cx_type<A...> {};
template <class... A> struct SiLu : __rocport_cx_type<A...> {};
template <class... A> struct GELU : __rocport_cx_type<A...> {};
template <class... A> struct GELU_taylor : __rocport_cx_type<A...> {};
template <class... A> struct Sigmoid : __rocport_cx_type<A...> {};
template <class... A> struct Tanh : __rocport_cx_type<A...> {};
template <class... A> struct HardSwish : __rocport_cx_type<A...> {};
template <class... A> struct LeakyReLU : __rocport_cx_type<A...> {};
template <class... A> struct Clamp : __rocport_cx_type<A...> {};
template <class... A> struct Scale : __rocport_cx_type<A...> {};
}
namespace threadblock {
template <class... A> struct Epilogue : __rocport_cx_type<A...> {};
template <class... A> struct DefaultEpilogueTensorOp : __rocport_cx_type<A...> {};
template <class ThreadMap, class Element, bool ScatterD = false, class PermuteDLayout = void, bool UseCUDAStore = false>
struct PredicatedTileIterator : __rocport_cx_type<ThreadMap, Element> {};
}
namespace collective { template <class... A> struct CollectiveBuilder : __rocport_cx_type<A...> {}; template <class... A> struct DefaultEpilogue : __rocport_cx_type<A...> {}; template <class... A> struct CollectiveEpilogue : __rocport_cx_type<A...> {}; struct EpilogueTileAuto {}; }
namespace fusion { template <class... A> struct Sm90EVT : __rocport_cx_type<A...> {}; template <class... A> struct Sm90Compute : __rocport_cx_type<A...> {}; template <class... A> struct Sm90ColBroadcast : __rocport_cx_type<A...> {}; template <class... A> struct Sm90RowBroadcast : __rocport_cx_type<A...> {}; template <class... A> struct Sm90AccFetch : __rocport_cx_type<A...> {}; template <class... A> struct Sm90ScalarBroadcast : __rocport_cx_type<A...> {}; template <class... A> struct LinearCombination : __rocport_cx_type<A...> {}; template <class... A> struct ScaledLinCombPerRowBiasEltAct : __rocport_cx_type<A...> {}; template <class... A> struct ScaledAcc : __rocport_cx_type<A...> {}; template <class... A> struct LinCombEltAct : __rocport_cx_type<A...> {}; template <class... A> struct LinCombPerRowBias : __rocport_cx_type<A...> {}; template <class... A> struct LinCombPerColBias : __rocport_cx_type<A...> {}; template <class... A> struct Sm90LinearCombination : __rocport_cx_type<A...> {}; template <class... A> struct FusionCallbacks : __rocport_cx_type<A...> {}; }
}
namespace detail { template <class... A> auto alignment_for_swizzle(A &&...) -> __rocport_cx; }
namespace transform { namespace threadblock {
/* The iterators take integers among their types: declared with their real parameter kinds, so that a project's
 * partial specialization on them (`MakeIteratorResidualLast<PredicatedTileIterator<...>>`) parses. */
template <class Shape, class Element, class Layout, int AdvanceRank, class ThreadMap, int AccessSize = 1, bool Gather = false, class PermuteLayout = void>
struct PredicatedTileIterator : __rocport_cx_type<Shape, Element, Layout> {};
template <class Shape, class Element, class Layout, int AdvanceRank, class ThreadMap, class AccessType, bool Gather = false, class PermuteLayout = void>
struct PredicatedTileAccessIterator : __rocport_cx_type<Shape, Element, Layout> {};
template <class Shape, class Element, class Layout, int AdvanceRank, class ThreadMap, int Alignment = 1>
struct RegularTileIterator : __rocport_cx_type<Shape, Element, Layout> {};
template <class Shape, class Element, class Layout, int AdvanceRank, class ThreadMap, int Alignment = 1>
struct RegularTileAccessIterator : __rocport_cx_type<Shape, Element, Layout> {};
template <class Shape, int Threads, int ElementsPerAccess = 1> struct PitchLinearStripminedThreadMap {};
template <class Shape, int Threads, class WarpThreadArrangement, int ElementsPerAccess = 1> struct PitchLinearWarpRakedThreadMap {};
} }
namespace reference { namespace device { template <class... A> void TensorFillRandomUniform(A &&...); } }
}
#endif
