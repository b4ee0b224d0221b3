/* ROCport's model of NVIDIA's MathDx device libraries (`cusolverdx.hpp`, `cublasdx.hpp`, `cufftdx.hpp`,
 * `curanddx.hpp`) for a parse without them. Each describes a device-side routine as the sum of operators,
 * `using Solver = decltype(Size<32, 32>() + Precision<double>() + Function<potrf>() + SM<800>() + Block());`, then
 * reads the description's traits (`Solver::lda`, `Solver::block_dim`, `typename Solver::a_data_type`) and calls
 * `Solver().execute(...)`. Here every operator is an empty tag, any sum of them is one loose description whose traits
 * take any value, and the enumerations list the names the libraries' samples use. Each library's namespace only
 * nominates the model's (`__rocport_cusolverdx`), so real MathDx headers read beside it are no redefinition. Not a
 * reimplementation. */
#ifndef ROCPORT_MODEL_MATHDX_H
#define ROCPORT_MODEL_MATHDX_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"

namespace __rocport_mathdx {
/* A trait's value: compared with, converted to and stored as any enumerator or number. */
struct any_value {
  template <class T> __host__ __device__ constexpr operator T() const { return T(); }
};
struct op {};
/* What a sum of operators describes: the traits of the four libraries' descriptions. */
struct description : op {
  static constexpr unsigned m_size = 1, n_size = 1, k_size = 1, lda = 1, ldb = 1, ldc = 1, a_size = 1, b_size = 1,
                            c_size = 1, batches_per_block = 1, max_threads_per_block = 1, shared_memory_size = 1,
                            workspace_size = 1, blocks_per_cluster = 1, tile_size = 1, elements_per_thread = 1,
                            storage_size = 1, stride = 1, ffts_per_block = 1, suggested_ffts_per_block = 1,
                            input_length = 1, output_length = 1, input_ept = 1, output_ept = 1;
  static constexpr bool implicit_type_batching = false, requires_workspace = false;
  static constexpr dim3 block_dim{}, suggested_block_dim{};
  static constexpr any_value a_arrangement{}, b_arrangement{}, c_arrangement{}, side{}, diag{}, job{}, jobu{},
      jobvt{}, fill_mode{}, transpose_mode{}, type{}, direction{};
  typedef __rocport_cx a_data_type, b_data_type, c_data_type, a_cuda_data_type, b_cuda_data_type, status_type,
      a_precision, b_precision, c_precision, value_type, a_value_type, b_value_type, c_value_type, input_type,
      output_type, workspace_type, offset_type, a_shape, b_shape, c_shape, result_type;
  template <class... A> __host__ __device__ __rocport_cx execute(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx generate(A &&...);
  template <class... A> __host__ __device__ __rocport_cx skip_offset(A &&...);
  template <class... A> __host__ __device__ __rocport_cx skip_sequence(A &&...);
  template <class... A> __host__ __device__ __rocport_cx skip_subsequence(A &&...);
  template <class... A> __host__ __device__ description(A &&...);
  template <class... A> static __host__ __device__ constexpr unsigned get_shared_memory_size(A &&...) { return 1; }
  template <class... A> static __host__ __device__ __rocport_cx get_layout_gmem_a(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_layout_gmem_b(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_layout_gmem_c(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_layout_smem_a(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_layout_smem_b(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_layout_smem_c(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx suggest_layout_smem_a(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx suggest_layout_smem_b(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx suggest_layout_smem_c(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx suggest_partitioner(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_partitioner(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx suggest_accumulator(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_accumulator(A &&...);
};
template <class A, class B, class = std::enable_if_t<std::is_base_of_v<op, A> && std::is_base_of_v<op, B>>>
__host__ __device__ description operator+(const A &, const B &);
/* Operators: tags taking values (`Size<32, 32>`, `SM<800>`, `Function<potrf>`) or types (`Precision<float>`). */
#define ROCPORT_MATHDX_OPERATORS                                                                                   \
  template <auto... V> struct Size : ::__rocport_mathdx::op {};                                                    \
  template <class... T> struct Precision : ::__rocport_mathdx::op {};                                              \
  template <auto... V> struct Type : ::__rocport_mathdx::op {};                                                    \
  template <auto... V> struct Function : ::__rocport_mathdx::op {};                                                \
  template <auto... V> struct Arrangement : ::__rocport_mathdx::op {};                                             \
  template <auto... V> struct LeadingDimension : ::__rocport_mathdx::op {};                                        \
  template <auto... V> struct Alignment : ::__rocport_mathdx::op {};                                               \
  template <auto... V> struct SM : ::__rocport_mathdx::op {};                                                      \
  template <auto... V> struct BlockDim : ::__rocport_mathdx::op {};                                                \
  template <auto... V> struct StaticBlockDim : ::__rocport_mathdx::op {};                                          \
  template <auto... V> struct BatchesPerBlock : ::__rocport_mathdx::op {};                                         \
  template <auto... V> struct BlocksPerCluster : ::__rocport_mathdx::op {};                                        \
  template <auto... V> struct TileSize : ::__rocport_mathdx::op {};                                                \
  template <auto... V> struct FillMode : ::__rocport_mathdx::op {};                                                \
  template <auto... V> struct Side : ::__rocport_mathdx::op {};                                                    \
  template <auto... V> struct Diag : ::__rocport_mathdx::op {};                                                    \
  template <auto... V> struct TransposeMode : ::__rocport_mathdx::op {};                                           \
  template <auto... V> struct Job : ::__rocport_mathdx::op {};                                                     \
  template <auto... V> struct EigType : ::__rocport_mathdx::op {};                                                 \
  template <auto... V> struct Direction : ::__rocport_mathdx::op {};                                               \
  template <auto... V> struct ElementsPerThread : ::__rocport_mathdx::op {};                                       \
  template <auto... V> struct FFTsPerBlock : ::__rocport_mathdx::op {};                                            \
  template <auto... V> struct RealFFTOptions : ::__rocport_mathdx::op {};                                          \
  template <auto... V> struct CodeType : ::__rocport_mathdx::op {};                                                \
  template <auto... V> struct RequiredMantissaBits : ::__rocport_mathdx::op {};                                    \
  template <auto... V> struct MaxAlignment : ::__rocport_mathdx::op {};                                            \
  template <auto... V> struct PhiloxRounds : ::__rocport_mathdx::op {};                                            \
  template <auto... V> struct Generator : ::__rocport_mathdx::op {};                                               \
  template <class... T> struct Functor : ::__rocport_mathdx::op {};                                                \
  struct Block : ::__rocport_mathdx::op {};                                                                        \
  struct Cluster : ::__rocport_mathdx::op {};                                                                      \
  struct Thread : ::__rocport_mathdx::op {};                                                                       \
  struct Warp : ::__rocport_mathdx::op {};                                                                         \
  struct WithPipeline : ::__rocport_mathdx::op {};                                                                 \
  struct EnableInputStreaming : ::__rocport_mathdx::op {};                                                         \
  typedef unsigned char byte;                                                                                      \
  template <class T> using complex = ::__rocport_mathdx::complex<T>;                                               \
  /* trait queries: `size_of<FFT>::value`, `arrangement_of_v_a<Solver>`, `precision_of_t<FFT>` */                  \
  template <class D> struct size_of { static constexpr unsigned value = 1, m = 1, n = 1, k = 1; };                 \
  template <class D> inline constexpr unsigned size_of_v = 1;                                                      \
  template <class D> inline constexpr unsigned size_of_v_m = 1;                                                    \
  template <class D> inline constexpr unsigned size_of_v_n = 1;                                                    \
  template <class D> inline constexpr unsigned size_of_v_k = 1;                                                    \
  template <class D> inline constexpr unsigned sm_of_v = 1;                                                        \
  template <class D> inline constexpr dim3 block_dim_of_v{};                                                       \
  template <class D> inline constexpr ::__rocport_mathdx::any_value arrangement_of_v_a{};                          \
  template <class D> inline constexpr ::__rocport_mathdx::any_value arrangement_of_v_b{};                          \
  template <class D> inline constexpr ::__rocport_mathdx::any_value arrangement_of_v_c{};                          \
  template <class D> inline constexpr ::__rocport_mathdx::any_value side_of_v{};                                   \
  template <class D> inline constexpr ::__rocport_mathdx::any_value diag_of_v{};                                   \
  template <class D> inline constexpr ::__rocport_mathdx::any_value fill_mode_of_v{};                              \
  template <class D> inline constexpr ::__rocport_mathdx::any_value type_of_v{};                                   \
  template <class D> inline constexpr ::__rocport_mathdx::any_value function_of_v{};                               \
  template <class D> inline constexpr ::__rocport_mathdx::any_value direction_of_v{};                              \
  template <class D> inline constexpr ::__rocport_mathdx::any_value transpose_mode_of_v{};                         \
  template <class D> inline constexpr ::__rocport_mathdx::any_value job_of_v{};                                    \
  template <class D> inline constexpr ::__rocport_mathdx::any_value jobu_of_v{};                                   \
  template <class D> inline constexpr ::__rocport_mathdx::any_value jobvt_of_v{};                                  \
  template <class D> inline constexpr ::__rocport_mathdx::any_value eig_type_of_v{};                               \
  template <class D> inline constexpr ::__rocport_mathdx::any_value transpose_mode_of_a{};                         \
  template <class D> inline constexpr ::__rocport_mathdx::any_value transpose_mode_of_b{};                         \
  template <class D> inline constexpr unsigned alignment_of_v_a = 1;                                               \
  template <class D> inline constexpr unsigned alignment_of_v_b = 1;                                               \
  template <class D> inline constexpr unsigned alignment_of_v_c = 1;                                               \
  template <class D> inline constexpr unsigned leading_dimension_of_v = 1;                                         \
  template <class D> struct precision_of { typedef __rocport_cx type, a_type, b_type, c_type; };                   \
  template <class D> using precision_of_t = __rocport_cx;                                                          \
  template <class D> struct type_of { static constexpr ::__rocport_mathdx::any_value value{}; };                   \
  template <class D> struct direction_of { static constexpr ::__rocport_mathdx::any_value value{}; };              \
  template <class D> struct arrangement_of { static constexpr ::__rocport_mathdx::any_value a{}, b{}, c{}; };      \
  template <class D> struct alignment_of { static constexpr unsigned a = 1, b = 1, c = 1; };                       \
  template <class D> struct leading_dimension_of { static constexpr unsigned a = 1, b = 1, c = 1; };               \
  template <class D> struct transpose_mode_of { static constexpr ::__rocport_mathdx::any_value a{}, b{}; };        \
  template <class D> struct sm_of { static constexpr unsigned value = 1; };                                        \
  template <class D> struct block_dim_of { static constexpr dim3 value{}; };                                       \
  namespace detail {                                                                                               \
  template <class... A> inline constexpr bool has_operator_v = true;                                               \
  }
template <class T> struct complex {
  T x, y;
  __host__ __device__ constexpr complex() : x(), y() {}
  __host__ __device__ constexpr complex(T re, T im = T()) : x(re), y(im) {}
  template <class U> __host__ __device__ constexpr complex(const complex<U> &o) : x(o.x), y(o.y) {}
  __host__ __device__ T real() const { return x; }
  __host__ __device__ T imag() const { return y; }
  __host__ __device__ void real(T v) { x = v; }
  __host__ __device__ void imag(T v) { y = v; }
  template <class U> __host__ __device__ complex &operator=(const U &);
  template <class U> __host__ __device__ complex &operator+=(const U &);
  template <class U> __host__ __device__ complex &operator-=(const U &);
  template <class U> __host__ __device__ complex &operator*=(const U &);
  template <class U> __host__ __device__ complex &operator/=(const U &);
  template <class U> friend __host__ __device__ complex operator+(const complex &, const U &);
  template <class U> friend __host__ __device__ complex operator-(const complex &, const U &);
  template <class U> friend __host__ __device__ complex operator*(const complex &, const U &);
  template <class U> friend __host__ __device__ complex operator/(const complex &, const U &);
  friend __host__ __device__ complex operator-(const complex &);
  friend __host__ __device__ bool operator==(const complex &, const complex &);
  friend __host__ __device__ bool operator!=(const complex &, const complex &);
};
/* Loose helpers: shared-memory slicing (its result is unpacked with `auto [a, b] = ...`), copies, tensors. */
template <class... T> struct slices {
  __rocport_cx __v[sizeof...(T) ? sizeof...(T) : 1];
};
}  // namespace __rocport_mathdx
namespace std {
template <class... T> struct tuple_size<::__rocport_mathdx::slices<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <size_t I, class... T> struct tuple_element<I, ::__rocport_mathdx::slices<T...>> : tuple_element<I, tuple<T *...>> {};
}  // namespace std
namespace __rocport_mathdx {
template <std::size_t I, class... T>
__host__ __device__ typename std::tuple_element<I, std::tuple<T *...>>::type get(const slices<T...> &);
}  // namespace __rocport_mathdx

namespace __rocport_cusolverdx {
ROCPORT_MATHDX_OPERATORS
enum class type { real, complex };
enum class arrangement { col_major, row_major };
inline constexpr arrangement col_major = arrangement::col_major, row_major = arrangement::row_major;
enum class fill_mode { upper, lower };
inline constexpr fill_mode upper = fill_mode::upper, lower = fill_mode::lower;
enum class side { left, right };
inline constexpr side left = side::left, right = side::right;
enum class diag { unit, non_unit };
inline constexpr diag unit = diag::unit, non_unit = diag::non_unit;
enum class transpose { non_transposed, transposed, conj_transposed };
inline constexpr transpose non_trans = transpose::non_transposed, trans = transpose::transposed,
                           conj_trans = transpose::conj_transposed;
enum class job { no_vectors, some_vectors, all_vectors, overwrite_vectors, multiply_vectors };
enum class eig_type { ax_eq_lambda_bx, abx_eq_lambda_x, bax_eq_lambda_x };
#define ROCPORT_CUSOLVERDX_FUNCTIONS(F)                                                                            \
  F(potrf) F(potrs) F(posv) F(getrf_no_pivot) F(getrs_no_pivot) F(gesv_no_pivot) F(getrf_partial_pivot)            \
  F(getrs_partial_pivot) F(gesv_partial_pivot) F(geqrf) F(gelqf) F(unmqr) F(unmlq) F(ungqr) F(unglq) F(gels)       \
  F(trsm) F(heev) F(htev) F(hegst) F(hegv) F(gesvd) F(bdsvd) F(gtsv_no_pivot) F(modified_lu) F(syev) F(sygv)
#define ROCPORT_MATHDX_ENUMERATOR(name) name,
enum class function { ROCPORT_CUSOLVERDX_FUNCTIONS(ROCPORT_MATHDX_ENUMERATOR) };
#define ROCPORT_MATHDX_FUNCTION_VALUE(name) inline constexpr function name = function::name;
ROCPORT_CUSOLVERDX_FUNCTIONS(ROCPORT_MATHDX_FUNCTION_VALUE)
#undef ROCPORT_MATHDX_FUNCTION_VALUE
#undef ROCPORT_CUSOLVERDX_FUNCTIONS
template <class... A> __host__ __device__ __rocport_cx convert_to_cuda_type(A &&...);
/* copy_2d<Solver, M, N, arrangement, batches per block, element type>(from, ld, to, ld) */
template <class Op, long long M, long long N, arrangement A, long long B = 1, class T = void, class... R>
__host__ __device__ void copy_2d(R &&...);
namespace shared_memory {
template <class... T, class... A> __host__ __device__ ::__rocport_mathdx::slices<T...> slice(A &&...);
}  // namespace shared_memory
}  // namespace __rocport_cusolverdx
namespace cusolverdx {
using namespace ::__rocport_cusolverdx;
}  // namespace cusolverdx

namespace __rocport_cublasdx {
ROCPORT_MATHDX_OPERATORS
enum class type { real, complex };
enum class arrangement { col_major, row_major };
inline constexpr arrangement col_major = arrangement::col_major, row_major = arrangement::row_major;
inline constexpr arrangement C = arrangement::col_major, N = arrangement::row_major;
enum class function { MM, TRSM };
enum class fill_mode { upper, lower };
enum class side { left, right };
enum class diag { unit, non_unit };
enum class transpose_mode { non_transposed, transposed, conj_transposed };
enum class sm_modifier { generic, arch_specific };
inline constexpr sm_modifier generic = sm_modifier::generic, arch_specific = sm_modifier::arch_specific;
enum class pipeline_error_code { none, invalid_argument };
typedef __rocport_cx tfloat32_t, tensor;
struct identity { template <class T> __host__ __device__ T operator()(const T &v) const { return v; } };
struct conjugate { template <class T> __host__ __device__ T operator()(const T &v) const { return v; } };
struct transpose_view { template <class T> __host__ __device__ T operator()(const T &v) const { return v; } };
struct conj_transpose_view { template <class T> __host__ __device__ T operator()(const T &v) const { return v; } };
template <class... A> __host__ __device__ __rocport_cx make_tensor(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_gmem_tensor(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_gmem_tensor_batched(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_fragment_like(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_coord(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_shared_storage_calculator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_pipeline(A &&...);
template <class... A> __host__ __device__ __rocport_cx suggest_pipeline(A &&...);
template <class... A> __host__ __device__ __rocport_cx get_tile(A &&...);
template <class... A> __host__ __device__ __rocport_cx get_tile_row(A &&...);
template <class... A> __host__ __device__ __rocport_cx get_tile_col(A &&...);
template <class... A> __host__ __device__ __rocport_cx get_batch(A &&...);
template <class... A> __host__ __device__ __rocport_cx cosize(A &&...);
template <class... A> __host__ __device__ __rocport_cx slice(A &&...);
template <class... A> __host__ __device__ __rocport_cx transform_fragment(A &&...);
template <class... A> __host__ __device__ void copy(A &&...);
template <class... A> __host__ __device__ void copy_wait(A &&...);
template <class... A> __host__ __device__ void copy_fragment(A &&...);
template <class... A> __host__ __device__ void axpby(A &&...);
template <class... A> __host__ __device__ void clear(A &&...);
template <class... A> __host__ __device__ const char *pipeline_error_string(A &&...);
template <class... A> __host__ __device__ constexpr unsigned get_shared_storage_size(A &&...) { return 1; }
template <class... A> __host__ __device__ constexpr unsigned get_shared_storage_size_ab(A &&...) { return 1; }
template <class... T, class... A> __host__ __device__ ::__rocport_mathdx::slices<T...> slice_shared_memory(A &&...);
template <class... T, class... A> __host__ __device__ ::__rocport_mathdx::slices<T...> slice_shared_memory_ab(A &&...);
namespace shared_memory {
template <class... T, class... A> __host__ __device__ ::__rocport_mathdx::slices<T...> slice(A &&...);
}  // namespace shared_memory
}  // namespace __rocport_cublasdx
namespace cublasdx {
using namespace ::__rocport_cublasdx;
}  // namespace cublasdx

namespace __rocport_cufftdx {
ROCPORT_MATHDX_OPERATORS
enum class fft_type { c2c, c2r, r2c };
enum class fft_direction { forward, inverse };
enum class precision { f, d, h };
enum class complex_layout { natural, packed, full };
enum class real_mode { normal, folded };
template <class D> struct real_fft_mode_of { static constexpr real_mode value = real_mode::normal; };
template <class T> using make_complex_type_t = ::__rocport_mathdx::complex<T>;
template <class D, class... R> using replace_t = D;
template <class... A> __host__ __device__ __rocport_cx make_workspace(A &&...);
namespace experimental {
enum class code_type { ptx, ltoir };
}  // namespace experimental
}  // namespace __rocport_cufftdx
namespace cufftdx {
using namespace ::__rocport_cufftdx;
}  // namespace cufftdx

namespace __rocport_curanddx {
ROCPORT_MATHDX_OPERATORS
enum generator { xorwow, mrg32k3a, mrg, philox4_32, philox, pcg, sobol32, scrambled_sobol32, sobol64,
                 scrambled_sobol64, scrambled_sobol };
template <class T = float> struct uniform { template <class... A> __host__ __device__ uniform(A &&...);
  template <class R> __host__ __device__ T generate(R &); };
template <class T = float> struct normal { template <class... A> __host__ __device__ normal(A &&...);
  template <class R> __host__ __device__ __rocport_cx generate(R &); };
template <class T = float> struct log_normal { template <class... A> __host__ __device__ log_normal(A &&...);
  template <class R> __host__ __device__ __rocport_cx generate(R &); };
template <class T = unsigned> struct uniform_bits { template <class... A> __host__ __device__ uniform_bits(A &&...);
  template <class R> __host__ __device__ T generate(R &); };
template <class T = unsigned> struct poisson { template <class... A> __host__ __device__ poisson(A &&...);
  template <class R> __host__ __device__ T generate(R &); };
enum normal_method { box_muller, icdf };
}  // namespace __rocport_curanddx
namespace curanddx {
using namespace ::__rocport_curanddx;
}  // namespace curanddx
#undef ROCPORT_MATHDX_OPERATORS
#undef ROCPORT_MATHDX_ENUMERATOR
/* The samples skip a kernel body on an architecture the description does not support. */
#define CUSOLVERDX_SKIP_IF_NOT_APPLICABLE_SM(...) ((void)0)
#define CUBLASDX_SKIP_IF_NOT_APPLICABLE_SM(...) ((void)0)
#define CUFFTDX_SKIP_IF_NOT_APPLICABLE_SM(...) ((void)0)
#define CURANDDX_SKIP_IF_NOT_APPLICABLE_SM(...) ((void)0)
#endif
