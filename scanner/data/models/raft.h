/* ROCport's model of RAPIDS RAFT (`raft/...`) for a parse without it: its utility macros (HDI, DI,
 * RAFT_CUDA_TRY), the handle and resources every call takes, the mdspan views and containers, and the primitives of
 * raft::linalg, stats, matrix, sparse and random that RAPIDS libraries call, loosely (anything in, a permissive value
 * out). Without it, a cuML source loses declarations written with `HDI`, `DI` or `raft::handle_t`. Not a
 * reimplementation. */
#ifndef ROCPORT_MODEL_RAFT_H
#define ROCPORT_MODEL_RAFT_H
#pragma clang system_header
#include "/__rocport_models__/rmm.h"

/* raft/core/detail/macros.hpp */
#define RAFT_INLINE_FUNCTION __host__ __device__ inline
#define RAFT_DEVICE_INLINE_FUNCTION __device__ inline
#define RAFT_INLINE_CONDITIONAL inline
#define RAFT_KERNEL __global__ static
#define RAFT_WEAK_FUNCTION
#define RAFT_EXPLICIT
/* raft/core/error.hpp, raft/util/cudart_utils.hpp */
#define RAFT_CUDA_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_CUDA_TRY_NO_THROW(...) ((void)(__VA_ARGS__))
#define RAFT_CUBLAS_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_CUBLAS_TRY_NO_THROW(...) ((void)(__VA_ARGS__))
#define RAFT_CUSOLVER_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_CUSOLVER_TRY_NO_THROW(...) ((void)(__VA_ARGS__))
#define RAFT_CUSPARSE_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_CUSPARSE_TRY_NO_THROW(...) ((void)(__VA_ARGS__))
#define RAFT_CURAND_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_NCCL_TRY(...) ((void)(__VA_ARGS__))
#define RAFT_CHECK_CUDA(...) ((void)(__VA_ARGS__))
#define RAFT_EXPECTS(cond, ...) ((void)(cond))
#define RAFT_FAIL(...) throw ::__rocport_raft::logic_error(__VA_ARGS__)
#define RAFT_LOG_TRACE(...) ((void)0)
#define RAFT_LOG_DEBUG(...) ((void)0)
#define RAFT_LOG_INFO(...) ((void)0)
#define RAFT_LOG_WARN(...) ((void)0)
#define RAFT_LOG_ERROR(...) ((void)0)
#define RAFT_LOG_CRITICAL(...) ((void)0)
#define RAFT_USING_RANGE(...)

namespace __rocport_raft {
/* mdspan views and containers: `raft::device_matrix_view<const float, int, raft::col_major>`, built by
 * `raft::make_device_matrix_view<float, int>(ptr, rows, cols)`; a view of other parameters converts. */
template <class T, class... R> struct __rocport_view {
  typedef T element_type, value_type;
  typedef long long index_type, size_type;
  __host__ __device__ __rocport_view();
  template <class U, class... S> __host__ __device__ __rocport_view(const __rocport_view<U, S...> &);
  template <class... A> __host__ __device__ explicit __rocport_view(T *, A &&...);
  __host__ __device__ T *data_handle() const;
  __host__ __device__ index_type extent(int) const;
  __host__ __device__ index_type stride(int) const;
  __host__ __device__ index_type size() const;
  __host__ __device__ bool empty() const;
  template <class... A> __host__ __device__ T &operator()(A...) const;
  __host__ __device__ __rocport_cx extents() const;
  __host__ __device__ __rocport_cx mapping() const;
  __host__ __device__ __rocport_view view() const;
};
template <class T, class... R> struct __rocport_container : __rocport_view<T, R...> {
  __rocport_container();
  template <class... A> __rocport_container(A &&...);
  __rocport_view<T, R...> view();
  __rocport_view<const T, R...> view() const;
};
struct row_major {};
struct col_major {};
typedef row_major layout_c_contiguous, layout_right;
typedef col_major layout_f_contiguous, layout_left;
struct layout_stride {};
template <class... T> struct extents {};
#define ROCPORT_RAFT_VIEW(name) template <class T, class... R> using name = __rocport_view<T, R...>;
#define ROCPORT_RAFT_CONTAINER(name) template <class T, class... R> using name = __rocport_container<T, R...>;
#define ROCPORT_RAFT_MAKE(name, result)                                                                            \
  template <class T = __rocport_cx, class... R, class... A> result<T, R...> name(A &&...);
#define ROCPORT_RAFT_SPACE(where)                                                                                  \
  ROCPORT_RAFT_VIEW(where##_mdspan)                                                                                \
  ROCPORT_RAFT_VIEW(where##_matrix_view)                                                                           \
  ROCPORT_RAFT_VIEW(where##_vector_view)                                                                           \
  ROCPORT_RAFT_VIEW(where##_scalar_view)                                                                           \
  ROCPORT_RAFT_CONTAINER(where##_mdarray)                                                                          \
  ROCPORT_RAFT_CONTAINER(where##_matrix)                                                                           \
  ROCPORT_RAFT_CONTAINER(where##_vector)                                                                           \
  ROCPORT_RAFT_CONTAINER(where##_scalar)                                                                           \
  ROCPORT_RAFT_MAKE(make_##where##_mdspan, __rocport_view)                                                         \
  ROCPORT_RAFT_MAKE(make_##where##_matrix_view, __rocport_view)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_vector_view, __rocport_view)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_scalar_view, __rocport_view)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_strided_matrix_view, __rocport_view)                                            \
  ROCPORT_RAFT_MAKE(make_##where##_matrix, __rocport_container)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_vector, __rocport_container)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_scalar, __rocport_container)                                                    \
  ROCPORT_RAFT_MAKE(make_##where##_mdarray, __rocport_container)                                                   \
  template <class... T> using where##_csr_matrix_view = __rocport_cx_type<T...>;                                   \
  template <class... T> using where##_csr_matrix = __rocport_cx_type<T...>;                                        \
  template <class... T> using where##_coo_matrix_view = __rocport_cx_type<T...>;                                   \
  template <class... T> using where##_coo_matrix = __rocport_cx_type<T...>;                                        \
  template <class... T> using where##_compressed_structure_view = __rocport_cx_type<T...>;                         \
  template <class... T> using where##_coordinate_structure_view = __rocport_cx_type<T...>;                         \
  template <class... T, class... A> __rocport_cx make_##where##_csr_matrix_view(A &&...);                          \
  template <class... T, class... A> __rocport_cx make_##where##_csr_matrix(A &&...);                               \
  template <class... T, class... A> __rocport_cx make_##where##_coo_matrix_view(A &&...);                          \
  template <class... T, class... A> __rocport_cx make_##where##_coo_matrix(A &&...);                               \
  template <class... T, class... A> __rocport_cx make_##where##_compressed_structure_view(A &&...);                \
  template <class... T, class... A> __rocport_cx make_##where##_coordinate_structure_view(A &&...);
ROCPORT_RAFT_SPACE(device)
ROCPORT_RAFT_SPACE(host)
ROCPORT_RAFT_SPACE(managed)
ROCPORT_RAFT_SPACE(pinned)
#undef ROCPORT_RAFT_SPACE
#undef ROCPORT_RAFT_MAKE
#undef ROCPORT_RAFT_CONTAINER
#undef ROCPORT_RAFT_VIEW
template <class... T, class... A> __rocport_cx make_const_mdspan(A &&...);
template <class... T, class... A> __rocport_cx make_extents(A &&...);
template <class T, class... R> struct span {
  __host__ __device__ span();
  template <class... A> __host__ __device__ span(A &&...);
  __host__ __device__ T *data() const;
  __host__ __device__ std::size_t size() const;
  __host__ __device__ T *begin() const;
  __host__ __device__ T *end() const;
  __host__ __device__ T &operator[](std::size_t) const;
};

/* raft/core/resources.hpp, handle.hpp */
class resources {
 public:
  resources();
  template <class... A> resources(A &&...);
  virtual ~resources();
  cudaStream_t get_stream() const;
  template <class... A> __rocport_cx get_stream_from_stream_pool(A &&...) const;
  template <class... A> __rocport_cx get_next_usable_stream(A &&...) const;
  __rocport_cx get_stream_pool() const;
  std::size_t get_stream_pool_size() const;
  bool is_stream_pool_initialized() const;
  void sync_stream() const;
  template <class... A> void sync_stream(A &&...) const;
  void sync_stream_pool() const;
  template <class... A> void wait_stream_pool_on_stream(A &&...) const;
  cublasHandle_t get_cublas_handle() const;
  cusolverDnHandle_t get_cusolver_dn_handle() const;
  cusparseHandle_t get_cusparse_handle() const;
  __rocport_cx get_thrust_policy() const;
  int get_device() const;
  const __rocport_cx &get_comms() const;
  bool comms_initialized() const;
  template <class... A> void set_comms(A &&...);
  template <class... A> __rocport_cx get_subcomm(A &&...) const;
  __rocport_cx get_workspace_resource() const;
};
class device_resources : public resources {
 public:
  using resources::resources;
  device_resources();
};
typedef device_resources handle_t;
namespace resource {
template <class... A> cudaStream_t get_cuda_stream(A &&...);
template <class... A> void set_cuda_stream(A &&...);
template <class... A> void sync_stream(A &&...);
template <class... A> __rocport_cx get_thrust_policy(A &&...);
template <class... A> __rocport_cx get_cublas_handle(A &&...);
template <class... A> __rocport_cx get_cusolver_dn_handle(A &&...);
template <class... A> __rocport_cx get_cusparse_handle(A &&...);
template <class... A> __rocport_cx get_comms(A &&...);
template <class... A> bool comms_initialized(A &&...);
template <class... A> __rocport_cx get_next_usable_stream(A &&...);
template <class... A> void sync_stream_pool(A &&...);
template <class... A> void wait_stream_pool_on_stream(A &&...);
template <class... A> std::size_t get_stream_pool_size(A &&...);
template <class... A> __rocport_cx get_stream_from_stream_pool(A &&...);
template <class... A> __rocport_cx get_workspace_resource(A &&...);
template <class... A> int get_device_id(A &&...);
}  // namespace resource

/* errors, raft/util/cudart_utils.hpp, cuda_utils.cuh */
struct exception {
  exception();
  template <class... A> explicit exception(A &&...);
  const char *what() const;
};
struct logic_error : exception {
  using exception::exception;
};
struct cuda_error : exception {
  using exception::exception;
};
template <class... A> void copy(A &&...);
template <class... A> void copy_async(A &&...);
template <class... A> void update_device(A &&...);
template <class... A> void update_host(A &&...);
template <class A, class B> __host__ __device__ constexpr A ceildiv(A, B);
template <class A, class B> __host__ __device__ constexpr A alignTo(A, B);
template <class A, class B> __host__ __device__ constexpr A alignDown(A, B);
template <class... A> __host__ __device__ __rocport_cx myAtomicAdd(A &&...);
template <class... A> __host__ __device__ __rocport_cx myAtomicMax(A &&...);
template <class... A> __host__ __device__ __rocport_cx myAtomicMin(A &&...);
template <class T, class... A> __device__ T shfl(T, A...);
template <class T, class... A> __device__ T shfl_xor(T, A...);
template <class T, class... A> __device__ T shfl_up(T, A...);
template <class T, class... A> __device__ T shfl_down(T, A...);
template <class T, class... A> __device__ T warpReduce(T, A...);
template <class T, class... A> __device__ T blockReduce(T, A...);
template <class... A> __device__ __rocport_cx ballot(A &&...);
__device__ int laneId();
__device__ void warpFence();
static constexpr int WarpSize = 32;
template <class T> __host__ __device__ T abs(T);
template <class T> __host__ __device__ T sqrt(T);
template <class T> __host__ __device__ T exp(T);
template <class T> __host__ __device__ T log(T);
template <class T> __host__ __device__ T tanh(T);
template <class T> __host__ __device__ T sgn(T);
template <class T> __host__ __device__ T signPrim(T);
template <class T, class... R> __host__ __device__ T max(T, R...);
template <class T, class... R> __host__ __device__ T min(T, R...);
template <class T, class... R> __host__ __device__ T maxPrim(T, R...);
template <class T, class... R> __host__ __device__ T minPrim(T, R...);
template <class T> __host__ __device__ void swapVals(T &, T &);
template <class... A> __rocport_cx arr2Str(A &&...);
template <class... A> void print_device_vector(A &&...);
template <class... A> void print_host_vector(A &&...);
template <class... A> int getSharedMemPerBlock(A &&...);
template <class... A> int getMultiProcessorCount(A &&...);
template <class... A> int getSharedMemPerMultiprocessor(A &&...);
template <class T, int N> struct TxN_t {
  union { T data[N]; } val;
  template <class... A> __device__ void load(A &&...);
  template <class... A> __device__ void store(A &&...);
  __device__ void fill(T);
};
struct stream_syncer {
  template <class... A> explicit stream_syncer(A &&...);
};
enum class Apply { ALONG_ROWS, ALONG_COLUMNS };
enum class FillMode { UPPER, LOWER };
/* raft/core/operators.hpp */
#define ROCPORT_RAFT_OP(name)                                                                                      \
  struct name {                                                                                                    \
    template <class... A> constexpr name(A &&...) {}                                                               \
    template <class T, class... A> __host__ __device__ T operator()(const T &, A &&...) const;                    \
  };
ROCPORT_RAFT_OP(identity_op)
ROCPORT_RAFT_OP(add_op)
ROCPORT_RAFT_OP(sub_op)
ROCPORT_RAFT_OP(mul_op)
ROCPORT_RAFT_OP(div_op)
ROCPORT_RAFT_OP(div_checkzero_op)
ROCPORT_RAFT_OP(sqrt_op)
ROCPORT_RAFT_OP(sq_op)
ROCPORT_RAFT_OP(abs_op)
ROCPORT_RAFT_OP(max_op)
ROCPORT_RAFT_OP(min_op)
ROCPORT_RAFT_OP(pow_op)
ROCPORT_RAFT_OP(exp_op)
ROCPORT_RAFT_OP(log_op)
ROCPORT_RAFT_OP(cast_op)
ROCPORT_RAFT_OP(key_op)
ROCPORT_RAFT_OP(value_op)
ROCPORT_RAFT_OP(nz_op)
ROCPORT_RAFT_OP(L2Op)
ROCPORT_RAFT_OP(Nop)
#undef ROCPORT_RAFT_OP
template <class T> struct mul_const_op { T scalar; template <class U> __host__ __device__ U operator()(const U &) const; };
template <class T> struct add_const_op { T scalar; template <class U> __host__ __device__ U operator()(const U &) const; };
template <class T> struct div_const_op { T scalar; template <class U> __host__ __device__ U operator()(const U &) const; };
template <class T> struct sub_const_op { T scalar; template <class U> __host__ __device__ U operator()(const U &) const; };
template <class... F> struct compose_op { template <class... A> constexpr compose_op(A &&...) {} template <class... A> __host__ __device__ __rocport_cx operator()(A &&...) const; };

/* The primitives: any arguments, a permissive result. */
#define ROCPORT_RAFT_FN(name)                                                                                      \
  template <class... T, class... A> __rocport_cx name(A &&...);                                                    \
  template <auto V, auto... W, class... A> __rocport_cx name(A &&...);
namespace linalg {
enum NormType { L1Norm, L2Norm, LinfNorm };
enum class solver { COV_EIG_DQ, COV_EIG_JACOBI };
typedef __rocport_cx paramsPCA, paramsTSVD;
ROCPORT_RAFT_FN(add) ROCPORT_RAFT_FN(addScalar) ROCPORT_RAFT_FN(subtract) ROCPORT_RAFT_FN(multiplyScalar)
ROCPORT_RAFT_FN(multiply_scalar) ROCPORT_RAFT_FN(scalarMultiply) ROCPORT_RAFT_FN(divideScalar)
ROCPORT_RAFT_FN(powerScalar) ROCPORT_RAFT_FN(sqrt) ROCPORT_RAFT_FN(eltwiseMultiply) ROCPORT_RAFT_FN(eltwiseDivide)
ROCPORT_RAFT_FN(eltwiseDivideCheckZero) ROCPORT_RAFT_FN(eltwiseSub) ROCPORT_RAFT_FN(unaryOp) ROCPORT_RAFT_FN(unary_op)
ROCPORT_RAFT_FN(writeOnlyUnaryOp) ROCPORT_RAFT_FN(binaryOp) ROCPORT_RAFT_FN(ternaryOp) ROCPORT_RAFT_FN(map)
ROCPORT_RAFT_FN(map_offset) ROCPORT_RAFT_FN(map_k) ROCPORT_RAFT_FN(mapThenReduce) ROCPORT_RAFT_FN(mapThenSumReduce)
ROCPORT_RAFT_FN(matrixVectorOp) ROCPORT_RAFT_FN(matrix_vector_op) ROCPORT_RAFT_FN(reduce) ROCPORT_RAFT_FN(coalescedReduction)
ROCPORT_RAFT_FN(stridedReduction) ROCPORT_RAFT_FN(rowNorm) ROCPORT_RAFT_FN(colNorm) ROCPORT_RAFT_FN(norm)
ROCPORT_RAFT_FN(gemm) ROCPORT_RAFT_FN(gemv) ROCPORT_RAFT_FN(axpy) ROCPORT_RAFT_FN(dot) ROCPORT_RAFT_FN(transpose)
ROCPORT_RAFT_FN(zero) ROCPORT_RAFT_FN(range) ROCPORT_RAFT_FN(eigDC) ROCPORT_RAFT_FN(eigJacobi) ROCPORT_RAFT_FN(svdQR)
ROCPORT_RAFT_FN(svdEig) ROCPORT_RAFT_FN(svdJacobi) ROCPORT_RAFT_FN(lstsqSvdQR) ROCPORT_RAFT_FN(lstsqSvdJacobi)
ROCPORT_RAFT_FN(lstsqEig) ROCPORT_RAFT_FN(lstsqQR) ROCPORT_RAFT_FN(choleskyRank1Update) ROCPORT_RAFT_FN(convert_array)
ROCPORT_RAFT_FN(binary_mult) ROCPORT_RAFT_FN(binary_mult_skip_zero) ROCPORT_RAFT_FN(binary_div_skip_zero)
ROCPORT_RAFT_FN(qrGetQ) ROCPORT_RAFT_FN(qrGetQR) ROCPORT_RAFT_FN(meanSquaredError)
ROCPORT_RAFT_FN(pca_fit) ROCPORT_RAFT_FN(pca_fit_transform) ROCPORT_RAFT_FN(pca_transform) ROCPORT_RAFT_FN(pca_inverse_transform)
ROCPORT_RAFT_FN(tsvd_fit) ROCPORT_RAFT_FN(tsvd_fit_transform) ROCPORT_RAFT_FN(tsvd_transform) ROCPORT_RAFT_FN(tsvd_inverse_transform)
ROCPORT_RAFT_FN(cal_eig) ROCPORT_RAFT_FN(sign_flip_components) ROCPORT_RAFT_FN(trunc_comp_exp_vars)
namespace detail {
ROCPORT_RAFT_FN(cublasgemm) ROCPORT_RAFT_FN(cublasgemv) ROCPORT_RAFT_FN(cublasgemmStridedBatched) ROCPORT_RAFT_FN(cublastrsm)
ROCPORT_RAFT_FN(cublasSwap) ROCPORT_RAFT_FN(cublasaxpy) ROCPORT_RAFT_FN(cublasdot) ROCPORT_RAFT_FN(cublasgeam)
ROCPORT_RAFT_FN(cusolverDnpotrf) ROCPORT_RAFT_FN(cusolverDnpotrs) ROCPORT_RAFT_FN(cusolverDngetrf) ROCPORT_RAFT_FN(cusolverDngetrs)
}  // namespace detail
}  // namespace linalg
namespace stats {
enum IC_Type { AIC, AICc, BIC };
ROCPORT_RAFT_FN(mean) ROCPORT_RAFT_FN(meanAdd) ROCPORT_RAFT_FN(meanCenter) ROCPORT_RAFT_FN(meanvar) ROCPORT_RAFT_FN(sum)
ROCPORT_RAFT_FN(vars) ROCPORT_RAFT_FN(stddev) ROCPORT_RAFT_FN(weightedMean) ROCPORT_RAFT_FN(cov) ROCPORT_RAFT_FN(accuracy)
ROCPORT_RAFT_FN(r2_score) ROCPORT_RAFT_FN(regression_metrics) ROCPORT_RAFT_FN(adjusted_rand_index) ROCPORT_RAFT_FN(rand_index)
ROCPORT_RAFT_FN(homogeneity_score) ROCPORT_RAFT_FN(completeness_score) ROCPORT_RAFT_FN(v_measure) ROCPORT_RAFT_FN(entropy)
ROCPORT_RAFT_FN(kl_divergence) ROCPORT_RAFT_FN(mutual_info_score) ROCPORT_RAFT_FN(information_criterion_batched)
ROCPORT_RAFT_FN(silhouette_score) ROCPORT_RAFT_FN(trustworthiness_score) ROCPORT_RAFT_FN(histogram) ROCPORT_RAFT_FN(minmax)
}  // namespace stats
namespace matrix {
ROCPORT_RAFT_FN(argmax) ROCPORT_RAFT_FN(argmin) ROCPORT_RAFT_FN(col_reverse) ROCPORT_RAFT_FN(row_reverse)
ROCPORT_RAFT_FN(copy_rows) ROCPORT_RAFT_FN(copy) ROCPORT_RAFT_FN(power) ROCPORT_RAFT_FN(weighted_sqrt)
ROCPORT_RAFT_FN(trunc_zero_origin) ROCPORT_RAFT_FN(zero_small_values) ROCPORT_RAFT_FN(fill) ROCPORT_RAFT_FN(gather)
ROCPORT_RAFT_FN(scatter) ROCPORT_RAFT_FN(sqrt) ROCPORT_RAFT_FN(ratio) ROCPORT_RAFT_FN(reciprocal) ROCPORT_RAFT_FN(select_k)
ROCPORT_RAFT_FN(upper_triangular) ROCPORT_RAFT_FN(initializeDiagonalMatrix) ROCPORT_RAFT_FN(print)
}  // namespace matrix
namespace sparse {
template <class T, class... R> struct COO {
  T *vals();
  int *rows();
  int *cols();
  int nnz;
  int n_rows;
  int n_cols;
  COO();
  template <class... A> COO(A &&...);
  template <class... A> void allocate(A &&...);
};
typedef __rocport_cx WeakCCState;
ROCPORT_RAFT_FN(weak_cc_batched) ROCPORT_RAFT_FN(weak_cc) ROCPORT_RAFT_FN(get_stop_idx)
namespace op {
ROCPORT_RAFT_FN(coo_sort) ROCPORT_RAFT_FN(coo_sort_by_weight) ROCPORT_RAFT_FN(coo_remove_zeros) ROCPORT_RAFT_FN(coo_remove_scalar)
ROCPORT_RAFT_FN(csr_row_op) ROCPORT_RAFT_FN(max_duplicates)
}  // namespace op
namespace convert {
ROCPORT_RAFT_FN(sorted_coo_to_csr) ROCPORT_RAFT_FN(csr_to_coo) ROCPORT_RAFT_FN(adj_to_csr) ROCPORT_RAFT_FN(csr_to_dense)
}  // namespace convert
namespace linalg {
ROCPORT_RAFT_FN(symmetrize) ROCPORT_RAFT_FN(coo_symmetrize) ROCPORT_RAFT_FN(from_knn_symmetrize_matrix) ROCPORT_RAFT_FN(rowNormCsr)
ROCPORT_RAFT_FN(csr_row_normalize_max) ROCPORT_RAFT_FN(csr_row_normalize_l1) ROCPORT_RAFT_FN(csr_add_finalize)
ROCPORT_RAFT_FN(csr_add_calc_inds) ROCPORT_RAFT_FN(csr_transpose) ROCPORT_RAFT_FN(coo_degree) ROCPORT_RAFT_FN(spmm)
}  // namespace linalg
namespace detail {
ROCPORT_RAFT_FN(cusparsecreatednmat) ROCPORT_RAFT_FN(cusparsecreatecsr) ROCPORT_RAFT_FN(cusparsespmm)
ROCPORT_RAFT_FN(cusparsespmm_bufferSize) ROCPORT_RAFT_FN(cusparsecsr2coo) ROCPORT_RAFT_FN(cusparsegthr)
}  // namespace detail
}  // namespace sparse
namespace random {
enum GeneratorType { GenPhilox, GenPC, GenKiss99 };
struct RngState {
  template <class... A> explicit RngState(A &&...);
  unsigned long long seed, base_subsequence;
  GeneratorType type;
};
struct Rng : RngState {
  template <class... A> explicit Rng(A &&...);
  template <class... A> void uniform(A &&...);
  template <class... A> void uniformInt(A &&...);
  template <class... A> void normal(A &&...);
  template <class... A> void normalInt(A &&...);
  template <class... A> void normalTable(A &&...);
  template <class... A> void fill(A &&...);
  template <class... A> void bernoulli(A &&...);
  template <class... A> void scaled_bernoulli(A &&...);
  template <class... A> void gumbel(A &&...);
  template <class... A> void lognormal(A &&...);
  template <class... A> void logistic(A &&...);
  template <class... A> void exponential(A &&...);
  template <class... A> void rayleigh(A &&...);
  template <class... A> void laplace(A &&...);
  template <class... A> void sampleWithoutReplacement(A &&...);
  template <class... A> void affine_transform_params(A &&...);
};
template <class T = __rocport_cx> struct UniformIntDistParams { T start, end; unsigned long long diff; };
template <class T = __rocport_cx> struct UniformDistParams { T start, end; };
struct PhiloxGenerator { template <class... A> __device__ PhiloxGenerator(A &&...); template <class... A> __device__ void next(A &&...); };
struct PCGenerator { template <class... A> __device__ PCGenerator(A &&...); template <class... A> __device__ void next(A &&...); };
ROCPORT_RAFT_FN(make_blobs) ROCPORT_RAFT_FN(make_regression) ROCPORT_RAFT_FN(uniform) ROCPORT_RAFT_FN(uniformInt)
ROCPORT_RAFT_FN(normal) ROCPORT_RAFT_FN(bernoulli) ROCPORT_RAFT_FN(permute) ROCPORT_RAFT_FN(custom_next)
ROCPORT_RAFT_FN(sample_without_replacement) ROCPORT_RAFT_FN(excess_subsample)
namespace detail {
using ::__rocport_raft::random::PhiloxGenerator;
using ::__rocport_raft::random::PCGenerator;
}  // namespace detail
}  // namespace random
namespace label {
ROCPORT_RAFT_FN(getUniquelabels) ROCPORT_RAFT_FN(getOvrlabels) ROCPORT_RAFT_FN(make_monotonic) ROCPORT_RAFT_FN(merge_labels)
}  // namespace label
namespace cache {
template <class... T> struct Cache {
  template <class... A> Cache(A &&...);
  template <class... A> void GetCacheIdx(A &&...);
  template <class... A> void GetCacheIdxPartitioned(A &&...);
  template <class... A> void AssignCacheIdx(A &&...);
  template <class... A> void GetVecs(A &&...);
  template <class... A> void StoreVecs(A &&...);
  int GetSize() const;
};
ROCPORT_RAFT_FN(get_vecs) ROCPORT_RAFT_FN(store_vecs)
}  // namespace cache
namespace util {
struct FastIntDiv {
  template <class... A> __host__ __device__ FastIntDiv(A &&...);
  int d;
  unsigned m;
  int s;
};
__host__ __device__ int operator/(int, const FastIntDiv &);
__host__ __device__ int operator%(int, const FastIntDiv &);
}  // namespace util
namespace interruptible {
template <class... A> void synchronize(A &&...);
template <class... A> void yield(A &&...);
template <class... A> void cancel(A &&...);
}  // namespace interruptible
namespace common::nvtx {
template <class... D> struct range {
  template <class... A> explicit range(A &&...);
};
template <class... A> void push_range(A &&...);
template <class... A> void pop_range(A &&...);
}  // namespace common::nvtx
namespace comms {
enum class op_t { SUM, PROD, MIN, MAX };
enum class status_t { SUCCESS, ERROR, ABORT };
enum class datatype_t { CHAR, UINT8, INT32, UINT32, INT64, UINT64, FLOAT32, FLOAT64 };
typedef int request_t;
class comms_t {
 public:
  int get_size() const;
  int get_rank() const;
  template <class... A> __rocport_cx comm_split(A &&...) const;
  void barrier() const;
  template <class... A> status_t sync_stream(A &&...) const;
  template <class... A> void allreduce(A &&...) const;
  template <class... A> void bcast(A &&...) const;
  template <class... A> void reduce(A &&...) const;
  template <class... A> void allgather(A &&...) const;
  template <class... A> void allgatherv(A &&...) const;
  template <class... A> void gather(A &&...) const;
  template <class... A> void gatherv(A &&...) const;
  template <class... A> void reducescatter(A &&...) const;
  template <class... A> void isend(A &&...) const;
  template <class... A> void irecv(A &&...) const;
  template <class... A> void waitall(A &&...) const;
  template <class... A> void device_send(A &&...) const;
  template <class... A> void device_recv(A &&...) const;
  template <class... A> void device_sendrecv(A &&...) const;
  template <class... A> void device_multicast_sendrecv(A &&...) const;
  template <class... A> void group_start(A &&...) const;
  template <class... A> void group_end(A &&...) const;
};
ROCPORT_RAFT_FN(initialize_mpi_comms) ROCPORT_RAFT_FN(build_comms_nccl_only) ROCPORT_RAFT_FN(build_comms_nccl_ucx)
}  // namespace comms
#undef ROCPORT_RAFT_FN
}  // namespace __rocport_raft
/* Beside a real RAFT (the models all sit in one precompiled header), `raft` only nominates the model: a real
 * `raft::X` is no redefinition and wins qualified lookup. */
namespace raft {
using namespace ::__rocport_raft;
}  // namespace raft
#endif

/* raft/util/cuda_utils.cuh's short function qualifiers, outside the include guard and left out of the precompiled
 * header: defined only in a unit that includes a RAFT header, never over another project's `HD` or `DI`. */
#ifndef ROCPORT_MODELS_PCH
#define HD __host__ __device__
#define HDI __host__ __device__ inline
#define DI __device__ inline
#endif
