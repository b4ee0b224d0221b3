/* ROCport's model of libcu++ (`cuda/std/...`, `cuda/barrier`, `cuda/pipeline`, `cuda/atomic`, `nv/target`) for a parse without
 * the CUDA toolkit's CCCL headers: `cuda::std` is the standard library under another name (the prelude's std), and
 * the `cuda::` synchronization types kernels call are declared loosely. Not a reimplementation. */
#ifndef ROCPORT_MODEL_LIBCUDACXX_H
#define ROCPORT_MODEL_LIBCUDACXX_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
namespace std {}
namespace cuda {
/* A real namespace (libcu++'s is one), not an alias: code may reopen `namespace cuda::std`. Qualified lookup
 * follows the using-directive, so `::cuda::std::enable_if<...>::type` finds the prelude's std. */
namespace std { using namespace ::std; }
/* libcu++'s own tuple protocol, which projects specialize for their pair types inside `namespace cuda::std {`
 * (a specialization of the prelude's std::tuple_size there would be in the wrong namespace). Declared here, these
 * hide the std ones for `cuda::std::tuple_size<...>` and defer to them for the standard types. */
namespace std {
template <class T> struct tuple_size : ::std::tuple_size<T> {};
template <::std::size_t I, class T> struct tuple_element : ::std::tuple_element<I, T> {};
template <class T> inline constexpr ::std::size_t tuple_size_v = tuple_size<T>::value;
template <::std::size_t I, class T> using tuple_element_t = typename tuple_element<I, T>::type;
}  // namespace std
/* <cuda/std/random>'s counter-based engines, which the standard library lacks. */
namespace std {
#define ROCPORT_CUDA_ENGINE(name)                                                                                 \
  struct name { typedef unsigned long long result_type; __host__ __device__ name();                                \
    template <class... A> __host__ __device__ explicit name(A...); template <class... A> __host__ __device__ void seed(A...); \
    __host__ __device__ result_type operator()(); __host__ __device__ void discard(unsigned long long);              \
    static constexpr result_type min() { return 0; } static constexpr result_type max() { return ~0ull; } };
ROCPORT_CUDA_ENGINE(philox4x32)
ROCPORT_CUDA_ENGINE(philox4x64)
#undef ROCPORT_CUDA_ENGINE
}  // namespace std
/* <cuda/atomic> re-exports the memory orders; <cuda/functional> and <cuda/cmath> add these. */
using ::std::memory_order;
using ::std::memory_order_relaxed;
using ::std::memory_order_consume;
using ::std::memory_order_acquire;
using ::std::memory_order_release;
using ::std::memory_order_acq_rel;
using ::std::memory_order_seq_cst;
template <class... A> __host__ __device__ void atomic_thread_fence(A &&...);
template <class... A> __host__ __device__ void atomic_signal_fence(A &&...);
template <class R, class F> __host__ __device__ F proclaim_return_type(F);
template <class F> __host__ __device__ F proclaim_copyable_arguments(F);
template <class T = void> struct maximum { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct minimum { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class A, class B> __host__ __device__ constexpr A ceil_div(A, B);
template <class A, class B> __host__ __device__ constexpr A round_up(A, B);
template <class A, class B> __host__ __device__ constexpr A round_down(A, B);
/* <cuda/iterator>: the iterator types (built with class template argument deduction) and their makers. */
#define ROCPORT_CUDA_ITERATOR(name)                                                                                \
  template <class T = __rocport_cx, class... R> struct name : __rocport_cx {                                       \
    template <class... A> __host__ __device__ name(A &&...);                                                       \
  };
ROCPORT_CUDA_ITERATOR(counting_iterator)
ROCPORT_CUDA_ITERATOR(constant_iterator)
ROCPORT_CUDA_ITERATOR(discard_iterator)
ROCPORT_CUDA_ITERATOR(transform_iterator)
ROCPORT_CUDA_ITERATOR(transform_output_iterator)
ROCPORT_CUDA_ITERATOR(tabulate_output_iterator)
ROCPORT_CUDA_ITERATOR(permutation_iterator)
ROCPORT_CUDA_ITERATOR(shuffle_iterator)
ROCPORT_CUDA_ITERATOR(strided_iterator)
ROCPORT_CUDA_ITERATOR(zip_iterator)
#undef ROCPORT_CUDA_ITERATOR
template <class... A> __host__ __device__ __rocport_cx make_tabulate_output_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_counting_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_transform_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_zip_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_discard_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_cx make_constant_iterator(A &&...);
/* <cuda/stream_ref>: a non-owning stream a library's asynchronous calls take, built from a cudaStream_t. */
struct stream_ref {
  cudaStream_t __stream = nullptr;
  constexpr stream_ref() = default;
  constexpr stream_ref(cudaStream_t s) : __stream(s) {}
  constexpr cudaStream_t get() const { return __stream; }
  void wait() const;
  bool ready() const;
  friend bool operator==(stream_ref, stream_ref);
  friend bool operator!=(stream_ref, stream_ref);
};
enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
/* The members kernels call, taking an optional memory order (values: the prelude's std::memory_order). */
#define ROCPORT_CUDA_ATOMIC_MEMBERS                                                                                 \
  template <class... A> __host__ __device__ T load(A...) const;                                                     \
  template <class... A> __host__ __device__ void store(A...);                                                       \
  template <class... A> __host__ __device__ T exchange(A...);                                                       \
  template <class... A> __host__ __device__ bool compare_exchange_weak(T &, A...);                                 \
  template <class... A> __host__ __device__ bool compare_exchange_strong(T &, A...);                               \
  template <class... A> __host__ __device__ T fetch_add(A...);                                                      \
  template <class... A> __host__ __device__ T fetch_sub(A...);                                                      \
  template <class... A> __host__ __device__ T fetch_and(A...);                                                      \
  template <class... A> __host__ __device__ T fetch_or(A...);                                                       \
  template <class... A> __host__ __device__ T fetch_xor(A...);                                                      \
  template <class... A> __host__ __device__ T fetch_max(A...);                                                      \
  template <class... A> __host__ __device__ T fetch_min(A...);                                                      \
  template <class... A> __host__ __device__ void wait(A...) const;                                                  \
  __host__ __device__ void notify_one();                                                                            \
  __host__ __device__ void notify_all();                                                                            \
  __host__ __device__ operator T() const;                                                                           \
  __host__ __device__ T operator=(T);                                                                               \
  __host__ __device__ T operator++();                                                                               \
  __host__ __device__ T operator++(int);                                                                            \
  __host__ __device__ T operator--();                                                                               \
  __host__ __device__ T operator--(int);                                                                            \
  __host__ __device__ T operator+=(T);                                                                              \
  __host__ __device__ T operator-=(T);
template <class T, thread_scope S = thread_scope_system> struct atomic {
  __host__ __device__ atomic();
  __host__ __device__ atomic(T);
  ROCPORT_CUDA_ATOMIC_MEMBERS
};
template <class T, thread_scope S = thread_scope_system> struct atomic_ref {
  __host__ __device__ explicit atomic_ref(T &);
  ROCPORT_CUDA_ATOMIC_MEMBERS
};
#undef ROCPORT_CUDA_ATOMIC_MEMBERS
/* Trivially constructible, as libcu++'s is: kernels declare it `__shared__` and call init() on it. */
template <thread_scope S, class F = void> struct barrier {
  using arrival_token = __rocport_cx;
  template <class... A> __host__ __device__ arrival_token arrive(A &&...);
  template <class... A> __host__ __device__ void wait(A &&...);
  __host__ __device__ void arrive_and_wait();
  __host__ __device__ void arrive_and_drop();
};
template <class B, class... A> __host__ __device__ void init(B *, A &&...);
template <thread_scope S> struct pipeline : __rocport_cx {
  __host__ __device__ void producer_acquire();
  __host__ __device__ void producer_commit();
  __host__ __device__ void consumer_wait();
  __host__ __device__ void consumer_release();
};
template <thread_scope S, unsigned char N> struct pipeline_shared_state : __rocport_cx {};
template <::std::size_t N> struct aligned_size_t { ::std::size_t value; __host__ __device__ constexpr aligned_size_t(::std::size_t v) : value(v) {} __host__ __device__ constexpr operator ::std::size_t() const { return value; } };
template <class... A> __host__ __device__ __rocport_cx make_pipeline(A &&...);
template <class... A> __host__ __device__ void memcpy_async(A &&...);
template <class... A> __host__ __device__ void pipeline_producer_commit(A &&...);
template <class... A> __host__ __device__ void pipeline_consumer_wait_prior(A &&...);
/* <cuda/ptx>: one function per PTX instruction, its state spaces, scopes and semantics as tag values. */
namespace ptx {
#define ROCPORT_PTX_TAG(name) struct name##_t {}; constexpr name##_t name{};
ROCPORT_PTX_TAG(space_shared)
ROCPORT_PTX_TAG(space_global)
ROCPORT_PTX_TAG(space_cluster)
ROCPORT_PTX_TAG(space_shared_cluster)
ROCPORT_PTX_TAG(scope_cta)
ROCPORT_PTX_TAG(scope_cluster)
ROCPORT_PTX_TAG(scope_gpu)
ROCPORT_PTX_TAG(scope_sys)
ROCPORT_PTX_TAG(sem_release)
ROCPORT_PTX_TAG(sem_acquire)
ROCPORT_PTX_TAG(sem_relaxed)
ROCPORT_PTX_TAG(sem_acq_rel)
ROCPORT_PTX_TAG(proxy_tensormap_generic)
#undef ROCPORT_PTX_TAG
template <int N> struct n32_t { static constexpr int value = N; };
#define ROCPORT_PTX(name) template <class... A> __host__ __device__ __rocport_cx name(A &&...);
ROCPORT_PTX(fence_proxy_async)
ROCPORT_PTX(fence_proxy_tensormap_generic)
ROCPORT_PTX(fence)
ROCPORT_PTX(fence_mbarrier_init)
ROCPORT_PTX(cp_async_bulk)
ROCPORT_PTX(cp_async_bulk_tensor)
ROCPORT_PTX(cp_async_bulk_commit_group)
ROCPORT_PTX(cp_async_bulk_wait_group)
ROCPORT_PTX(cp_async_bulk_wait_group_read)
ROCPORT_PTX(cp_reduce_async_bulk)
ROCPORT_PTX(elect_sync)
ROCPORT_PTX(mbarrier_init)
ROCPORT_PTX(mbarrier_arrive)
ROCPORT_PTX(mbarrier_arrive_expect_tx)
ROCPORT_PTX(mbarrier_expect_tx)
ROCPORT_PTX(mbarrier_try_wait)
ROCPORT_PTX(mbarrier_try_wait_parity)
ROCPORT_PTX(mbarrier_test_wait)
ROCPORT_PTX(mbarrier_test_wait_parity)
ROCPORT_PTX(red_async)
ROCPORT_PTX(st_async)
ROCPORT_PTX(sem_release_op)
ROCPORT_PTX(get_sreg_laneid)
ROCPORT_PTX(get_sreg_warpid)
ROCPORT_PTX(get_sreg_ctaid_x)
ROCPORT_PTX(get_sreg_clock64)
ROCPORT_PTX(getctarank)
ROCPORT_PTX(tensormap_replace_global_address)
ROCPORT_PTX(tensormap_replace_size)
#undef ROCPORT_PTX
}  // namespace ptx
/* <cuda/barrier>'s transaction-count extensions for Hopper's bulk copies. */
namespace device {
template <class... A> __host__ __device__ void memcpy_async_tx(A &&...);
template <class... A> __host__ __device__ __rocport_cx barrier_arrive_tx(A &&...);
template <class... A> __host__ __device__ void barrier_expect_tx(A &&...);
template <class B> __host__ __device__ unsigned long long *barrier_native_handle(B &);
}  // namespace device
}  // namespace cuda
/* <nv/target>: NV_IF_TARGET(SM_90, (a;), (b;)) keeps the first branch's statements for the parse. */
#define __ROCPORT_NV_KEEP(...) __VA_ARGS__
#define NV_IF_TARGET(query, then, ...) { __ROCPORT_NV_KEEP then }
#define NV_IF_ELSE_TARGET(query, then, otherwise) { __ROCPORT_NV_KEEP then }
#define NV_DISPATCH_TARGET(...)
#define NV_IS_DEVICE 1
#define NV_IS_HOST 0
#define NV_PROVIDES_SM_70 1
#define NV_PROVIDES_SM_80 1
#define NV_PROVIDES_SM_90 1
#endif
