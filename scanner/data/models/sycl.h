/* ROCport's model of SYCL (`sycl/sycl.hpp`, `CL/sycl.hpp`) for a parse without a SYCL compiler's headers: the
 * queue, handler, ranges and items, buffers and accessors, sub-groups, USM allocation, vectors and group
 * algorithms, declared permissively. A project's Intel GPU (XPU) backend sits beside its CUDA one; enough that
 * such a file keeps its declarations, not a reimplementation. */
#ifndef ROCPORT_MODEL_SYCL_H
#define ROCPORT_MODEL_SYCL_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
#define SYCL_EXTERNAL
namespace sycl {
inline namespace _V1 {
template <int D = 1> struct id {
  id();
  template <class... A> id(A...);
  size_t get(int) const;
  size_t operator[](int) const;
  operator size_t() const;
};
template <int D = 1> struct range {
  range();
  template <class... A> range(A...);
  size_t get(int) const;
  size_t size() const;
  size_t operator[](int) const;
};
template <int D = 1> struct nd_range {
  nd_range();
  nd_range(range<D>, range<D>);
  range<D> get_global_range() const;
  range<D> get_local_range() const;
  range<D> get_group_range() const;
};
struct sub_group {
  size_t get_local_id() const;
  size_t get_local_range() const;
  size_t get_group_id() const;
  size_t get_group_range() const;
  size_t get_local_linear_id() const;
  size_t get_max_local_range() const;
  template <class... A> __rocport_cx shuffle(A &&...) const;
  template <class... A> __rocport_cx shuffle_down(A &&...) const;
  template <class... A> __rocport_cx shuffle_xor(A &&...) const;
  void barrier() const;
};
template <int D = 1> struct group {
  size_t get_group_id(int = 0) const;
  size_t get_local_id(int = 0) const;
  size_t get_group_linear_id() const;
  size_t get_local_linear_id() const;
  range<D> get_local_range() const;
  range<D> get_group_range() const;
  size_t operator[](int) const;
};
namespace access {
enum class fence_space { local_space, global_space, global_and_local };
enum class mode { read, write, read_write, discard_write, discard_read_write, atomic };
enum class target { device, host_buffer, local, constant_buffer };
enum class address_space { global_space, local_space, constant_space, private_space, generic_space };
enum class decorated { no, yes, legacy };
} // namespace access
using access_mode = access::mode;
enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
enum class memory_scope { work_item, sub_group, work_group, device, system };
template <int D = 1, bool WithOffset = false> struct item {
  size_t get_id(int = 0) const;
  size_t get_range(int = 0) const;
  size_t get_linear_id() const;
  size_t operator[](int) const;
  operator size_t() const;
};
template <int D = 1> struct nd_item {
  size_t get_global_id(int = 0) const;
  size_t get_local_id(int = 0) const;
  size_t get_global_linear_id() const;
  size_t get_local_linear_id() const;
  size_t get_group(int) const;
  group<D> get_group() const;
  size_t get_group_linear_id() const;
  size_t get_global_range(int = 0) const;
  size_t get_local_range(int = 0) const;
  size_t get_group_range(int = 0) const;
  sub_group get_sub_group() const;
  void barrier(access::fence_space = access::fence_space::global_and_local) const;
  void mem_fence(access::fence_space = access::fence_space::global_and_local) const;
};
struct half {
  unsigned short __storage;
  half();
  half(float);
  operator float() const;
};
namespace ext {
namespace oneapi {
struct bfloat16 {
  unsigned short __storage;
  bfloat16();
  bfloat16(float);
  operator float() const;
};
namespace experimental {}
namespace this_work_item {
sub_group get_sub_group();
template <int D = 1> nd_item<D> get_nd_item();
} // namespace this_work_item
} // namespace oneapi
namespace intel {}
} // namespace ext
template <class T, int N> struct vec {
  vec();
  template <class... A> vec(A...);
  T &operator[](int);
  const T &operator[](int) const;
  template <class U, int M = N> vec<U, M> convert() const;
  template <class U> U as() const;
  T x() const;
  T y() const;
  T z() const;
  T w() const;
  static constexpr int size() { return N; }
  template <class U> friend vec operator+(const vec &, const U &);
  template <class U> friend vec operator-(const vec &, const U &);
  template <class U> friend vec operator*(const vec &, const U &);
  template <class U> friend vec operator/(const vec &, const U &);
};
template <class T, int N> using marray = vec<T, N>;
using float2 = vec<float, 2>;
using float4 = vec<float, 4>;
using int2 = vec<int, 2>;
using int4 = vec<int, 4>;
using uchar4 = vec<unsigned char, 4>;
template <class T, int D = 1, access_mode M = access_mode::read_write, access::target Tg = access::target::device>
class accessor {
public:
  accessor();
  template <class... A> accessor(A &&...);
  T &operator[](size_t) const;
  T *get_pointer() const;
  template <access::decorated Dc = access::decorated::no> T *get_multi_ptr() const;
  size_t size() const;
  range<D> get_range() const;
};
template <class T, int D = 1> class local_accessor {
public:
  local_accessor();
  template <class... A> local_accessor(A &&...);
  T &operator[](size_t) const;
  T *get_pointer() const;
  template <access::decorated Dc = access::decorated::no> T *get_multi_ptr() const;
  size_t size() const;
};
template <class T, int D = 1> class buffer {
public:
  buffer();
  template <class... A> buffer(A &&...);
  template <access_mode M = access_mode::read_write, class... A> accessor<T, D, M> get_access(A &&...);
  template <class... A> accessor<T, D> get_host_access(A &&...);
  range<D> get_range() const;
  size_t size() const;
};
class event {
public:
  void wait();
  static void wait(const std::vector<event> &);
  template <class... A> __rocport_cx get_profiling_info(A &&...) const;
};
class device {
public:
  device();
  template <class... A> device(A &&...);
  template <class T> __rocport_cx get_info() const;
  bool is_gpu() const;
  bool is_cpu() const;
  bool has(int) const;
  static std::vector<device> get_devices(int = 0);
};
class context {
public:
  context();
  template <class... A> context(A &&...);
  std::vector<device> get_devices() const;
};
class handler {
public:
  template <class Name = void, class... A> void parallel_for(A &&...);
  template <class Name = void, class... A> void single_task(A &&...);
  template <class... A> void memcpy(A &&...);
  template <class... A> void memset(A &&...);
  template <class... A> void fill(A &&...);
  template <class... A> void copy(A &&...);
  template <class... A> void depends_on(A &&...);
  template <class... A> void host_task(A &&...);
};
class queue {
public:
  queue();
  template <class... A> queue(A &&...);
  template <class F> event submit(F &&);
  template <class Name = void, class... A> event parallel_for(A &&...);
  template <class Name = void, class... A> event single_task(A &&...);
  template <class... A> event memcpy(A &&...);
  template <class... A> event memset(A &&...);
  template <class... A> event fill(A &&...);
  template <class... A> event copy(A &&...);
  template <class... A> event prefetch(A &&...);
  void wait();
  void wait_and_throw();
  device get_device() const;
  context get_context() const;
  bool is_in_order() const;
};
namespace property {
namespace queue {
struct in_order {};
struct enable_profiling {};
} // namespace queue
} // namespace property
struct gpu_selector { int operator()(const device &) const; };
struct cpu_selector { int operator()(const device &) const; };
struct default_selector { int operator()(const device &) const; };
inline constexpr default_selector default_selector_v{};
inline constexpr gpu_selector gpu_selector_v{};
inline constexpr cpu_selector cpu_selector_v{};
class exception : public std::exception {
public:
  const char *what() const noexcept;
};
template <class T> T *malloc_device(size_t, const queue &);
template <class T> T *malloc_shared(size_t, const queue &);
template <class T> T *malloc_host(size_t, const queue &);
void *malloc_device(size_t, const queue &);
void *malloc_shared(size_t, const queue &);
void *malloc_host(size_t, const queue &);
template <class T = void> T *aligned_alloc_device(size_t, size_t, const queue &);
void free(void *, const queue &);
void free(void *, const context &);
template <class T = void> struct plus { template <class A, class B> auto operator()(const A &a, const B &b) const { return a + b; } };
template <class T = void> struct multiplies { template <class A, class B> auto operator()(const A &a, const B &b) const { return a * b; } };
template <class T = void> struct maximum { template <class A, class B> A operator()(const A &, const B &) const; };
template <class T = void> struct minimum { template <class A, class B> A operator()(const A &, const B &) const; };
template <class G, class T, class Op> T reduce_over_group(G, T, Op);
template <class G, class T, class Op> T reduce_over_group(G, T, T, Op);
template <class G, class T, class Op> T inclusive_scan_over_group(G, T, Op);
template <class G, class T, class Op> T exclusive_scan_over_group(G, T, Op);
template <class G, class T> T group_broadcast(G, T, size_t = 0);
template <class G, class T> T select_from_group(G, T, size_t);
template <class G, class T> T shift_group_left(G, T, size_t = 1);
template <class G, class T> T shift_group_right(G, T, size_t = 1);
template <class G, class T> T permute_group_by_xor(G, T, size_t);
template <class G> bool any_of_group(G, bool);
template <class G> bool all_of_group(G, bool);
template <class G> void group_barrier(G, memory_scope = memory_scope::work_group);
template <class T, memory_order O = memory_order::relaxed, memory_scope S = memory_scope::device,
          access::address_space A = access::address_space::generic_space>
struct atomic_ref {
  explicit atomic_ref(T &);
  T load() const;
  void store(T) const;
  T fetch_add(T) const;
  T fetch_sub(T) const;
  T fetch_max(T) const;
  T fetch_min(T) const;
  T exchange(T) const;
  bool compare_exchange_strong(T &, T) const;
  T operator+=(T) const;
};
template <class A, class B> auto min(A a, B b) { return a < b ? a : b; }
template <class A, class B> auto max(A a, B b) { return a < b ? b : a; }
template <class T> T fabs(T);
template <class T> T sqrt(T);
template <class T> T rsqrt(T);
template <class T> T exp(T);
template <class T> T log(T);
template <class T> T fma(T, T, T);
template <class T> T clamp(T, T, T);
template <class T> T floor(T);
template <class T> T ceil(T);
template <class T> T round(T);
template <class T> T abs(T);
} // namespace _V1
} // namespace sycl
namespace cl {
namespace sycl = ::sycl;
}
#endif
