/* ROCport's hermetic CUDA prelude: what nvcc's implicit headers and the CUDA toolkit would declare,
 * reduced to what the rules need to see real cursors. Parsed with -nocudainc -nostdinc; never a toolkit.
 * In the style of clang/test/SemaCUDA/Inputs/cuda.h. The runtime/driver/library API names of HIPIFY's table
 * are appended by scanner/parsing/prelude.py. */
#pragma clang system_header
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 131
#define CUDART_VERSION 12040
#define CUDA_VERSION 12040
#define __CUDA_API_VERSION 12040
#define CUDART_CB
#define CUDARTAPI
#define CUDAAPI
#define assert(e) ((void)(e))
/*@LIBC@*/
/* nvcc includes cuda_runtime.h implicitly; helpers test its headers' include guards (helper_cuda.h defines
 * checkCudaErrors only #ifdef __DRIVER_TYPES_H__). */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __DEVICE_TYPES_H__
#define __HOST_DEFINES_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

/* A value that converts to whatever the code expects: the result of a library call modelled loosely below. */
struct __rocport_any {
  template <class T> __host__ __device__ operator T() const;
  template <class T> __host__ __device__ __rocport_any operator[](T) const;
  template <class... A> __host__ __device__ __rocport_any operator()(A &&...) const;
  /* what an algorithm modelled loosely returns is often an iterator: `*std::max_element(...)` */
  __host__ __device__ __rocport_any operator*() const;
};


inline void *operator new(size_t, void *__where) noexcept { return __where; }
inline void *operator new[](size_t, void *__where) noexcept { return __where; }
namespace std {
using ::size_t;
using ::int64_t;
using ::uint64_t;
using ::int32_t;
using ::uint32_t;
template <class T> struct allocator {};
/* The shape clang expects of std::initializer_list: a braced list ({a, b, c}) passed to a parameter of it. */
template <class E> class initializer_list {
  const E *__begin;
  size_t __size;
public:
  constexpr initializer_list() : __begin(0), __size(0) {}
  constexpr size_t size() const { return __size; }
  constexpr const E *begin() const { return __begin; }
  constexpr const E *end() const { return __begin + __size; }
};
template <class T, class A = allocator<T>> struct vector {
  typedef T value_type;
  vector();
  vector(initializer_list<T>);
  explicit vector(size_t);
  vector(size_t, const T &);
  template <class It> vector(It, It);
  T *data();
  const T *data() const;
  size_t size() const;
  bool empty() const;
  void resize(size_t);
  void resize(size_t, const T &);
  void reserve(size_t);
  void clear();
  void push_back(const T &);
  template <class... A2> void emplace_back(A2 &&...);
  void pop_back();
  template <class It> void assign(It, It);
  void assign(size_t, const T &);
  template <class... A2> T *insert(A2 &&...);
  template <class... A2> T *erase(A2 &&...);
  size_t capacity() const;
  void shrink_to_fit();
  T &operator[](size_t);
  const T &operator[](size_t) const;
  T &at(size_t);
  T &back();
  T &front();
  const T &back() const;
  const T &front() const;
  const T &at(size_t) const;
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  const T *cbegin() const;
  const T *cend() const;
  T *rbegin();
  T *rend();
};
struct string {
  static const size_t npos = (size_t)-1;
  typedef char value_type;
  string();
  string(const char *);
  string(const char *, size_t);
  string(size_t, char);
  template <class I> string(I, I);
  const char *c_str() const;
  const char *data() const;
  char *data();
  size_t size() const;
  size_t length() const;
  bool empty() const;
  void clear();
  char &operator[](size_t);
  const char &operator[](size_t) const;
  char *begin(); char *end(); const char *begin() const; const char *end() const;
  string operator+(const string &) const;
  string operator+(const char *) const;
  string operator+(char) const;
  string &operator+=(const string &);
  string &operator+=(const char *);
  string &operator+=(char);
  bool operator==(const string &) const;
  bool operator!=(const string &) const;
  bool operator<(const string &) const;
  template <class... A> size_t find(A &&...) const;
  template <class... A> size_t rfind(A &&...) const;
  template <class... A> size_t find_first_of(A &&...) const;
  template <class... A> size_t find_last_of(A &&...) const;
  template <class... A> size_t find_first_not_of(A &&...) const;
  template <class... A> size_t find_last_not_of(A &&...) const;
  template <class... A> string substr(A &&...) const;
  template <class... A> string &erase(A &&...);
  template <class... A> string &replace(A &&...);
  template <class... A> string &append(A &&...);
  template <class... A> string &insert(A &&...);
  template <class... A> string &assign(A &&...);
  template <class... A> int compare(A &&...) const;
  void push_back(char);
  void resize(size_t);
  void reserve(size_t);
};
string operator+(const char *, const string &);
int stoi(const string &, size_t * = 0, int = 10);
long stol(const string &, size_t * = 0, int = 10);
float stof(const string &, size_t * = 0);
double stod(const string &, size_t * = 0);
struct ios_base { enum openmode { in = 1, out = 2, binary = 4, app = 8, ate = 16, trunc = 32 }; };
struct istream : ios_base { template <class T> istream &operator>>(T &); bool bad() const; template <class... A> istream &read(A &&...);
  template <class... A> istream &getline(A &&...); bool good() const; bool eof() const; bool fail() const;
  explicit operator bool() const; template <class... A> istream &seekg(A &&...); long tellg();
  template <class... A> istream &ignore(A &&...); int get(); };
#define ROCPORT_STD_STREAM(name)                                                                               \
  struct name : istream { name(); template <class... A> name(A &&...); string str() const;                      \
    template <class... A> void str(A &&...); template <class... A> void open(A &&...); void close();            \
    bool is_open() const; template <class... A> name &write(A &&...); template <class... A> name &seekp(A &&...); \
    long tellp(); void flush(); };
ROCPORT_STD_STREAM(stringstream)
ROCPORT_STD_STREAM(ostringstream)
ROCPORT_STD_STREAM(istringstream)
ROCPORT_STD_STREAM(fstream)
ROCPORT_STD_STREAM(ifstream)
ROCPORT_STD_STREAM(ofstream)
#undef ROCPORT_STD_STREAM
template <class S, class T> S &operator<<(S &, const T &);
template <class... A> __rocport_any getline(A &&...);
template <class... A> __rocport_any setw(A &&...);
template <class... A> __rocport_any setprecision(A &&...);
template <class... A> __rocport_any transform(A &&...);
template <class... A> __rocport_any reverse(A &&...);
template <class... A> __rocport_any count(A &&...);
template <class... A> __rocport_any iota(A &&...);
template <class... A> __rocport_any lower_bound(A &&...);
template <class... A> __rocport_any upper_bound(A &&...);
template <class... A> __rocport_any memcpy(A &&...);
template <class... A> __rocport_any memset(A &&...);
extern __rocport_any fixed, scientific, hex, dec, flush;

template <class T> string to_string(T);
struct ostream {};
extern ostream cout, cerr;
template <class T> ostream &operator<<(ostream &, const T &);
struct endl_t {};
extern endl_t endl;
struct runtime_error {
  runtime_error(const char *);
  runtime_error(const string &);
};
template <class T> __host__ __device__ const T &min(const T &, const T &);
template <class T> __host__ __device__ const T &max(const T &, const T &);
template <class T> __host__ __device__ T min(initializer_list<T>);
template <class T> __host__ __device__ T max(initializer_list<T>);
template <class T> __host__ __device__ void swap(T &, T &);
template <class T> __host__ __device__ T abs(T);
template <class T> __host__ __device__ T sqrt(T);
template <class T> __host__ __device__ T exp(T);
template <class T> __host__ __device__ T log(T);
template <class T> __host__ __device__ T pow(T, T);
template <class T> __host__ __device__ T fabs(T);
template <class T> __host__ __device__ T ceil(T);
template <class T> __host__ __device__ T floor(T);
template <class T> struct remove_extent { typedef T type; };
template <class T> struct remove_extent<T[]> { typedef T type; };
template <class T, size_t N> struct remove_extent<T[N]> { typedef T type; };
template <class T> using remove_extent_t = typename remove_extent<T>::type;
/* The smart pointers as host code uses them: dereferenced, tested, reset, compared with nullptr; `T[]` indexed. */
#define ROCPORT_SMART_POINTER(name)                                                                                   \
  typedef remove_extent_t<T> element_type;                                                                           \
  name();                                                                                                            \
  name(decltype(nullptr));                                                                                           \
  template <class U, class... E> explicit name(U *, E &&...);                                                        \
  template <class U, class... E> name(name<U, E...> &&);                                                             \
  element_type *get() const;                                                                                         \
  element_type *operator->() const;                                                                                  \
  element_type &operator*() const;                                                                                   \
  element_type &operator[](ptrdiff_t) const;                                                                         \
  explicit operator bool() const;                                                                                    \
  void reset();                                                                                                      \
  template <class U, class... E> void reset(U *, E &&...);                                                           \
  void swap(name &);
template <class T, class... D> struct unique_ptr {
  ROCPORT_SMART_POINTER(unique_ptr)
  unique_ptr(const unique_ptr &) = delete;
  unique_ptr(unique_ptr &&);
  unique_ptr &operator=(unique_ptr &&);
  unique_ptr &operator=(decltype(nullptr));
  element_type *release();
};
template <class T, class... D> struct shared_ptr {
  ROCPORT_SMART_POINTER(shared_ptr)
  shared_ptr(const shared_ptr &);
  template <class U> shared_ptr(const shared_ptr<U> &);
  template <class U, class... D2> shared_ptr(unique_ptr<U, D2...> &&);
  shared_ptr &operator=(const shared_ptr &);
  long use_count() const;
};
template <class T> struct weak_ptr {
  weak_ptr();
  template <class U> weak_ptr(const shared_ptr<U> &);
  shared_ptr<T> lock() const;
  bool expired() const;
};
template <class T> struct enable_shared_from_this { shared_ptr<T> shared_from_this(); };
#undef ROCPORT_SMART_POINTER
template <class T, class... D> bool operator==(const unique_ptr<T, D...> &, decltype(nullptr));
template <class T, class... D> bool operator!=(const unique_ptr<T, D...> &, decltype(nullptr));
template <class T, class U> bool operator==(const shared_ptr<T> &, const shared_ptr<U> &);
template <class T, class U> bool operator!=(const shared_ptr<T> &, const shared_ptr<U> &);
template <class T> bool operator==(const shared_ptr<T> &, decltype(nullptr));
template <class T> bool operator!=(const shared_ptr<T> &, decltype(nullptr));
template <class T, class U> shared_ptr<T> static_pointer_cast(const shared_ptr<U> &);
template <class T, class U> shared_ptr<T> dynamic_pointer_cast(const shared_ptr<U> &);
template <class T, class A> bool operator==(const vector<T, A> &, const vector<T, A> &);
template <class T, class A> bool operator!=(const vector<T, A> &, const vector<T, A> &);
template <class T, class A> bool operator<(const vector<T, A> &, const vector<T, A> &);
using ::uintptr_t;
using ::intptr_t;
using ::ptrdiff_t;
enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release,
                    memory_order_acq_rel, memory_order_seq_cst };
template <class T> struct atomic {
  atomic();
  atomic(T);
  T load(memory_order = memory_order_seq_cst) const;
  void store(T, memory_order = memory_order_seq_cst);
  T exchange(T, memory_order = memory_order_seq_cst);
  template <class... A> bool compare_exchange_weak(T &, T, A...);
  template <class... A> bool compare_exchange_strong(T &, T, A...);
  T fetch_add(T, memory_order = memory_order_seq_cst);
  T fetch_sub(T, memory_order = memory_order_seq_cst);
  operator T() const;
  T operator=(T);
  T operator++();
  T operator++(int);
  T operator--();
  T operator--(int);
  T operator+=(T);
  T operator-=(T);
};
void atomic_thread_fence(memory_order);
struct thread {
  struct id { bool operator==(const id &) const; };
  thread();
  template <class F, class... A> explicit thread(F &&, A &&...);
  thread(thread &&);
  thread &operator=(thread &&);
  void join();
  void detach();
  bool joinable() const;
  id get_id() const;
  static unsigned hardware_concurrency();
};
namespace this_thread {
thread::id get_id();
template <class D> void sleep_for(const D &);
void yield();
}  // namespace this_thread
struct string_view {
  static const size_t npos = (size_t)-1;
  string_view();
  string_view(const char *);
  string_view(const char *, size_t);
  string_view(const string &);
  const char *data() const;
  size_t size() const;
  size_t length() const;
  bool empty() const;
  const char *begin() const;
  const char *end() const;
  char operator[](size_t) const;
  string_view substr(size_t, size_t = npos) const;
  size_t find(string_view, size_t = 0) const;
  size_t rfind(string_view, size_t = npos) const;
  bool starts_with(string_view) const;
  bool ends_with(string_view) const;
  int compare(string_view) const;
  explicit operator string() const;
};
bool operator==(string_view, string_view);
bool operator!=(string_view, string_view);
template <class T> struct numeric_limits {
  static constexpr T max() { return T(); }
  static constexpr T min() { return T(); }
  static constexpr T lowest() { return T(); }
  static constexpr T infinity() { return T(); }
  static constexpr T epsilon() { return T(); }
  static constexpr T round_error() { return T(); }
  static constexpr T quiet_NaN() { return T(); }
  static constexpr T signaling_NaN() { return T(); }
  static constexpr T denorm_min() { return T(); }
  static constexpr bool is_specialized = true, is_signed = true, is_integer = false, is_exact = false,
                        has_infinity = true, has_quiet_NaN = true, is_iec559 = true, is_bounded = true;
  static constexpr int digits = 1, digits10 = 1, max_digits10 = 1, radix = 2, min_exponent = 0, max_exponent = 0;
};
template <class T, size_t N> struct array {
  T e[N];
  T &operator[](size_t);
  const T &operator[](size_t) const;
  static constexpr size_t size() { return N; }
  T *data();
  const T *data() const;
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  void fill(const T &);
};
template <class A, class B> struct pair { A first; B second; };
template <class T> T &&move(T &);
template <class T> T &&forward(T &);
/* <type_traits>, <stdexcept>, <functional>, <utility>: what kernels' templates and host wrappers use most. */
template <class T, T v> struct integral_constant { static constexpr T value = v; typedef T value_type;
  constexpr operator T() const { return v; } };
typedef integral_constant<bool, true> true_type;
typedef integral_constant<bool, false> false_type;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> struct remove_cv { typedef T type; };
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> struct decay { typedef T type; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> using decay_t = typename decay<T>::type;
template <class T> struct is_floating_point : integral_constant<bool, __is_floating_point(T)> {};
template <class T> struct is_integral : integral_constant<bool, __is_integral(T)> {};
template <class T> struct is_signed : integral_constant<bool, __is_signed(T)> {};
template <class T> struct is_unsigned : integral_constant<bool, __is_unsigned(T)> {};
template <class T> struct is_pointer : integral_constant<bool, __is_pointer(T)> {};
template <class T> struct is_trivially_copyable : integral_constant<bool, __is_trivially_copyable(T)> {};
template <class T> struct is_standard_layout : integral_constant<bool, __is_standard_layout(T)> {};
template <class T> struct is_arithmetic : integral_constant<bool, __is_arithmetic(T)> {};
template <class T> inline constexpr bool is_floating_point_v = __is_floating_point(T);
template <class T> inline constexpr bool is_integral_v = __is_integral(T);
template <class T> inline constexpr bool is_signed_v = __is_signed(T);
template <class T> inline constexpr bool is_unsigned_v = __is_unsigned(T);
template <class T> inline constexpr bool is_pointer_v = __is_pointer(T);
template <class T> inline constexpr bool is_arithmetic_v = __is_arithmetic(T);
template <class T> T declval();
template <class...> using void_t = void;
template <class B, class D> struct is_base_of : integral_constant<bool, __is_base_of(B, D)> {};
template <class B, class D> inline constexpr bool is_base_of_v = __is_base_of(B, D);
template <class F, class T> struct is_convertible : integral_constant<bool, __is_convertible_to(F, T)> {};
template <class F, class T> inline constexpr bool is_convertible_v = __is_convertible_to(F, T);
template <class T> struct is_empty : integral_constant<bool, __is_empty(T)> {};
template <class T> inline constexpr bool is_empty_v = __is_empty(T);
template <class T> struct is_void : is_same<remove_cv_t<T>, void> {};
template <class T> inline constexpr bool is_void_v = is_void<T>::value;
template <class T> struct remove_cvref { typedef T type; };
template <class T> using remove_cvref_t = typename remove_cvref<T>::type;
template <class T> struct is_enum : integral_constant<bool, __is_enum(T)> {};
template <class T> inline constexpr bool is_enum_v = __is_enum(T);
template <class T> struct is_pod : integral_constant<bool, __is_pod(T)> {};
template <class T> inline constexpr bool is_pod_v = __is_pod(T);
template <class T> struct is_trivial : integral_constant<bool, __is_trivial(T)> {};
template <class T> inline constexpr bool is_trivial_v = __is_trivial(T);
template <class T> struct is_class : integral_constant<bool, __is_class(T)> {};
template <class T> inline constexpr bool is_class_v = __is_class(T);
template <class T> struct is_union : integral_constant<bool, __is_union(T)> {};
template <class T> inline constexpr bool is_union_v = __is_union(T);
template <class T> struct is_polymorphic : integral_constant<bool, __is_polymorphic(T)> {};
template <class T> inline constexpr bool is_polymorphic_v = __is_polymorphic(T);
template <class T> struct is_abstract : integral_constant<bool, __is_abstract(T)> {};
template <class T> inline constexpr bool is_abstract_v = __is_abstract(T);
template <class T> struct is_final : integral_constant<bool, __is_final(T)> {};
template <class T> inline constexpr bool is_final_v = __is_final(T);
template <class T> struct is_reference : integral_constant<bool, __is_reference(T)> {};
template <class T> inline constexpr bool is_reference_v = __is_reference(T);
template <class T> struct is_lvalue_reference : integral_constant<bool, __is_lvalue_reference(T)> {};
template <class T> inline constexpr bool is_lvalue_reference_v = __is_lvalue_reference(T);
template <class T> struct is_const : integral_constant<bool, __is_const(T)> {};
template <class T> inline constexpr bool is_const_v = __is_const(T);
template <class T> struct is_array : integral_constant<bool, __is_array(T)> {};
template <class T> inline constexpr bool is_array_v = __is_array(T);
template <class T> struct is_function : integral_constant<bool, __is_function(T)> {};
template <class T> inline constexpr bool is_function_v = __is_function(T);
template <class T> struct is_trivially_destructible : integral_constant<bool, __is_trivially_destructible(T)> {};
template <class T> inline constexpr bool is_trivially_destructible_v = __is_trivially_destructible(T);
template <class T> struct is_trivially_default_constructible : integral_constant<bool, __is_trivially_constructible(T)> {};
template <class T> inline constexpr bool is_trivially_default_constructible_v = __is_trivially_constructible(T);
template <class T> struct has_unique_object_representations : integral_constant<bool, __has_unique_object_representations(T)> {};
template <class T> inline constexpr bool has_unique_object_representations_v = __has_unique_object_representations(T);
enum class byte : unsigned char {};
#if __cplusplus >= 202002L
/* <concepts> and <utility>'s integer comparisons (C++20). */
template <class T> concept integral = __is_integral(T);
template <class T> concept signed_integral = __is_integral(T) && __is_signed(T);
template <class T> concept unsigned_integral = __is_integral(T) && !__is_signed(T);
template <class T> concept floating_point = __is_floating_point(T);
template <class A, class B> concept same_as = __is_same(A, B) && __is_same(B, A);
template <class D, class B> concept derived_from = __is_base_of(B, D);
template <class F, class T> concept convertible_to = __is_convertible_to(F, T);
template <class R, class T> constexpr bool in_range(T) noexcept { return true; }
template <class A, class B> constexpr bool cmp_less(A, B) noexcept { return true; }
template <class A, class B> constexpr bool cmp_greater(A, B) noexcept { return true; }
template <class A, class B> constexpr bool cmp_equal(A, B) noexcept { return true; }
#endif
template <class T> struct underlying_type { typedef __underlying_type(T) type; };
template <class T> using underlying_type_t = typename underlying_type<T>::type;
template <class T> constexpr const T &as_const(T &) noexcept;
template <class T, T... I> struct integer_sequence { static constexpr size_t size() noexcept { return sizeof...(I); } };
template <size_t... I> using index_sequence = integer_sequence<size_t, I...>;
template <class T, T N> using make_integer_sequence = __make_integer_seq<integer_sequence, T, N>;
template <size_t N> using make_index_sequence = make_integer_sequence<size_t, N>;
template <class... T> using index_sequence_for = make_index_sequence<sizeof...(T)>;
struct input_iterator_tag {};
struct output_iterator_tag {};
struct forward_iterator_tag : input_iterator_tag {};
struct bidirectional_iterator_tag : forward_iterator_tag {};
struct random_access_iterator_tag : bidirectional_iterator_tag {};
template <class I> struct iterator_traits {
  typedef typename I::value_type value_type;
  typedef typename I::difference_type difference_type;
  typedef typename I::pointer pointer;
  typedef typename I::reference reference;
  typedef typename I::iterator_category iterator_category;
};
template <class T> struct iterator_traits<T *> {
  typedef T value_type;
  typedef ptrdiff_t difference_type;
  typedef T *pointer;
  typedef T &reference;
  typedef random_access_iterator_tag iterator_category;
};
struct exception { virtual const char *what() const; };
#define ROCPORT_STD_ERROR(name) struct name : exception { name(const char *); name(const string &); };
ROCPORT_STD_ERROR(logic_error)
ROCPORT_STD_ERROR(invalid_argument)
ROCPORT_STD_ERROR(out_of_range)
ROCPORT_STD_ERROR(length_error)
ROCPORT_STD_ERROR(overflow_error)
ROCPORT_STD_ERROR(bad_alloc)
#undef ROCPORT_STD_ERROR
template <class F> struct function { template <class G> function(G); function();
  template <class... A> __rocport_any operator()(A &&...) const; };
template <class... T> struct tuple { template <class... A> __host__ __device__ tuple(A &&...); };
template <class... A> __host__ __device__ tuple<A...> make_tuple(A &&...);
/* `auto [major, minor] = f();` on a tuple or a pair: the structured binding needs tuple_size, tuple_element, get. */
template <class T> struct tuple_size;
template <class... T> struct tuple_size<tuple<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <class A, class B> struct tuple_size<pair<A, B>> : integral_constant<size_t, 2> {};
template <size_t I, class T> struct tuple_element;
template <size_t I, class H, class... T> struct tuple_element<I, tuple<H, T...>> : tuple_element<I - 1, tuple<T...>> {};
template <class H, class... T> struct tuple_element<0, tuple<H, T...>> { typedef H type; };
template <class A, class B> struct tuple_element<0, pair<A, B>> { typedef A type; };
template <class A, class B> struct tuple_element<1, pair<A, B>> { typedef B type; };
template <size_t I, class T> __host__ __device__ typename tuple_element<I, T>::type &get(T &);
template <size_t I, class T> __host__ __device__ const typename tuple_element<I, T>::type &get(const T &);
template <size_t I, class T> __host__ __device__ typename tuple_element<I, T>::type &&get(T &&);
template <class... A> __host__ __device__ tuple<A &...> tie(A &...);
template <class A, class B> __host__ __device__ pair<A, B> make_pair(A, B);
/* Iterators as pointers to the entries: `it != m.end()`, `it->second` and range-for parse. */
template <class K, class V, class... R> struct map { V &operator[](const K &); size_t size() const;
  pair<K, V> *find(const K &) const; pair<K, V> *begin() const; pair<K, V> *end() const;
  size_t count(const K &) const; template <class... A> pair<pair<K, V> *, bool> emplace(A &&...);
  template <class... A> pair<pair<K, V> *, bool> insert(A &&...); size_t erase(const K &); V &at(const K &);
  const V &at(const K &) const; pair<K, V> *cbegin() const; pair<K, V> *cend() const; bool empty() const;
  void clear(); bool contains(const K &) const; };
template <class K, class V, class... R> struct unordered_map : map<K, V> {};
template <class K, class... R> struct set { size_t count(const K &) const; size_t size() const;
  template <class... A> __rocport_any insert(A &&...); const K *begin() const; const K *end() const;
  const K *find(const K &) const; template <class... A> size_t erase(A &&...); bool empty() const; void clear();
  template <class S> void merge(S &&); bool contains(const K &) const; template <class... A> __rocport_any emplace(A &&...); };
template <class K, class... R> struct unordered_set : set<K> {};
template <class T, class... A> unique_ptr<T> make_unique(A &&...);
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
template <class... A> __rocport_any sort(A &&...);
template <class... A> __rocport_any fill(A &&...);
template <class... A> __rocport_any copy(A &&...);
/* The sum has the initial value's type: `std::accumulate(v.begin(), v.end(), 0) != 0` compares an int. */
template <class I, class T, class... A> T accumulate(I, I, T, A &&...);
template <class... A> __rocport_any max_element(A &&...);
template <class... A> __rocport_any min_element(A &&...);
template <class... A> __rocport_any find(A &&...);
/* More of <cstdint>, <type_traits>, <functional>, <algorithm>, <numeric>, <variant>, <optional>, <mutex>: what
 * host code and libcu++'s `cuda::std` (the same names) call beyond the above. */
using ::int8_t;
using ::uint8_t;
using ::int16_t;
using ::uint16_t;
template <bool B> using bool_constant = integral_constant<bool, B>;
template <class T> struct add_const { typedef const T type; };
template <class T> using add_const_t = const T;
template <class T> struct add_pointer { typedef remove_reference_t<T> *type; };
template <class T> using add_pointer_t = typename add_pointer<T>::type;
template <class T> struct add_lvalue_reference { typedef T &type; };
template <class T> using add_lvalue_reference_t = T &;
template <class T> struct remove_const { typedef T type; };
template <class T> struct remove_const<const T> { typedef T type; };
template <class T> using remove_const_t = typename remove_const<T>::type;
template <class T> struct remove_pointer { typedef T type; };
template <class T> struct remove_pointer<T *> { typedef T type; };
template <class T> using remove_pointer_t = typename remove_pointer<T>::type;
template <class T> struct make_unsigned { typedef __make_unsigned(T) type; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;
template <class T> struct make_signed { typedef __make_signed(T) type; };
template <class T> using make_signed_t = typename make_signed<T>::type;
template <class... T> struct common_type { typedef decltype((declval<T>() + ...)) type; };
template <class... T> using common_type_t = typename common_type<T...>::type;
template <class... B> struct conjunction : bool_constant<(B::value && ...)> {};
template <class... B> struct disjunction : bool_constant<(B::value || ...)> {};
template <class B> struct negation : bool_constant<!B::value> {};
template <class... B> inline constexpr bool conjunction_v = (B::value && ...);
template <class... B> inline constexpr bool disjunction_v = (B::value || ...);
template <class T, class... A> struct is_constructible : integral_constant<bool, __is_constructible(T, A...)> {};
template <class T, class... A> inline constexpr bool is_constructible_v = __is_constructible(T, A...);
template <class T> struct is_default_constructible : is_constructible<T> {};
template <class T> inline constexpr bool is_default_constructible_v = __is_constructible(T);
template <class T> struct is_copy_constructible : is_constructible<T, const T &> {};
template <class T> inline constexpr bool is_copy_constructible_v = __is_constructible(T, const T &);
template <class T> struct is_move_constructible : is_constructible<T, T &&> {};
template <class T> inline constexpr bool is_move_constructible_v = __is_constructible(T, T &&);
template <class T> inline constexpr bool is_standard_layout_v = __is_standard_layout(T);
template <class T> inline constexpr bool is_trivially_copyable_v = __is_trivially_copyable(T);
template <class T> struct alignment_of : integral_constant<size_t, alignof(T)> {};
template <class T> inline constexpr size_t alignment_of_v = alignof(T);
template <class F, class... A> struct invoke_result { typedef decltype(declval<F>()(declval<A>()...)) type; };
template <class F, class... A> using invoke_result_t = typename invoke_result<F, A...>::type;
template <class S> struct result_of;
template <class F, class... A> struct result_of<F(A...)> : invoke_result<F, A...> {};
template <class S> using result_of_t = typename result_of<S>::type;
template <class F, class... A> struct is_invocable : true_type {};
template <class F, class... A> inline constexpr bool is_invocable_v = true;
template <class R, class F, class... A> inline constexpr bool is_invocable_r_v = true;
template <class F, class... A> __rocport_any invoke(F &&, A &&...);
#define ROCPORT_STD_FUNCTOR(name, result)                                                                          \
  template <class T = void> struct name {                                                                        \
    template <class... A> __host__ __device__ constexpr result operator()(const A &...) const;                   \
  };
ROCPORT_STD_FUNCTOR(plus, __rocport_any)
ROCPORT_STD_FUNCTOR(minus, __rocport_any)
ROCPORT_STD_FUNCTOR(multiplies, __rocport_any)
ROCPORT_STD_FUNCTOR(divides, __rocport_any)
ROCPORT_STD_FUNCTOR(modulus, __rocport_any)
ROCPORT_STD_FUNCTOR(negate, __rocport_any)
ROCPORT_STD_FUNCTOR(bit_and, __rocport_any)
ROCPORT_STD_FUNCTOR(bit_or, __rocport_any)
ROCPORT_STD_FUNCTOR(bit_xor, __rocport_any)
ROCPORT_STD_FUNCTOR(equal_to, bool)
ROCPORT_STD_FUNCTOR(not_equal_to, bool)
ROCPORT_STD_FUNCTOR(less, bool)
ROCPORT_STD_FUNCTOR(less_equal, bool)
ROCPORT_STD_FUNCTOR(greater, bool)
ROCPORT_STD_FUNCTOR(greater_equal, bool)
ROCPORT_STD_FUNCTOR(logical_and, bool)
ROCPORT_STD_FUNCTOR(logical_or, bool)
ROCPORT_STD_FUNCTOR(logical_not, bool)
#undef ROCPORT_STD_FUNCTOR
struct identity { template <class T> __host__ __device__ constexpr T &&operator()(T &&) const; };
template <class T> struct hash { size_t operator()(const T &) const; };
template <class T> struct reference_wrapper { reference_wrapper(T &); T &get() const; operator T &() const; };
template <class T> reference_wrapper<T> ref(T &);
template <class T> reference_wrapper<const T> cref(const T &);
template <class T, class U = T> __host__ __device__ T exchange(T &, U &&);
template <class T> __host__ __device__ constexpr const T &clamp(const T &, const T &, const T &);
template <class I, class... A> __host__ __device__ I next(I, A...);
template <class I, class... A> __host__ __device__ I prev(I, A...);
template <class I, class D> __host__ __device__ void advance(I &, D);
template <class I> __host__ __device__ ptrdiff_t distance(I, I);
template <class C> auto begin(C &c) -> decltype(c.begin());
template <class C> auto end(C &c) -> decltype(c.end());
template <class C> auto cbegin(const C &c) -> decltype(c.begin());
template <class C> auto cend(const C &c) -> decltype(c.end());
template <class T, size_t N> T *begin(T (&)[N]);
template <class T, size_t N> T *end(T (&)[N]);
template <class C> auto size(const C &c) -> decltype(c.size());
template <class C> auto data(C &c) -> decltype(c.data());
#define ROCPORT_STD_ALGORITHM(name) template <class... A> __rocport_any name(A &&...);
ROCPORT_STD_ALGORITHM(is_sorted)
ROCPORT_STD_ALGORITHM(stable_sort)
ROCPORT_STD_ALGORITHM(partial_sort)
ROCPORT_STD_ALGORITHM(nth_element)
ROCPORT_STD_ALGORITHM(partial_sum)
ROCPORT_STD_ALGORITHM(inclusive_scan)
ROCPORT_STD_ALGORITHM(exclusive_scan)
ROCPORT_STD_ALGORITHM(adjacent_difference)
ROCPORT_STD_ALGORITHM(reduce)
ROCPORT_STD_ALGORITHM(inner_product)
ROCPORT_STD_ALGORITHM(transform_reduce)
ROCPORT_STD_ALGORITHM(any_of)
ROCPORT_STD_ALGORITHM(all_of)
ROCPORT_STD_ALGORITHM(none_of)
ROCPORT_STD_ALGORITHM(find_if)
ROCPORT_STD_ALGORITHM(find_if_not)
ROCPORT_STD_ALGORITHM(count_if)
ROCPORT_STD_ALGORITHM(copy_if)
ROCPORT_STD_ALGORITHM(copy_n)
ROCPORT_STD_ALGORITHM(fill_n)
ROCPORT_STD_ALGORITHM(generate)
ROCPORT_STD_ALGORITHM(shuffle)
ROCPORT_STD_ALGORITHM(binary_search)
ROCPORT_STD_ALGORITHM(equal)
ROCPORT_STD_ALGORITHM(equal_range)
ROCPORT_STD_ALGORITHM(remove)
ROCPORT_STD_ALGORITHM(remove_if)
ROCPORT_STD_ALGORITHM(unique)
ROCPORT_STD_ALGORITHM(for_each)
ROCPORT_STD_ALGORITHM(minmax_element)
ROCPORT_STD_ALGORITHM(set_union)
ROCPORT_STD_ALGORITHM(set_intersection)
ROCPORT_STD_ALGORITHM(set_difference)
ROCPORT_STD_ALGORITHM(mismatch)
ROCPORT_STD_ALGORITHM(rotate)
ROCPORT_STD_ALGORITHM(back_inserter)
ROCPORT_STD_ALGORITHM(make_move_iterator)
#undef ROCPORT_STD_ALGORITHM
struct nullopt_t { constexpr explicit nullopt_t(int) {} };
inline constexpr nullopt_t nullopt{0};
template <class T> struct optional {
  optional();
  optional(nullopt_t);
  template <class U> optional(U &&);
  bool has_value() const;
  explicit operator bool() const;
  T &value();
  const T &value() const;
  template <class U> T value_or(U &&) const;
  T &operator*();
  const T &operator*() const;
  T *operator->();
  const T *operator->() const;
  void reset();
  template <class... A> T &emplace(A &&...);
};
template <class T> optional<decay_t<T>> make_optional(T &&);
struct monostate {};
template <class... T> struct variant {
  variant();
  template <class U> variant(U &&);
  template <class U> variant &operator=(U &&);
  size_t index() const;
  bool valueless_by_exception() const;
  template <class U, class... A> U &emplace(A &&...);
};
template <class... T> struct tuple_size<variant<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <class T> struct variant_size;
template <class... T> struct variant_size<variant<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <class T> inline constexpr size_t variant_size_v = variant_size<T>::value;
template <class T, class... V> __host__ __device__ bool holds_alternative(const variant<V...> &);
template <class T, class... V> __host__ __device__ T &get(variant<V...> &);
template <class T, class... V> __host__ __device__ const T &get(const variant<V...> &);
template <size_t I, class... V> __host__ __device__ __rocport_any get(variant<V...> &);
template <size_t I, class... V> __host__ __device__ __rocport_any get(const variant<V...> &);
template <class T, class... V> __host__ __device__ T *get_if(variant<V...> *);
template <class T, class... V> __host__ __device__ const T *get_if(const variant<V...> *);
template <class F, class... V> __host__ __device__ __rocport_any visit(F &&, V &&...);
using ::sscanf;
using ::snprintf;
using ::sprintf;
using ::printf;
using ::fprintf;
using ::fopen;
using ::fclose;
using ::fread;
using ::fwrite;
using ::fflush;
using ::strlen;
using ::strcmp;
using ::strncmp;
using ::strcpy;
using ::strncpy;
using ::memcmp;
using ::memmove;
using ::malloc;
using ::free;
using ::calloc;
using ::realloc;
using ::exit;
using ::abort;
using ::getenv;
using ::atoi;
using ::atof;
using ::strtol;
using ::strtoul;
using ::strtod;
using ::strtof;
using ::strtoll;
using ::strtoull;
using ::FILE;
/* <chrono> as host code times its kernels: clocks, durations, casts, counts. */
namespace chrono {
template <class R = long long, class P = void> struct duration {
  duration();
  template <class T> duration(const T &);
  R count() const;
  template <class T> duration operator+(const T &) const;
  template <class T> duration operator-(const T &) const;
  template <class T> bool operator<(const T &) const;
  template <class T> bool operator>(const T &) const;
  template <class T> duration &operator+=(const T &);
  static duration zero();
};
typedef duration<long long> nanoseconds, microseconds, milliseconds, seconds, minutes, hours;
template <class C, class D = duration<>> struct time_point {
  D time_since_epoch() const;
  D operator-(const time_point &) const;
  template <class T> time_point operator+(const T &) const;
  template <class T> bool operator<(const T &) const;
};
#define ROCPORT_STD_CLOCK(name) \
  struct name { typedef duration<> duration; typedef time_point<name> time_point; static time_point now(); };
ROCPORT_STD_CLOCK(steady_clock)
ROCPORT_STD_CLOCK(system_clock)
ROCPORT_STD_CLOCK(high_resolution_clock)
#undef ROCPORT_STD_CLOCK
template <class D, class T> D duration_cast(const T &);
}  // namespace chrono
/* <random>: engines and distributions, called `dist(engine)`. */
#define ROCPORT_STD_ENGINE(name) \
  struct name { typedef unsigned long result_type; __host__ __device__ name(); \
    template <class S> __host__ __device__ explicit name(S); template <class S> __host__ __device__ void seed(S); \
    __host__ __device__ result_type operator()(); static constexpr result_type min() { return 0; } \
    static constexpr result_type max() { return ~0ul; } __host__ __device__ void discard(unsigned long long); };
ROCPORT_STD_ENGINE(mt19937)
ROCPORT_STD_ENGINE(mt19937_64)
ROCPORT_STD_ENGINE(minstd_rand)
ROCPORT_STD_ENGINE(default_random_engine)
ROCPORT_STD_ENGINE(random_device)
#undef ROCPORT_STD_ENGINE
#define ROCPORT_STD_DISTRIBUTION(name, value) \
  template <class T = value> struct name { typedef T result_type; __host__ __device__ name(); \
    template <class... A> __host__ __device__ name(A...); template <class G> __host__ __device__ T operator()(G &); \
    void reset(); };
ROCPORT_STD_DISTRIBUTION(uniform_int_distribution, int)
ROCPORT_STD_DISTRIBUTION(uniform_real_distribution, double)
ROCPORT_STD_DISTRIBUTION(normal_distribution, double)
ROCPORT_STD_DISTRIBUTION(exponential_distribution, double)
ROCPORT_STD_DISTRIBUTION(poisson_distribution, int)
ROCPORT_STD_DISTRIBUTION(discrete_distribution, int)
#undef ROCPORT_STD_DISTRIBUTION
struct bernoulli_distribution { bernoulli_distribution(); template <class... A> bernoulli_distribution(A...);
  template <class G> bool operator()(G &); };
struct mutex { void lock(); void unlock(); bool try_lock(); };
struct recursive_mutex : mutex {};
struct shared_mutex : mutex { void lock_shared(); void unlock_shared(); };
template <class M> struct lock_guard { explicit lock_guard(M &); };
template <class... M> struct scoped_lock { explicit scoped_lock(M &...); };
template <class M> struct unique_lock { unique_lock(); explicit unique_lock(M &); template <class T> unique_lock(M &, T);
  void lock(); void unlock(); bool owns_lock() const; };
template <class M> struct shared_lock { explicit shared_lock(M &); };
struct condition_variable { void notify_one(); void notify_all(); template <class... A> void wait(A &&...);
  template <class... A> __rocport_any wait_for(A &&...); };
struct once_flag {};
template <class F, class... A> void call_once(once_flag &, F &&, A &&...);
template <class T, class... R> struct deque : vector<T> { void push_front(const T &); void pop_front();
  template <class... A> void emplace_front(A &&...); };
template <class T, class... R> struct list : vector<T> { void push_front(const T &); void pop_front(); };
template <class T, class... R> struct queue { void push(const T &); template <class... A> void emplace(A &&...);
  void pop(); T &front(); T &back(); bool empty() const; size_t size() const; };
template <class T, class... R> struct priority_queue { void push(const T &); template <class... A> void emplace(A &&...);
  void pop(); const T &top() const; bool empty() const; size_t size() const; };
template <class T, class... R> struct stack { void push(const T &); template <class... A> void emplace(A &&...);
  void pop(); T &top(); bool empty() const; size_t size() const; };
}

/* Launch configuration, as clang expects it for <<<...>>>. */
struct dim3;
typedef struct CUstream_st *cudaStream_t;
extern "C" int __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize, size_t sharedMem = 0,
                                           cudaStream_t stream = 0);

struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1) : x(x), y(y), z(z) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
extern __device__ const int warpSize;

/* Half and bfloat16 types (cuda_fp16.h, cuda_bf16.h). */
struct __half { unsigned short x; __host__ __device__ __half(); __host__ __device__ __half(float); __host__ __device__ operator float() const; };
struct __half2 { __half x, y; };
struct __nv_bfloat16 { unsigned short x; __host__ __device__ __nv_bfloat16(); __host__ __device__ __nv_bfloat16(float); __host__ __device__ operator float() const; };
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
/* cuda_fp8.h's storage types: classes, so that `__nv_fp8_e4m3 *p` declares a pointer (HIPIFY's table knows only the
 * names, which would otherwise become functions). */
#define __ROCPORT_FP8(name, bytes)                                                                                     \
  struct name {                                                                                                        \
    unsigned char __x[bytes];                                                                                          \
    __host__ __device__ name();                                                                                        \
    __host__ __device__ explicit name(float);                                                                          \
    __host__ __device__ explicit name(double);                                                                         \
    __host__ __device__ explicit name(__half);                                                                         \
    __host__ __device__ explicit name(__nv_bfloat16);                                                                  \
    __host__ __device__ explicit operator float() const;                                                               \
  };
__ROCPORT_FP8(__nv_fp8_e4m3, 1)
__ROCPORT_FP8(__nv_fp8_e5m2, 1)
__ROCPORT_FP8(__nv_fp8_e8m0, 1)
__ROCPORT_FP8(__nv_fp8x2_e4m3, 2)
__ROCPORT_FP8(__nv_fp8x2_e5m2, 2)
__ROCPORT_FP8(__nv_fp8x4_e4m3, 4)
__ROCPORT_FP8(__nv_fp8x4_e5m2, 4)
#undef __ROCPORT_FP8
typedef __half half;
typedef __half2 half2;
typedef __half nv_half;
typedef __half2 nv_half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
__host__ __device__ __half __float2half(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);

/* Synchronisation, warp intrinsics, bit manipulation. The *_sync forms take a 32-bit mask in CUDA. */
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
template <class T> __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);
template <class T> __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
template <class T> __device__ T __shfl(T var, int srcLane, int width = 32);
template <class T> __device__ T __shfl_up(T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_down(T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_xor(T var, int laneMask, int width = 32);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot(int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ int __any(int predicate);
__device__ int __all(int predicate);
__device__ unsigned int __activemask();
template <class T> __device__ unsigned int __match_any_sync(unsigned int mask, T value);
template <class T> __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __lanemask_lt();
__device__ unsigned int __lanemask_le();
__device__ unsigned int __lanemask_gt();
__device__ unsigned int __lanemask_ge();
__device__ unsigned int __lanemask_eq();
__host__ __device__ int __popc(unsigned int);
__host__ __device__ int __popcll(unsigned long long);
__host__ __device__ int __ffs(int);
__host__ __device__ int __ffsll(long long);
__host__ __device__ int __clz(int);
__host__ __device__ int __clzll(long long);
__host__ __device__ unsigned int __brev(unsigned int);
__host__ __device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ long long clock64();
__device__ long clock();
__device__ void __nanosleep(unsigned int);
template <class T> __device__ T __ldg(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stcs(T *, T);
__device__ void __trap();
__device__ void __brkpt();

/* Atomics. */
#define ROCPORT_ATOMIC(name)                                                                                  \
  __device__ int name(int *, int);                                                                          \
  __device__ unsigned int name(unsigned int *, unsigned int);                                               \
  __device__ unsigned long long name(unsigned long long *, unsigned long long);                             \
  __device__ float name(float *, float);                                                                    \
  __device__ double name(double *, double);                                                                 \
  __device__ __half2 name(__half2 *, __half2);                                                              \
  __device__ __half name(__half *, __half);
ROCPORT_ATOMIC(atomicAdd)
ROCPORT_ATOMIC(atomicSub)
ROCPORT_ATOMIC(atomicExch)
ROCPORT_ATOMIC(atomicMin)
ROCPORT_ATOMIC(atomicMax)
ROCPORT_ATOMIC(atomicAnd)
ROCPORT_ATOMIC(atomicOr)
ROCPORT_ATOMIC(atomicXor)
ROCPORT_ATOMIC(atomicAdd_block)
ROCPORT_ATOMIC(atomicAdd_system)
#undef ROCPORT_ATOMIC
__device__ unsigned int atomicInc(unsigned int *, unsigned int);
__device__ unsigned int atomicDec(unsigned int *, unsigned int);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned int atomicCAS(unsigned int *, unsigned int, unsigned int);
__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
__device__ unsigned short atomicCAS(unsigned short *, unsigned short, unsigned short);

/* Pointer attributes: rules compare the real enumerator values (ROC159). */
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
                      cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes { enum cudaMemoryType type; int device; void *devicePointer; void *hostPointer; };

/* Device runtime (dynamic parallelism): callable from device code in CUDA. */
__host__ __device__ int cudaDeviceSynchronize(void);
__host__ __device__ void *cudaGetParameterBuffer(size_t, size_t);
__host__ __device__ int cudaLaunchDevice(void *, void *, dim3, dim3, unsigned int, cudaStream_t);

/* Textures and surfaces: the template references CUDA 12 removed, and the object API. */
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType> struct texture {
  int normalized, filterMode, addressMode[3];
};
template <class T, int dim = 1> struct surface {};
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
template <class T, class Tex> __device__ T tex1Dfetch(Tex, int);
template <class T, class Tex> __device__ T tex1D(Tex, float);
template <class T, class Tex> __device__ T tex2D(Tex, float, float);
template <class T, class Tex> __device__ T tex3D(Tex, float, float, float);
template <class T, class Tex> __device__ T tex2DLayered(Tex, float, float, int);
template <class T, class Surf> __device__ T surf2Dread(Surf, int, int);
template <class T, class Surf> __device__ void surf2Dwrite(T, Surf, int, int);

/* Cooperative groups (cooperative_groups.h), enough for calls to resolve. */
namespace cooperative_groups {
struct thread_group {
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
};
struct thread_block : thread_group {
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
struct grid_group : thread_group {
  __device__ bool is_valid() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
};
struct cluster_group : thread_group {
  __device__ unsigned int block_rank() const;
  __device__ unsigned int num_blocks() const;
};
struct coalesced_group : thread_group {
  template <class T> __device__ T shfl(T, int) const;
  __device__ unsigned int meta_group_rank() const;
};
template <unsigned int N, class P = void> struct thread_block_tile : thread_group {
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_down(T, unsigned int) const;
  template <class T> __device__ T shfl_up(T, unsigned int) const;
  template <class T> __device__ T shfl_xor(T, unsigned int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned int ballot(int) const;
  template <class T> __device__ unsigned int match_any(T) const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ cluster_group this_cluster();
__device__ coalesced_group coalesced_threads();
template <unsigned int N, class P> __device__ thread_block_tile<N, P> tiled_partition(const P &);
template <class P> __device__ thread_group tiled_partition(const P &, unsigned int);
template <class G> __device__ coalesced_group labeled_partition(const G &, int);
template <class G> __device__ coalesced_group binary_partition(const G &, bool);
template <class G> __device__ void sync(const G &);
template <class G, class T, class Op> __device__ T reduce(const G &, T, Op);
template <class G, class T, class Op> __device__ T inclusive_scan(const G &, T, Op);
template <class G, class T, class Op> __device__ T exclusive_scan(const G &, T, Op);
template <class G, class... A> __device__ void memcpy_async(const G &, A...);
template <class G> __device__ void wait(const G &);
template <unsigned int N, class G> __device__ void wait_prior(const G &);
template <class G, class F> __device__ void invoke_one(const G &, F);
template <class T> struct plus { __device__ T operator()(T, T) const; };
template <class T> struct less { __device__ T operator()(T, T) const; };
template <class T> struct greater { __device__ T operator()(T, T) const; };
}

/* Tensor cores (mma.h). */
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int m, int n, int k, class T, class Layout = void> struct fragment {
  T x[8];
  enum { num_elements = 8 };
};
template <class F, class T> __device__ void fill_fragment(F &, const T &);
template <class F, class T> __device__ void load_matrix_sync(F &, const T *, unsigned, ...);
template <class T, class F> __device__ void store_matrix_sync(T *, const F &, unsigned, layout_t);
template <class D, class A, class B, class C> __device__ void mma_sync(D &, const A &, const B &, const C &);
}
}

/* The device properties real code reads. */
struct cudaDeviceProp {
  char name[256]; char uuid[16]; size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin,
  sharedMemPerMultiprocessor, totalConstMem, memPitch, textureAlignment, l2CacheSize, persistingL2CacheMaxSize;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate, major, minor,
  multiProcessorCount, maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor, regsPerMultiprocessor,
  memoryClockRate, memoryBusWidth, computeMode, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID,
  pciDomainID, asyncEngineCount, unifiedAddressing, managedMemory, concurrentManagedAccess, isMultiGpuBoard,
  canMapHostMemory, integrated, kernelExecTimeoutEnabled, cooperativeLaunch, deviceOverlap,
  pageableMemoryAccess, accessPolicyMaxWindowSize, streamPrioritiesSupported, globalL1CacheSupported,
  localL1CacheSupported, computePreemptionSupported, hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio;
};

/* cudaLaunchKernelEx's configuration: kernels launched with attributes (PDL, clusters) fill these fields. */
typedef int cudaLaunchAttributeID;
union cudaLaunchAttributeValue {
  char pad[64]; int programmaticStreamSerializationAllowed; int cooperative; int priority; unsigned memSyncDomain;
  struct { unsigned x, y, z; } clusterDim;
  struct { void *event; int flags; int triggerAtBlockStart; } programmaticEvent;
  struct { void *base_ptr; size_t num_bytes; float hitRatio; int hitProp, missProp; } accessPolicyWindow;
};
struct cudaLaunchAttribute { cudaLaunchAttributeID id; cudaLaunchAttributeValue val; };
struct cudaLaunchConfig_t {
  dim3 gridDim; dim3 blockDim; size_t dynamicSmemBytes; cudaStream_t stream; cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
};
/* The C++ template overload of cuda_runtime.h (HIPIFY's table lists only the C entry point, cudaLaunchKernelExC). */
template <class K, class... A> int cudaLaunchKernelEx(const cudaLaunchConfig_t *, K, A &&...);

/* CUB (cub/cub.cuh) and Thrust, enough for the code around their calls to parse: collective classes with
 * TempStorage and their member algorithms, device-wide algorithms, functors and the load/store/reduce enums. */
#define ROCPORT_CUB_COLLECTIVE(name)                                                                           \
  template <class T, auto... P> struct name { /* a type, then sizes and algorithms (most uses) */           \
    struct TempStorage { char __rocport_bytes[1]; };                                                           \
    __device__ name();                                                                                         \
    template <class... A> __device__ name(A &&...);                                                            \
    template <class... A> __device__ __rocport_any Sum(A &&...);                                               \
    template <class... A> __device__ __rocport_any Reduce(A &&...);                                            \
    template <class... A> __device__ void InclusiveSum(A &&...);                                               \
    template <class... A> __device__ void ExclusiveSum(A &&...);                                               \
    template <class... A> __device__ void InclusiveScan(A &&...);                                              \
    template <class... A> __device__ void ExclusiveScan(A &&...);                                              \
    template <class... A> __device__ void Load(A &&...);                                                       \
    template <class... A> __device__ void Store(A &&...);                                                      \
    template <class... A> __device__ void Sort(A &&...);                                                       \
    template <class... A> __device__ void SortDescending(A &&...);                                             \
    template <class... A> __device__ void SortBlockedToStriped(A &&...);                                       \
    template <class... A> __device__ void SortDescendingBlockedToStriped(A &&...);                             \
    template <class... A> __device__ void FlagHeads(A &&...);                                                  \
    template <class... A> __device__ void FlagTails(A &&...);                                                  \
    template <class... A> __device__ void BlockedToStriped(A &&...);                                           \
    template <class... A> __device__ void StripedToBlocked(A &&...);                                           \
    template <class... A> __device__ __rocport_any HeadSegmentedSum(A &&...);                                  \
  };
#define ROCPORT_CUB_DEVICE(name)                                                                               \
  struct name {                                                                                                \
    template <class... A> static __host__ int Sum(A &&...);                                                    \
    template <class... A> static __host__ int Max(A &&...);                                                    \
    template <class... A> static __host__ int Min(A &&...);                                                    \
    template <class... A> static __host__ int ArgMax(A &&...);                                                 \
    template <class... A> static __host__ int ArgMin(A &&...);                                                 \
    template <class... A> static __host__ int Reduce(A &&...);                                                 \
    template <class... A> static __host__ int InclusiveSum(A &&...);                                           \
    template <class... A> static __host__ int ExclusiveSum(A &&...);                                           \
    template <class... A> static __host__ int InclusiveScan(A &&...);                                          \
    template <class... A> static __host__ int ExclusiveScan(A &&...);                                          \
    template <class... A> static __host__ int SortKeys(A &&...);                                               \
    template <class... A> static __host__ int SortPairs(A &&...);                                              \
    template <class... A> static __host__ int SortKeysDescending(A &&...);                                     \
    template <class... A> static __host__ int SortPairsDescending(A &&...);                                    \
    template <class... A> static __host__ int Flagged(A &&...);                                                \
    template <class... A> static __host__ int If(A &&...);                                                     \
    template <class... A> static __host__ int Encode(A &&...);                                                 \
    template <class... A> static __host__ int Histogram(A &&...);                                              \
  };
/* The model lives beside `cub`, which only nominates it: a project's own copy of CUB (vendored for old toolkits)
 * declares the real `cub::BlockReduce` without a redefinition error, and qualified lookup of `cub::X` finds a
 * declaration of `cub` itself before it looks at the model. */
namespace __rocport_cub {
ROCPORT_CUB_COLLECTIVE(BlockReduce)
ROCPORT_CUB_COLLECTIVE(BlockScan)
ROCPORT_CUB_COLLECTIVE(BlockLoad)
ROCPORT_CUB_COLLECTIVE(BlockStore)
ROCPORT_CUB_COLLECTIVE(BlockRadixSort)
ROCPORT_CUB_COLLECTIVE(BlockDiscontinuity)
ROCPORT_CUB_COLLECTIVE(BlockExchange)
ROCPORT_CUB_COLLECTIVE(BlockHistogram)
ROCPORT_CUB_COLLECTIVE(BlockMergeSort)
ROCPORT_CUB_COLLECTIVE(WarpReduce)
ROCPORT_CUB_COLLECTIVE(WarpScan)
ROCPORT_CUB_COLLECTIVE(WarpLoad)
ROCPORT_CUB_COLLECTIVE(WarpStore)
ROCPORT_CUB_COLLECTIVE(WarpExchange)
ROCPORT_CUB_COLLECTIVE(WarpMergeSort)
ROCPORT_CUB_DEVICE(DeviceReduce)
ROCPORT_CUB_DEVICE(DeviceScan)
ROCPORT_CUB_DEVICE(DeviceRadixSort)
ROCPORT_CUB_DEVICE(DeviceSegmentedReduce)
ROCPORT_CUB_DEVICE(DeviceSegmentedRadixSort)
ROCPORT_CUB_DEVICE(DeviceSelect)
ROCPORT_CUB_DEVICE(DevicePartition)
ROCPORT_CUB_DEVICE(DeviceRunLengthEncode)
ROCPORT_CUB_DEVICE(DeviceHistogram)
ROCPORT_CUB_DEVICE(DeviceMergeSort)
struct Sum { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct ArgMax { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
struct ArgMin { template <class T> __host__ __device__ T operator()(const T &, const T &) const; };
template <class K, class V, class O = int> struct KeyValuePair { K key; V value; };
template <class... A> struct CacheModifiedInputIterator { template <class... B> __host__ __device__ CacheModifiedInputIterator(B &&...); };
template <class... A> struct CountingInputIterator { template <class... B> __host__ __device__ CountingInputIterator(B &&...); };
template <class... A> struct TransformInputIterator { template <class... B> __host__ __device__ TransformInputIterator(B &&...); };
template <class... A> __device__ __rocport_any ShuffleIndex(A &&...);
template <class... A> __device__ __rocport_any ShuffleDown(A &&...);
template <class... A> __device__ __rocport_any ShuffleUp(A &&...);
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
template <class... A> __device__ void LoadDirectBlocked(A &&...);
template <class... A> __device__ void StoreDirectBlocked(A &&...);
template <class... A> __device__ void LoadDirectStriped(A &&...);
template <class... A> __device__ void StoreDirectStriped(A &&...);
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
}  // namespace __rocport_cub
namespace cub {
using namespace __rocport_cub;
// Projects specialize this one for their own types (`template <> struct cub::Traits<__half>`), which only a template
// of `cub` itself allows; a vendored CUB's util_type.cuh then redefines it (one error, in that header).
template <class T> struct Traits { typedef T UnsignedBits; };
}  // namespace cub

namespace thrust {
template <class T> struct device_ptr {
  __host__ __device__ device_ptr(); __host__ __device__ device_ptr(T *);
  __host__ __device__ T *get() const; __host__ __device__ T &operator*() const; __host__ __device__ T &operator[](long) const;
};
#define ROCPORT_THRUST_VECTOR(name)                                                                            \
  template <class T, class A = void> struct name {                                                             \
    typedef T value_type; typedef T *iterator;                                                                 \
    name(); template <class... B> name(B &&...);                                                               \
    T *data(); const T *data() const; size_t size() const; bool empty() const;                                 \
    T *begin(); T *end(); const T *begin() const; const T *end() const;                                        \
    const T *cbegin() const; const T *cend() const;                                                            \
    T &operator[](size_t); const T &operator[](size_t) const;                                                  \
    template <class... B> void resize(B &&...); void clear(); void push_back(const T &);                       \
  };
ROCPORT_THRUST_VECTOR(device_vector)
ROCPORT_THRUST_VECTOR(host_vector)
ROCPORT_THRUST_VECTOR(universal_vector)
template <class T1, class T2> struct pair {
  typedef T1 first_type; typedef T2 second_type; T1 first; T2 second;
  __host__ __device__ pair(); template <class A, class B> __host__ __device__ pair(A &&, B &&);
};
template <class A, class B> __host__ __device__ pair<A, B> make_pair(A, B);
template <class... T> struct tuple { __host__ __device__ tuple(); template <class... B> __host__ __device__ tuple(B &&...); };
template <class T> __host__ __device__ T *raw_pointer_cast(T *);
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *);
template <class T = void> struct plus { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct minus { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct multiplies { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct maximum { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct minimum { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct less { template <class A, class B> __host__ __device__ bool operator()(const A &, const B &) const; };
template <class T = void> struct greater { template <class A, class B> __host__ __device__ bool operator()(const A &, const B &) const; };
template <class T = void> struct identity { template <class A> __host__ __device__ A operator()(const A &) const; };
#define ROCPORT_THRUST_PREDICATE(name)                                                                                 \
  template <class T = void> struct name { template <class A, class B> __host__ __device__ bool operator()(const A &, const B &) const; };
ROCPORT_THRUST_PREDICATE(equal_to)
ROCPORT_THRUST_PREDICATE(not_equal_to)
ROCPORT_THRUST_PREDICATE(less_equal)
ROCPORT_THRUST_PREDICATE(greater_equal)
ROCPORT_THRUST_PREDICATE(logical_and)
ROCPORT_THRUST_PREDICATE(logical_or)
#undef ROCPORT_THRUST_PREDICATE
template <class T = void> struct divides { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct modulus { template <class A, class B> __host__ __device__ A operator()(const A &, const B &) const; };
template <class T = void> struct negate { template <class A> __host__ __device__ A operator()(const A &) const; };
template <class T = void> struct logical_not { template <class A> __host__ __device__ bool operator()(const A &) const; };
/* thrust::get<0>(pair_or_tuple), and the references a device_vector's element access gives. */
template <int N, class T> __host__ __device__ __rocport_any get(T &&);
template <class T> __host__ __device__ T &raw_reference_cast(T &);
template <class T> __host__ __device__ const T &raw_reference_cast(const T &);
template <class... A> __host__ __device__ __rocport_any distance(A &&...);
template <class... A> struct discard_iterator { template <class... B> __host__ __device__ discard_iterator(B &&...); };
template <class... A> struct transform_iterator { template <class... B> __host__ __device__ transform_iterator(B &&...); };
template <class... A> struct zip_iterator { template <class... B> __host__ __device__ zip_iterator(B &&...); };
template <class... A> struct permutation_iterator { template <class... B> __host__ __device__ permutation_iterator(B &&...); };
template <class... A> __host__ __device__ __rocport_any make_constant_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_discard_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_tabulate_output_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_transform_output_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_permutation_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_reverse_iterator(A &&...);
template <class... A> struct counting_iterator { template <class... B> __host__ __device__ counting_iterator(B &&...); };
template <class... A> struct constant_iterator { template <class... B> __host__ __device__ constant_iterator(B &&...); };
template <class... A> __host__ __device__ __rocport_any make_counting_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_transform_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_zip_iterator(A &&...);
template <class... A> __host__ __device__ __rocport_any make_tuple(A &&...);
template <class... A> __host__ __device__ __rocport_any sort(A &&...);
template <class... A> __host__ __device__ __rocport_any sort_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any stable_sort(A &&...);
template <class... A> __host__ __device__ __rocport_any reduce(A &&...);
template <class... A> __host__ __device__ __rocport_any reduce_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any transform(A &&...);
template <class... A> __host__ __device__ __rocport_any transform_reduce(A &&...);
template <class... A> __host__ __device__ __rocport_any inclusive_scan(A &&...);
template <class... A> __host__ __device__ __rocport_any exclusive_scan(A &&...);
template <class... A> __host__ __device__ __rocport_any fill(A &&...);
template <class... A> __host__ __device__ __rocport_any copy(A &&...);
template <class... A> __host__ __device__ __rocport_any copy_if(A &&...);
template <class... A> __host__ __device__ __rocport_any sequence(A &&...);
template <class... A> __host__ __device__ __rocport_any count(A &&...);
template <class... A> __host__ __device__ __rocport_any count_if(A &&...);
template <class... A> __host__ __device__ __rocport_any for_each(A &&...);
template <class... A> __host__ __device__ __rocport_any unique(A &&...);
template <class... A> __host__ __device__ __rocport_any gather(A &&...);
template <class... A> __host__ __device__ __rocport_any scatter(A &&...);
template <class... A> __host__ __device__ __rocport_any max_element(A &&...);
template <class... A> __host__ __device__ __rocport_any minmax_element(A &&...);
template <class... A> __host__ __device__ __rocport_any tabulate(A &&...);
template <class... A> __host__ __device__ __rocport_any generate(A &&...);
template <class... A> __host__ __device__ __rocport_any shuffle(A &&...);
template <class... A> __host__ __device__ __rocport_any equal(A &&...);
template <class... A> __host__ __device__ __rocport_any all_of(A &&...);
template <class... A> __host__ __device__ __rocport_any any_of(A &&...);
template <class... A> __host__ __device__ __rocport_any none_of(A &&...);
template <class... A> __host__ __device__ __rocport_any find(A &&...);
template <class... A> __host__ __device__ __rocport_any find_if(A &&...);
template <class... A> __host__ __device__ __rocport_any remove_if(A &&...);
template <class... A> __host__ __device__ __rocport_any unique_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any stable_sort_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any lower_bound(A &&...);
template <class... A> __host__ __device__ __rocport_any upper_bound(A &&...);
template <class... A> __host__ __device__ __rocport_any binary_search(A &&...);
template <class... A> __host__ __device__ __rocport_any transform_inclusive_scan(A &&...);
template <class... A> __host__ __device__ __rocport_any inclusive_scan_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any exclusive_scan_by_key(A &&...);
template <class... A> __host__ __device__ __rocport_any adjacent_difference(A &&...);
template <class... A> __host__ __device__ __rocport_any uninitialized_fill(A &&...);
template <class... A> __host__ __device__ __rocport_any min_element(A &&...);
namespace system { namespace cuda { struct par_t { template <class... A> par_t on(A &&...) const; }; extern par_t par, par_nosync; } }
namespace cuda { using system::cuda::par; using system::cuda::par_nosync; }
struct device_execution_policy {}; extern device_execution_policy device;
struct host_execution_policy {}; extern host_execution_policy host;
}  // namespace thrust
