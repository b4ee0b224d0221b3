/* ROCport's model of AMD Composable Kernel's tile API (ck_tile, usually the composable_kernel git submodule) for a
 * parse without its headers: numeric types, index types, compile-time sequences and numbers, the host launch
 * helpers, and the FMHA/GEMM pipeline templates by name, declared permissively. Enough that a kernel's
 * translation unit keeps its declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_CK_TILE_H
#define ROCPORT_MODEL_CK_TILE_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
#define CK_TILE_HOST inline __host__
#define CK_TILE_DEVICE inline __device__
#define CK_TILE_HOST_DEVICE inline __host__ __device__
#define CK_TILE_DEVICE_EXTERN __device__
#define CK_TILE_HOST_DEVICE_EXTERN __host__ __device__
#define CK_TILE_ERROR(...) ((void)0)
#define CK_TILE_ERROR_IF(...) ((void)0)
#define CK_TILE_LAUNCH_BOUNDS(...) __launch_bounds__(__VA_ARGS__)
#define CK_TILE_USE_CUSTOM_DATA_TYPE 0
typedef struct ihipStream_t *hipStream_t; /* as HIP declares it: the CUDA prelude does not */
namespace ck_tile {
using index_t = int32_t;
using long_index_t = int64_t;
template <class T> struct __numeric {
  unsigned short __storage;
  __host__ __device__ __numeric();
  __host__ __device__ __numeric(float);
  __host__ __device__ operator float() const;
};
struct half_t : __numeric<half_t> { using __numeric<half_t>::__numeric; };
struct bfloat16_t : __numeric<bfloat16_t> { using __numeric<bfloat16_t>::__numeric; };
struct fp8_t : __numeric<fp8_t> { using __numeric<fp8_t>::__numeric; };
struct bf8_t : __numeric<bf8_t> { using __numeric<bf8_t>::__numeric; };
struct pk_int4_t : __numeric<pk_int4_t> { using __numeric<pk_int4_t>::__numeric; };
using fp16_t = half_t;
using bf16_t = bfloat16_t;
using fp32_t = float;
using fp64_t = double;
using int8_t = signed char;
using uint8_t = unsigned char;
using int32_t = int;
template <class T, index_t N> using ext_vector_t = T __attribute__((ext_vector_type(N)));
#define __ROCPORT_CK_VECTORS(T, name)                                                                                   \
  using name##x2_t = T __attribute__((ext_vector_type(2)));                                                            \
  using name##x4_t = T __attribute__((ext_vector_type(4)));                                                            \
  using name##x8_t = T __attribute__((ext_vector_type(8)));                                                            \
  using name##x16_t = T __attribute__((ext_vector_type(16)));
__ROCPORT_CK_VECTORS(float, fp32)
__ROCPORT_CK_VECTORS(_Float16, fp16)
__ROCPORT_CK_VECTORS(unsigned short, bf16)
__ROCPORT_CK_VECTORS(signed char, int8)
__ROCPORT_CK_VECTORS(int, int32)
#undef __ROCPORT_CK_VECTORS
template <auto V> struct constant {
  using value_type = decltype(V);
  static constexpr auto value = V;
  __host__ __device__ constexpr operator value_type() const { return V; }
};
template <index_t N> using number = constant<N>;
template <bool B> using bool_constant = constant<B>;
template <long_index_t N> using long_number = constant<N>;
template <index_t... Is> struct sequence {
  static constexpr index_t size() { return sizeof...(Is); }
  template <index_t I> static constexpr index_t at() { return 0; }
  static constexpr index_t at(index_t) { return 0; }
};
template <class... T> struct tuple : __rocport_cx { using __rocport_cx::__rocport_cx; };
template <class T, index_t N> struct array : __rocport_cx { using __rocport_cx::__rocport_cx; };
template <class T, index_t N> struct thread_buffer : array<T, N> {};
struct stream_config {
  hipStream_t stream_id_ = nullptr;
  bool time_kernel_ = false;
  int log_level_ = 0;
  int cold_niters_ = 3;
  int nrepeat_ = 10;
  bool is_gpu_timer_ = true;
  bool flush_cache_ = false;
  int rotating_count_ = 1;
};
enum class BlockAttentionBiasEnum { NO_BIAS = 0, ELEMENTWISE_BIAS = 1, ALIBI = 2 };
enum class BlockFmhaBwdPipelineEnum { KRKTRVR_IGLP = 0, KRKTRVR };
enum class BlockFmhaPipelineEnum { QRKSVS = 0, QRKSVS_ASYNC, QSKSVS, QRKSVS_WHOLE_K_PREFETCH };
enum class GenericAttentionMaskEnum { NO_MASK = 0, MASK_FROM_TOP_LEFT, MASK_FROM_BOTTOM_RIGHT, MASK_GENERIC };
enum class RotaryEmbeddingEnum { NONE = 0, INTERLEAVED, HALF_ROTATED };
constexpr unsigned ALIBI = 1U, LOGITS_SOFT_CAP = 2U;
/* Templates whose arguments are all types, and those whose arguments are all values. */
#define __ROCPORT_CK_TYPES(name) template <class... T> struct name : __rocport_cx_type<T...> {};
#define __ROCPORT_CK_VALUES(name) template <auto... V> struct name : __rocport_cx_type<> {};
__ROCPORT_CK_TYPES(Default2DEpilogueProblem) __ROCPORT_CK_TYPES(Default2DEpilogue) __ROCPORT_CK_TYPES(TileFmhaShape)
__ROCPORT_CK_TYPES(TileFmhaBwdShape) __ROCPORT_CK_TYPES(TileGemmShape) __ROCPORT_CK_TYPES(FmhaFwdKernel)
__ROCPORT_CK_TYPES(FmhaFwdSplitKVKernel) __ROCPORT_CK_TYPES(FmhaFwdSplitKVCombineKernel) __ROCPORT_CK_TYPES(FmhaBwdDQDKDVKernel)
__ROCPORT_CK_TYPES(FmhaBwdOGradDotOKernel) __ROCPORT_CK_TYPES(FmhaBwdConvertQGradKernel)
__ROCPORT_CK_TYPES(BlockFmhaPipelineProblem) __ROCPORT_CK_TYPES(BlockFmhaPipelineQRKSVS)
__ROCPORT_CK_TYPES(BlockFmhaPipelineQRKSVSAsync) __ROCPORT_CK_TYPES(BlockFmhaPipelineQSKSVS)
__ROCPORT_CK_TYPES(BlockFmhaPipelineQRKSVSWholeKPrefetch) __ROCPORT_CK_TYPES(BlockFmhaFwdSplitKVPipelineProblem)
__ROCPORT_CK_TYPES(BlockFmhaFwdSplitKVPipelineQRKSVS) __ROCPORT_CK_TYPES(BlockFmhaFwdSplitKVPipelineNWarpSShuffleQRKSVS)
__ROCPORT_CK_TYPES(BlockFmhaSplitKVCombinePipelineProblem) __ROCPORT_CK_TYPES(BlockFmhaFwdSplitKVCombinePipeline)
__ROCPORT_CK_TYPES(BlockFmhaBwdPipelineProblem) __ROCPORT_CK_TYPES(BlockFmhaBwdOGradDotOPipelineProblem)
__ROCPORT_CK_TYPES(BlockFmhaBwdOGradDotO) __ROCPORT_CK_TYPES(BlockFmhaBwdConvertQGradPipelineProblem)
__ROCPORT_CK_TYPES(BlockFmhaBwdConvertQGrad) __ROCPORT_CK_TYPES(BlockFmhaBwdDQDKDVPipelineKRKTRVR)
__ROCPORT_CK_TYPES(BlockFmhaBwdDQDKDVPipelineKRKTRVRIGLP) __ROCPORT_CK_TYPES(BlockGemmProblem)
__ROCPORT_CK_TYPES(BlockGemmARegBSmemCRegV2) __ROCPORT_CK_TYPES(BlockGemmPipelineProblem) __ROCPORT_CK_TYPES(GemmKernel)
__ROCPORT_CK_TYPES(GemmPipelineProblem) __ROCPORT_CK_TYPES(UniversalGemmPipelineProblem) __ROCPORT_CK_TYPES(GemmTile1DPartitioner)
__ROCPORT_CK_TYPES(GemmTile2DPartitioner) __ROCPORT_CK_TYPES(CShuffleEpilogue) __ROCPORT_CK_TYPES(CShuffleEpilogueProblem)
__ROCPORT_CK_TYPES(HostTensor) __ROCPORT_CK_TYPES(DeviceMem) __ROCPORT_CK_TYPES(BlockDropout) __ROCPORT_CK_TYPES(BlockDropoutBwd)
__ROCPORT_CK_VALUES(TileFmhaTraits) __ROCPORT_CK_VALUES(TileFmhaFwdSplitKVTraits) __ROCPORT_CK_VALUES(TileFmhaFwdSplitKVCombineTraits)
__ROCPORT_CK_VALUES(TileFmhaBwdOGradDotOTraits) __ROCPORT_CK_VALUES(TileFmhaBwdConvertQGradTraits)
__ROCPORT_CK_VALUES(BlockFmhaSplitKVCombinePipelineTileSizes) __ROCPORT_CK_VALUES(SimplifiedGenericAttentionMask)
__ROCPORT_CK_VALUES(GenericAttentionMask) __ROCPORT_CK_VALUES(ComposedAttention) __ROCPORT_CK_VALUES(TileGemmTraits)
__ROCPORT_CK_VALUES(BlockFmhaBwdPipelineDefaultPolicy)
#undef __ROCPORT_CK_TYPES
#undef __ROCPORT_CK_VALUES
template <index_t... I, class... A> __host__ __device__ __rocport_cx make_kernel(A &&...);
template <class... A> float launch_kernel(const stream_config &, A &&...);
template <class... A> __host__ __device__ __rocport_cx make_tuple(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_tensor_view(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_tile_window(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_naive_tensor_view(A &&...);
template <class Y, class X> __host__ __device__ Y type_convert(X);
template <class T> __host__ __device__ T max(T, T);
template <class T> __host__ __device__ T min(T, T);
template <class T> __host__ __device__ T exp(T);
template <class T> __host__ __device__ T exp2(T);
template <class T> __host__ __device__ bool isnan(T);
template <class A, class B> __host__ __device__ constexpr auto integer_divide_ceil(A a, B b) { return (a + b - 1) / b; }
template <class A, class B> __host__ __device__ constexpr auto integer_least_multiple(A a, B b) { return ((a + b - 1) / b) * b; }
__host__ __device__ constexpr index_t get_warp_size() { return 64; }
template <class TA, class TB, class TC> __device__ void inner_product(const TA &, const TB &, TC &);
template <class T> using remove_cvref_t = T;
template <class T> struct numeric { static T min(); static T max(); static T lowest(); static T infinity(); static T quiet_NaN(); };
struct philox { __host__ __device__ philox(uint64_t, uint64_t); template <class... A> __host__ __device__ void get_random_16x8(A &&...) const; template <class... A> __host__ __device__ void get_random_4x8(A &&...) const; };
struct null_type {};
}
#endif
