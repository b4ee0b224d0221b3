/* ROCport's model of RAPIDS Memory Manager (`rmm/...`) for a parse without it: the device containers, stream views
 * and memory resources a RAPIDS library's code declares its buffers with (`rmm::device_uvector<float> v(n, stream);`).
 * Every model sits in the precompiled header of any unit that needs one, so a checkout of rmm itself reads its real
 * headers beside this model: the model lives in `__rocport_rmm`, which `rmm` only nominates, and a real declaration
 * of `rmm::X` is then no redefinition and wins qualified lookup. Not a reimplementation. */
#ifndef ROCPORT_MODEL_RMM_H
#define ROCPORT_MODEL_RMM_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"

namespace __rocport_rmm {
class cuda_stream_view {
 public:
  constexpr cuda_stream_view() = default;
  constexpr cuda_stream_view(cudaStream_t s) : __stream(s) {}
  template <class S> cuda_stream_view(const S &);
  constexpr cudaStream_t value() const { return __stream; }
  constexpr operator cudaStream_t() const { return __stream; }
  bool is_per_thread_default() const;
  bool is_default() const;
  void synchronize() const;
  void synchronize_no_throw() const;
  cudaStream_t __stream = nullptr;
};
inline constexpr cuda_stream_view cuda_stream_default{}, cuda_stream_legacy{}, cuda_stream_per_thread{};
class cuda_stream {
 public:
  cuda_stream();
  template <class... A> explicit cuda_stream(A &&...);
  cudaStream_t value() const;
  operator cudaStream_t() const;
  cuda_stream_view view() const;
  operator cuda_stream_view() const;
  void synchronize() const;
};
class cuda_stream_pool {
 public:
  template <class... A> explicit cuda_stream_pool(A &&...);
  cuda_stream_view get_stream() const;
  cuda_stream_view get_stream(std::size_t) const;
  std::size_t get_pool_size() const;
};
namespace mr {
struct device_memory_resource {
  virtual ~device_memory_resource();
  template <class... A> void *allocate(A &&...);
  template <class... A> void deallocate(A &&...);
};
struct host_memory_resource : device_memory_resource {};
#define ROCPORT_RMM_RESOURCE(name)                                                                                  \
  struct name : device_memory_resource {                                                                           \
    name();                                                                                                        \
    template <class... A> explicit name(A &&...);                                                                  \
  };
ROCPORT_RMM_RESOURCE(cuda_memory_resource)
ROCPORT_RMM_RESOURCE(managed_memory_resource)
ROCPORT_RMM_RESOURCE(cuda_async_memory_resource)
ROCPORT_RMM_RESOURCE(pinned_host_memory_resource)
ROCPORT_RMM_RESOURCE(pinned_memory_resource)
ROCPORT_RMM_RESOURCE(binning_memory_resource)
#undef ROCPORT_RMM_RESOURCE
template <class... U> struct pool_memory_resource : device_memory_resource {
  template <class... A> explicit pool_memory_resource(A &&...);
};
template <class... U> struct arena_memory_resource : device_memory_resource {
  template <class... A> explicit arena_memory_resource(A &&...);
};
template <class... U> struct limiting_resource_adaptor : device_memory_resource {
  template <class... A> explicit limiting_resource_adaptor(A &&...);
};
template <class... U> struct statistics_resource_adaptor : device_memory_resource {
  template <class... A> explicit statistics_resource_adaptor(A &&...);
};
template <class... U> struct tracking_resource_adaptor : device_memory_resource {
  template <class... A> explicit tracking_resource_adaptor(A &&...);
};
device_memory_resource *get_current_device_resource();
template <class... A> device_memory_resource *set_current_device_resource(A &&...);
template <class... A> __rocport_cx get_current_device_resource_ref(A &&...);
template <class... A> __rocport_cx set_current_device_resource_ref(A &&...);
template <class... A> __rocport_cx get_per_device_resource(A &&...);
template <class... A> __rocport_cx set_per_device_resource(A &&...);
template <class... A> __rocport_cx make_owning_wrapper(A &&...);
}  // namespace mr
typedef __rocport_cx device_async_resource_ref, host_async_resource_ref, host_device_async_resource_ref;

class device_buffer {
 public:
  device_buffer();
  template <class... A> device_buffer(A &&...);
  void *data();
  const void *data() const;
  std::size_t size() const;
  std::size_t capacity() const;
  bool is_empty() const;
  cuda_stream_view stream() const;
  template <class... A> void resize(A &&...);
  template <class... A> void reserve(A &&...);
  template <class... A> void shrink_to_fit(A &&...);
  void set_stream(cuda_stream_view);
  __rocport_cx memory_resource() const;
};
template <class T> class device_uvector {
 public:
  typedef T value_type;
  typedef T *pointer, *iterator;
  typedef const T *const_pointer, *const_iterator;
  typedef T &reference;
  typedef std::size_t size_type;
  device_uvector();
  template <class... A> device_uvector(A &&...);
  T *data();
  const T *data() const;
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  const T *cbegin() const;
  const T *cend() const;
  std::size_t size() const;
  long long ssize() const;
  bool is_empty() const;
  std::size_t capacity() const;
  T *element_ptr(std::size_t);
  template <class... A> T element(A &&...) const;
  template <class... A> T front_element(A &&...) const;
  template <class... A> T back_element(A &&...) const;
  template <class... A> void set_element(A &&...);
  template <class... A> void set_element_async(A &&...);
  template <class... A> void set_element_to_zero_async(A &&...);
  template <class... A> void resize(A &&...);
  template <class... A> void reserve(A &&...);
  template <class... A> void shrink_to_fit(A &&...);
  device_buffer release();
  cuda_stream_view stream() const;
  void set_stream(cuda_stream_view);
  __rocport_cx memory_resource() const;
};
template <class T> class device_scalar {
 public:
  typedef T value_type;
  device_scalar();
  template <class... A> device_scalar(A &&...);
  T *data();
  const T *data() const;
  template <class... A> T value(A &&...) const;
  template <class... A> void set_value_async(A &&...);
  template <class... A> void set_value_to_zero_async(A &&...);
  std::size_t size() const;
  cuda_stream_view stream() const;
  void set_stream(cuda_stream_view);
};
/* `thrust::transform(rmm::exec_policy(stream), ...)` */
struct exec_policy {
  template <class... A> exec_policy(A &&...);
};
struct exec_policy_nosync {
  template <class... A> exec_policy_nosync(A &&...);
};
template <class... A> __rocport_cx align_up(A &&...);
template <class... A> __rocport_cx align_down(A &&...);
template <class... A> bool is_aligned(A &&...);
inline constexpr std::size_t CUDA_ALLOCATION_ALIGNMENT = 256;
struct bad_alloc {
  template <class... A> bad_alloc(A &&...);
  const char *what() const;
};
struct out_of_memory : bad_alloc {
  using bad_alloc::bad_alloc;
};
struct logic_error {
  template <class... A> logic_error(A &&...);
  const char *what() const;
};
struct cuda_error : logic_error {
  using logic_error::logic_error;
};
}  // namespace __rocport_rmm
namespace rmm {
using namespace ::__rocport_rmm;
}  // namespace rmm
#define RMM_CUDA_TRY(...) ((void)(__VA_ARGS__))
#define RMM_CUDA_TRY_ALLOC(...) ((void)(__VA_ARGS__))
#define RMM_ASSERT_CUDA_SUCCESS(...) ((void)(__VA_ARGS__))
#define RMM_EXPECTS(...) ((void)0)
#define RMM_FAIL(...) ((void)0)
#endif
