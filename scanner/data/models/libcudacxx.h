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
enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
template <class T, thread_scope S = thread_scope_system> struct atomic : __rocport_cx {
  using __rocport_cx::__rocport_cx;
};
template <class T, thread_scope S = thread_scope_system> struct atomic_ref : __rocport_cx {
  using __rocport_cx::__rocport_cx;
};
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
namespace ptx { template <class... A> __host__ __device__ __rocport_cx fence_proxy_async(A &&...); }
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
