/* ROCport's model of NVIDIA's nvbench (`nvbench/nvbench.cuh`) for a parse without it: a benchmark is a function of
 * `nvbench::state &` (and of a `nvbench::type_list<...>` for a typed one), registered by NVBENCH_BENCH or
 * NVBENCH_BENCH_TYPES, whose axes the builder's calls name; `state.exec` runs a lambda of `nvbench::launch &`. A
 * CUDA library's benchmarks are such files; without the model `NVBENCH_BENCH(f).set_name("x");` is no declaration
 * and the file loses its tree. Not a reimplementation. */
#ifndef ROCPORT_MODEL_NVBENCH_H
#define ROCPORT_MODEL_NVBENCH_H
#pragma clang system_header

namespace __rocport_nvbench {
using ::int8_t;
using ::int16_t;
using ::int32_t;
using ::int64_t;
using ::uint8_t;
using ::uint16_t;
using ::uint32_t;
using ::uint64_t;
typedef float float32_t;
typedef double float64_t;

template <class... T> struct type_list {};
template <auto Value, class T = decltype(Value)> struct enum_type {
  static constexpr T value = Value;
  constexpr operator T() const { return Value; }
};
template <auto... Values> using enum_type_list = type_list<enum_type<Values>...>;
/* What NVBENCH_DECLARE_TYPE_STRINGS specializes. */
template <class T> struct type_strings {
  static std::string input_string();
  static std::string description();
};

/* range(1, 10, 2) holds int64_t values, range(0.1, 1., 0.1) doubles. */
template <class T, class Out = decltype(T() + 0ll)> std::vector<Out> range(T, T, T = T(1));

/* `nvbench::exec_tag::sync | nvbench::exec_tag::timer` */
namespace exec_tag {
struct __rocport_tag {
  constexpr __rocport_tag operator|(__rocport_tag) const { return {}; }
};
constexpr __rocport_tag none{}, timer{}, no_batch{}, sync{}, gpu{}, no_gpu{}, hot{}, impl{};
}  // namespace exec_tag

struct cuda_stream {
  cuda_stream();
  template <class... A> explicit cuda_stream(A &&...);
  cudaStream_t get_stream() const;
  operator cudaStream_t() const;
};
struct launch {
  const cudaStream_t &get_stream() const;
};
/* The `auto &timer` of an exec_tag::timer lambda. */
struct timer {
  void start();
  void stop();
};
struct device_info {
  int get_id() const;
  const char *get_name() const;
};
/* A summary (`state.add_summary("x")`) or any named value of the results. */
struct summary {
  template <class... A> summary &set_string(A &&...);
  template <class... A> summary &set_int64(A &&...);
  template <class... A> summary &set_float64(A &&...);
  template <class... A> summary &set_name(A &&...);
  template <class... A> summary &remove_value(A &&...);
};

struct state {
  int64_t get_int64(const std::string &) const;
  int64_t get_int64_or_default(const std::string &, int64_t) const;
  double get_float64(const std::string &) const;
  double get_float64_or_default(const std::string &, double) const;
  const std::string &get_string(const std::string &) const;
  const std::string &get_string_or_default(const std::string &, const std::string &) const;
  const cuda_stream &get_cuda_stream() const;
  template <class... A> void set_cuda_stream(A &&...);
  const device_info &get_device() const;
  std::size_t get_type_config_index() const;
  template <class... A> void add_element_count(A &&...);
  template <class T = char, class... A> void add_global_memory_reads(A &&...);
  template <class T = char, class... A> void add_global_memory_writes(A &&...);
  template <class... A> void add_buffer_size(A &&...);
  template <class... A> summary &add_summary(A &&...);
  void skip(const std::string &);
  bool is_skipped() const;
  const std::string &get_skip_reason() const;
  template <class... A> void exec(A &&...);
  template <class... A> void set_min_samples(A &&...);
  template <class... A> void set_max_noise(A &&...);
  template <class... A> void set_timeout(A &&...);
  template <class... A> void set_skip_time(A &&...);
  template <class... A> void set_run_once(A &&...);
  template <class... A> void set_disable_blocking_kernel(A &&...);
  template <class... A> void set_blocking_kernel_timeout(A &&...);
  template <class... A> void set_throttle_threshold(A &&...);
  template <class... A> void set_throttle_recovery_delay(A &&...);
  void collect_l1_hit_rates();
  void collect_l2_hit_rates();
  void collect_stores_efficiency();
  void collect_loads_efficiency();
  void collect_dram_throughput();
  void collect_cupti_metrics();
  std::string get_axis_values_as_string() const;
};

/* What NVBENCH_BENCH returns: its builder calls chain. */
struct benchmark_base {
  template <class... A> benchmark_base &set_name(A &&...);
  /* Axes are given as braced lists: `.add_int64_axis("N", {1, 2})`, `.set_type_axes_names({"Key", "Value"})`. */
  benchmark_base &add_int64_axis(std::string, std::vector<int64_t>);
  benchmark_base &add_int64_power_of_two_axis(std::string, std::vector<int64_t>);
  benchmark_base &add_float64_axis(std::string, std::vector<double>);
  benchmark_base &add_string_axis(std::string, std::vector<std::string>);
  template <class... A> benchmark_base &add_axis(A &&...);
  benchmark_base &set_type_axes_names(std::vector<std::string>);
  template <class... A> benchmark_base &set_min_samples(A &&...);
  template <class... A> benchmark_base &set_max_noise(A &&...);
  template <class... A> benchmark_base &set_timeout(A &&...);
  template <class... A> benchmark_base &set_skip_time(A &&...);
  template <class... A> benchmark_base &set_run_once(A &&...);
  benchmark_base &set_devices(std::vector<int>);
  template <class... A> benchmark_base &set_stopping_criterion(A &&...);
  template <class... A> benchmark_base &set_criterion_param_float64(A &&...);
  template <class... A> benchmark_base &set_criterion_param_int64(A &&...);
  template <class... A> benchmark_base &set_disable_blocking_kernel(A &&...);
  template <class... A> benchmark_base &set_blocking_kernel_timeout(A &&...);
  template <class... A> benchmark_base &set_throttle_threshold(A &&...);
  template <class... A> benchmark_base &set_throttle_recovery_delay(A &&...);
  template <class... A> benchmark_base &clear_devices(A &&...);
  const std::string &get_name() const;
};
template <class Callable, class... A> benchmark_base &__rocport_register(A &&...);
}  // namespace __rocport_nvbench
/* `nvbench` only nominates the model: a real nvbench read beside it (the models share one precompiled header) is no
 * redefinition. */
namespace nvbench {
using namespace ::__rocport_nvbench;
}  // namespace nvbench

/* A benchmark becomes a callable struct (as nvbench's own macros make it) and a registered builder, both keyed by the
 * line: a name pasted with __LINE__ is spelled in clang's scratch space, and a declaration spelled there is not the
 * main file's (its tree would be dropped). Used at namespace scope, as nvbench's macros are. */
template <int> struct __rocport_nvbench_callable;
template <int> struct __rocport_nvbench_registered;
#define NVBENCH_BENCH(function)                                                                                     \
  template <> struct __rocport_nvbench_callable<__LINE__> {                                                         \
    void operator()(::nvbench::state &state, ::nvbench::type_list<>) { function(state); }                          \
  };                                                                                                                \
  template <> struct __rocport_nvbench_registered<__LINE__> { static ::nvbench::benchmark_base &benchmark; };       \
  ::nvbench::benchmark_base &__rocport_nvbench_registered<__LINE__>::benchmark =                                    \
    ::nvbench::__rocport_register<__rocport_nvbench_callable<__LINE__>>()
#define NVBENCH_BENCH_TYPES(function, axes)                                                                         \
  template <> struct __rocport_nvbench_callable<__LINE__> {                                                         \
    template <class... T> void operator()(::nvbench::state &state, ::nvbench::type_list<T...>) {                   \
      function(state, ::nvbench::type_list<T...>{});                                                                \
    }                                                                                                               \
  };                                                                                                                \
  template <> struct __rocport_nvbench_registered<__LINE__> { static ::nvbench::benchmark_base &benchmark; };       \
  ::nvbench::benchmark_base &__rocport_nvbench_registered<__LINE__>::benchmark =                                    \
    ::nvbench::__rocport_register<__rocport_nvbench_callable<__LINE__>>(axes{})
#define NVBENCH_TYPE_AXES(...) ::nvbench::type_list<__VA_ARGS__>
#define NVBENCH_DECLARE_TYPE_STRINGS(Type, InputString, Description)                                                \
  namespace __rocport_nvbench {                                                                                   \
  template <> struct type_strings<Type> {                                                                           \
    static std::string input_string() { return InputString; }                                                      \
    static std::string description() { return Description; }                                                       \
  };                                                                                                                \
  }
#define NVBENCH_DECLARE_ENUM_TYPE_STRINGS(Type, InputGenerator, DescriptionGenerator)                              \
  namespace __rocport_nvbench {                                                                                   \
  template <Type Value> struct type_strings<enum_type<Value, Type>> {                                               \
    static std::string input_string() { return InputGenerator(Value); }                                            \
    static std::string description() { return DescriptionGenerator(Value); }                                       \
  };                                                                                                                \
  }
#define NVBENCH_MAIN int main(int argc, char **argv) { return 0; }
#define NVBENCH_MAIN_BODY(argc, argv) ((void)(argc), (void)(argv))
#define NVBENCH_CUDA_CALL(...) ((void)(__VA_ARGS__))
#define NVBENCH_CUDA_CALL_NOEXCEPT(...) ((void)(__VA_ARGS__))
#endif
