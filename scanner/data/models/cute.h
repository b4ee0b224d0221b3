/* ROCport's model of CuTe (CUTLASS 3's layout and tensor algebra) for a parse without its headers: integral
 * constants, tuples, shapes and strides, layouts, tensors, the partitioning and copy/gemm algorithms, MMA and copy
 * atoms, declared permissively (variadic templates returning a value of any shape). Enough that a CuTe kernel's
 * translation unit keeps its declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_CUTE_H
#define ROCPORT_MODEL_CUTE_H
#pragma clang system_header
#include "/__rocport_models__/cutlass.h"
namespace cute {
/* CuTe re-exports the standard type traits as its own (cute/util/type_traits.hpp): `cute::enable_if_t<...>`. */
using ::std::enable_if; using ::std::enable_if_t; using ::std::conditional; using ::std::conditional_t;
using ::std::is_same; using ::std::is_same_v; using ::std::decay; using ::std::decay_t; using ::std::remove_cv_t;
using ::std::remove_reference_t; using ::std::remove_cvref; using ::std::remove_cvref_t; using ::std::void_t;
using ::std::is_integral; using ::std::is_integral_v; using ::std::is_arithmetic; using ::std::is_signed;
using ::std::is_unsigned; using ::std::declval; using ::std::is_base_of; using ::std::is_base_of_v;
using ::std::is_convertible; using ::std::is_convertible_v; using ::std::is_empty; using ::std::is_void_v;
using cutlass::half_t;
using cutlass::bfloat16_t;
using cutlass::tfloat32_t;
using cutlass::float_e4m3_t;
using cutlass::float_e5m2_t;
using cutlass::uint128_t;
using cutlass::int4b_t;
using cutlass::uint4b_t;
template <auto N> struct C {
  using type = C;
  using value_type = decltype(N);
  static constexpr auto value = N;
  __host__ __device__ constexpr operator value_type() const { return N; }
  __host__ __device__ constexpr value_type operator()() const { return N; }
};
template <int N> using Int = C<N>;
template <bool B> using bool_constant = C<B>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;
using _m1 = Int<-1>; using _0 = Int<0>; using _1 = Int<1>; using _2 = Int<2>; using _3 = Int<3>; using _4 = Int<4>;
using _5 = Int<5>; using _6 = Int<6>; using _7 = Int<7>; using _8 = Int<8>; using _9 = Int<9>; using _10 = Int<10>;
using _12 = Int<12>; using _16 = Int<16>; using _24 = Int<24>; using _32 = Int<32>; using _48 = Int<48>;
using _64 = Int<64>; using _80 = Int<80>; using _96 = Int<96>; using _112 = Int<112>; using _128 = Int<128>;
using _160 = Int<160>; using _192 = Int<192>; using _224 = Int<224>; using _256 = Int<256>; using _384 = Int<384>;
using _512 = Int<512>; using _1024 = Int<1024>; using _2048 = Int<2048>; using _4096 = Int<4096>;
template <auto A, auto B> __host__ __device__ constexpr C<A + B> operator+(C<A>, C<B>);
template <auto A, auto B> __host__ __device__ constexpr C<A - B> operator-(C<A>, C<B>);
template <auto A, auto B> __host__ __device__ constexpr C<A * B> operator*(C<A>, C<B>);
template <auto A, auto B> __host__ __device__ constexpr C<A / B> operator/(C<A>, C<B>);
struct Underscore {};
constexpr Underscore _{};
template <class... T> struct tuple : __rocport_cx { using __rocport_cx::__rocport_cx; };
template <class T, size_t N> struct array : cutlass::Array<T, int(N)> {};
template <class T, size_t N, size_t A = 16> struct array_aligned : cutlass::Array<T, int(N)> {};
template <class T> struct aligned_struct {};
template <class... T> using Shape = tuple<T...>;
template <class... T> using Stride = tuple<T...>;
template <class... T> using Step = tuple<T...>;
template <class... T> using Coord = tuple<T...>;
template <class... T> using Tile = tuple<T...>;
template <class... T> using IntTuple = tuple<T...>;
template <class S, class D = __rocport_cx> struct Layout : __rocport_cx { using __rocport_cx::__rocport_cx; };
template <class T> Layout(T) -> Layout<__rocport_cx, __rocport_cx>;
template <class E, class L> struct Tensor : __rocport_cx { using __rocport_cx::__rocport_cx; using engine_type = E; using layout_type = L; };
template <class T> Tensor(T) -> Tensor<__rocport_cx, __rocport_cx>;
template <class T> struct ViewEngine {};
template <class T, size_t N> struct ArrayEngine {};
template <int B, int M, int S> struct Swizzle {};
template <class... T> struct ComposedLayout : __rocport_cx { using __rocport_cx::__rocport_cx; };
template <class... T> struct MMA_Atom : __rocport_cx_type<T...> {};
template <class... T> struct Copy_Atom : __rocport_cx_type<T...> {};
template <class... T> struct TiledMMA : __rocport_cx_type<T...> {};
template <class... T> struct TiledCopy : __rocport_cx_type<T...> {};
template <class... T> struct ThrMMA : __rocport_cx_type<T...> {};
template <class... T> struct ThrCopy : __rocport_cx_type<T...> {};
template <class... T> struct MMA_Traits : __rocport_cx_type<T...> {};
template <class... T> struct Copy_Traits : __rocport_cx_type<T...> {};
template <class T> struct UniversalCopy : __rocport_cx_type<T> {};
template <class T = void> struct AutoVectorizingCopyWithAssumedAlignment : __rocport_cx_type<T> {};
struct AutoVectorizingCopy : __rocport_cx_type<> {};
struct DefaultCopy : __rocport_cx_type<> {};
template <class... T> struct UniversalFMA : __rocport_cx_type<T...> {};
template <class... T> struct SM80_CP_ASYNC_CACHEGLOBAL : __rocport_cx_type<T...> {};
template <class... T> struct SM80_CP_ASYNC_CACHEALWAYS : __rocport_cx_type<T...> {};
template <class... T> struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL : __rocport_cx_type<T...> {};
template <class... T> struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL : __rocport_cx_type<T...> {};
struct SM75_U32x1_LDSM_N : __rocport_cx_type<> {}; struct SM75_U32x2_LDSM_N : __rocport_cx_type<> {};
struct SM75_U32x4_LDSM_N : __rocport_cx_type<> {}; struct SM75_U16x2_LDSM_T : __rocport_cx_type<> {};
struct SM75_U16x4_LDSM_T : __rocport_cx_type<> {}; struct SM75_U16x8_LDSM_T : __rocport_cx_type<> {};
struct SM90_U32x1_STSM_N : __rocport_cx_type<> {}; struct SM90_U32x2_STSM_N : __rocport_cx_type<> {};
struct SM90_U32x4_STSM_N : __rocport_cx_type<> {}; struct SM90_U16x2_STSM_T : __rocport_cx_type<> {};
struct SM90_U16x4_STSM_T : __rocport_cx_type<> {}; struct SM90_U16x8_STSM_T : __rocport_cx_type<> {};
struct SM90_TMA_LOAD : __rocport_cx_type<> {}; struct SM90_TMA_LOAD_MULTICAST : __rocport_cx_type<> {};
struct SM90_TMA_STORE : __rocport_cx_type<> {}; struct SM90_TMA_REDUCE_ADD : __rocport_cx_type<> {};
struct SM90_TMA_LOAD_IM2COL : __rocport_cx_type<> {}; struct SM90_BULK_COPY_AUTO : __rocport_cx_type<> {};
struct SM90_TMA_STORE_2D : __rocport_cx_type<> {};
struct SM80_16x8x16_F32F16F16F32_TN : __rocport_cx_type<> {}; struct SM80_16x8x16_F32BF16BF16F32_TN : __rocport_cx_type<> {};
struct SM80_16x8x8_F32F16F16F32_TN : __rocport_cx_type<> {}; struct SM80_16x8x8_F32BF16BF16F32_TN : __rocport_cx_type<> {};
struct SM80_16x8x16_F16F16F16F16_TN : __rocport_cx_type<> {}; struct SM80_16x8x32_S32S8S8S32_TN : __rocport_cx_type<> {};
struct SM80_16x8x8_F32TF32TF32F32_TN : __rocport_cx_type<> {}; struct SM75_16x8x8_F32F16F16F32_TN : __rocport_cx_type<> {};
struct SM89_16x8x32_F32E4M3E4M3F32_TN : __rocport_cx_type<> {}; struct SM70_8x8x4_F32F16F16F32_TN : __rocport_cx_type<> {};
using TmaDescriptor = __rocport_cx;
struct GenRowMajor {};
struct GenColMajor {};
using LayoutRight = GenRowMajor;
using LayoutLeft = GenColMajor;
namespace GMMA {
enum class Major { K = 0, MN = 1 };
enum class ScaleIn { Neg = -1, One = 1 };
enum class ScaleOut { Zero = 0, One = 1 };
template <class... T> struct Layout_K_SW128_Atom : __rocport_cx_type<T...> {};
template <class... T> struct Layout_K_SW64_Atom : __rocport_cx_type<T...> {};
template <class... T> struct Layout_K_SW32_Atom : __rocport_cx_type<T...> {};
template <class... T> struct Layout_K_INTER_Atom : __rocport_cx_type<T...> {};
template <class... T> struct Layout_MN_SW128_Atom : __rocport_cx_type<T...> {};
template <class... T> auto ss_op_selector() -> __rocport_cx;
template <class... T> auto rs_op_selector() -> __rocport_cx;
struct DescriptorIterator : __rocport_cx_type<> {};
}
namespace UMMA {
enum class Major { K = 0, MN = 1 };
struct SmemDescriptor : __rocport_cx_type<> {};
template <class... T> auto make_instr_desc() -> __rocport_cx;
template <class... T> auto make_runtime_instr_desc(T &&...) -> __rocport_cx;
template <class... T> auto make_instr_desc_block_scaled() -> __rocport_cx;
}
namespace SM90 { namespace GMMA = cute::GMMA; }
namespace TMA {
enum class CacheHintSm90 : uint64_t { EVICT_NORMAL, EVICT_FIRST, EVICT_LAST };
enum class CacheHintSm100 : uint64_t { EVICT_NORMAL, EVICT_FIRST, EVICT_LAST };
}
namespace TMEM { struct Allocator1Sm : __rocport_cx_type<> {}; struct Allocator2Sm : __rocport_cx_type<> {}; }
template <class T> struct is_static { static constexpr bool value = false; };
template <class T> struct is_integral { static constexpr bool value = true; };
template <class T> struct is_tensor { static constexpr bool value = false; };
template <class T> struct is_layout { static constexpr bool value = false; };
template <class T> constexpr bool is_static_v = false;
template <class A, class B> constexpr bool is_same_v = false;
template <class A> constexpr bool is_same_v<A, A> = true;
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> using remove_cvref_t = T;
template <class T> struct numeric_limits : cutlass::platform::numeric_limits<T> {};
template <size_t... I> struct index_sequence {};
template <size_t N> using make_index_sequence = index_sequence<>;
template <class T> constexpr int sizeof_bits_v = int(sizeof(T) * 8);
template <class T> constexpr int cosize_v = 1;
template <class T> constexpr int size_v = 1;
template <class T> constexpr int rank_v = 1;
/* The algebra: each a variadic template returning a value of any shape; explicit integer arguments
 * (size<0>(x), get<1>(t), cp_async_wait<0>()) and type arguments (recast<float>(t)) are both accepted. */
#define __ROCPORT_CUTE_FN(name)                                                                                        \
  template <int... I, class... A> __host__ __device__ __rocport_cx name(A &&...);                                      \
  template <class T, class... A> __host__ __device__ __rocport_cx name(A &&...);
__ROCPORT_CUTE_FN(make_shape) __ROCPORT_CUTE_FN(make_stride) __ROCPORT_CUTE_FN(make_step) __ROCPORT_CUTE_FN(make_coord)
__ROCPORT_CUTE_FN(make_tile) __ROCPORT_CUTE_FN(make_tuple) __ROCPORT_CUTE_FN(make_layout) __ROCPORT_CUTE_FN(make_tensor)
__ROCPORT_CUTE_FN(make_gmem_ptr) __ROCPORT_CUTE_FN(make_smem_ptr) __ROCPORT_CUTE_FN(make_rmem_ptr)
__ROCPORT_CUTE_FN(make_fragment_like) __ROCPORT_CUTE_FN(make_tensor_like) __ROCPORT_CUTE_FN(make_identity_tensor)
__ROCPORT_CUTE_FN(make_identity_layout) __ROCPORT_CUTE_FN(make_ordered_layout) __ROCPORT_CUTE_FN(make_layout_like)
__ROCPORT_CUTE_FN(make_tiled_copy) __ROCPORT_CUTE_FN(make_tiled_copy_A) __ROCPORT_CUTE_FN(make_tiled_copy_B)
__ROCPORT_CUTE_FN(make_tiled_copy_C) __ROCPORT_CUTE_FN(make_tiled_mma) __ROCPORT_CUTE_FN(make_tma_copy)
__ROCPORT_CUTE_FN(make_tma_atom) __ROCPORT_CUTE_FN(make_cotiled_copy) __ROCPORT_CUTE_FN(make_int_tuple)
__ROCPORT_CUTE_FN(make_zip_tensor) __ROCPORT_CUTE_FN(make_counting_tensor) __ROCPORT_CUTE_FN(make_composed_layout)
__ROCPORT_CUTE_FN(local_tile) __ROCPORT_CUTE_FN(local_partition) __ROCPORT_CUTE_FN(partition_fragment_A)
__ROCPORT_CUTE_FN(partition_fragment_B) __ROCPORT_CUTE_FN(partition_fragment_C) __ROCPORT_CUTE_FN(partition_shape_A)
__ROCPORT_CUTE_FN(partition_shape_B) __ROCPORT_CUTE_FN(partition_shape_C) __ROCPORT_CUTE_FN(copy)
__ROCPORT_CUTE_FN(copy_if) __ROCPORT_CUTE_FN(copy_aligned) __ROCPORT_CUTE_FN(gemm) __ROCPORT_CUTE_FN(axpby)
__ROCPORT_CUTE_FN(clear) __ROCPORT_CUTE_FN(fill) __ROCPORT_CUTE_FN(size) __ROCPORT_CUTE_FN(rank) __ROCPORT_CUTE_FN(depth)
__ROCPORT_CUTE_FN(shape) __ROCPORT_CUTE_FN(stride) __ROCPORT_CUTE_FN(layout) __ROCPORT_CUTE_FN(get) __ROCPORT_CUTE_FN(select)
__ROCPORT_CUTE_FN(append) __ROCPORT_CUTE_FN(prepend) __ROCPORT_CUTE_FN(flatten) __ROCPORT_CUTE_FN(coalesce)
__ROCPORT_CUTE_FN(composition) __ROCPORT_CUTE_FN(complement) __ROCPORT_CUTE_FN(logical_divide)
__ROCPORT_CUTE_FN(zipped_divide) __ROCPORT_CUTE_FN(tiled_divide) __ROCPORT_CUTE_FN(flat_divide)
__ROCPORT_CUTE_FN(logical_product) __ROCPORT_CUTE_FN(blocked_product) __ROCPORT_CUTE_FN(raked_product)
__ROCPORT_CUTE_FN(zipped_product) __ROCPORT_CUTE_FN(tiled_product) __ROCPORT_CUTE_FN(tile_to_shape)
__ROCPORT_CUTE_FN(right_inverse) __ROCPORT_CUTE_FN(left_inverse) __ROCPORT_CUTE_FN(recast) __ROCPORT_CUTE_FN(recast_ptr)
__ROCPORT_CUTE_FN(cosize) __ROCPORT_CUTE_FN(ceil_div) __ROCPORT_CUTE_FN(round_up) __ROCPORT_CUTE_FN(max)
__ROCPORT_CUTE_FN(min) __ROCPORT_CUTE_FN(abs) __ROCPORT_CUTE_FN(transform) __ROCPORT_CUTE_FN(for_each)
__ROCPORT_CUTE_FN(cp_async_fence) __ROCPORT_CUTE_FN(cp_async_wait) __ROCPORT_CUTE_FN(tma_store_fence)
__ROCPORT_CUTE_FN(tma_store_arrive) __ROCPORT_CUTE_FN(tma_store_wait) __ROCPORT_CUTE_FN(prefetch_tma_descriptor)
__ROCPORT_CUTE_FN(print) __ROCPORT_CUTE_FN(print_tensor) __ROCPORT_CUTE_FN(print_latex) __ROCPORT_CUTE_FN(crd2idx)
__ROCPORT_CUTE_FN(idx2crd) __ROCPORT_CUTE_FN(elem_less) __ROCPORT_CUTE_FN(group_modes) __ROCPORT_CUTE_FN(take)
__ROCPORT_CUTE_FN(filter_zeros) __ROCPORT_CUTE_FN(filter) __ROCPORT_CUTE_FN(upcast) __ROCPORT_CUTE_FN(downcast)
__ROCPORT_CUTE_FN(domain_offset) __ROCPORT_CUTE_FN(product) __ROCPORT_CUTE_FN(product_each) __ROCPORT_CUTE_FN(shape_div)
__ROCPORT_CUTE_FN(conditional_return) __ROCPORT_CUTE_FN(as_position_independent_swizzle_tensor)
__ROCPORT_CUTE_FN(elect_one_sync) __ROCPORT_CUTE_FN(block_rank_in_cluster) __ROCPORT_CUTE_FN(block_id_in_cluster)
__ROCPORT_CUTE_FN(cluster_shape) __ROCPORT_CUTE_FN(cluster_sync) __ROCPORT_CUTE_FN(cluster_arrive_relaxed)
__ROCPORT_CUTE_FN(cluster_wait) __ROCPORT_CUTE_FN(thread0) __ROCPORT_CUTE_FN(thread) __ROCPORT_CUTE_FN(block)
__ROCPORT_CUTE_FN(cast_smem_ptr_to_uint) __ROCPORT_CUTE_FN(warpgroup_arrive) __ROCPORT_CUTE_FN(warpgroup_wait)
__ROCPORT_CUTE_FN(warpgroup_commit_batch) __ROCPORT_CUTE_FN(warpgroup_fence_operand) __ROCPORT_CUTE_FN(retile)
__ROCPORT_CUTE_FN(tile) __ROCPORT_CUTE_FN(dice) __ROCPORT_CUTE_FN(slice) __ROCPORT_CUTE_FN(zip) __ROCPORT_CUTE_FN(unzip)
__ROCPORT_CUTE_FN(repeat) __ROCPORT_CUTE_FN(repeat_like) __ROCPORT_CUTE_FN(congruent) __ROCPORT_CUTE_FN(compatible)
__ROCPORT_CUTE_FN(raw_pointer_cast) __ROCPORT_CUTE_FN(swap) __ROCPORT_CUTE_FN(make_swizzle) __ROCPORT_CUTE_FN(exp2)
__ROCPORT_CUTE_FN(log2) __ROCPORT_CUTE_FN(fma) __ROCPORT_CUTE_FN(sum) __ROCPORT_CUTE_FN(reverse) __ROCPORT_CUTE_FN(get_nonswizzle_portion) __ROCPORT_CUTE_FN(get_swizzle_portion) __ROCPORT_CUTE_FN(aligned_struct_of)
#undef __ROCPORT_CUTE_FN
}
/* CUTLASS 3's pipeline headers (cutlass/pipeline/sm90_pipeline.hpp and its siblings) open `namespace cutlass { using
 * namespace cute; }`: code in any cutlass namespace names `_1` or `Shape` unqualified. */
namespace cutlass { using namespace cute; }
#endif
