/* ROCport's permissive value and type, shared by the models of template libraries (CUTLASS, CuTe, CK tile): what a
 * call into such a library returns when the model does not spell its type. Not a library of its own. */
#ifndef ROCPORT_MODEL_PERMISSIVE_H
#define ROCPORT_MODEL_PERMISSIVE_H
#pragma clang system_header
/* A value of any shape: built from anything, converts to anything, called and indexed freely. */
struct __rocport_cx {
  __host__ __device__ __rocport_cx();
  template <class... A> __host__ __device__ __rocport_cx(A &&...);
  template <class T> __host__ __device__ operator T() const;
  template <class... A> __host__ __device__ __rocport_cx operator()(A &&...) const;
  template <class T> __host__ __device__ __rocport_cx operator[](T &&) const;
  __host__ __device__ __rocport_cx operator*() const;
  __host__ __device__ __rocport_cx *operator->();
  __host__ __device__ __rocport_cx &operator++();
  __host__ __device__ __rocport_cx operator-() const;
  template <class T> __host__ __device__ __rocport_cx &operator=(T &&);
  template <class T> __host__ __device__ __rocport_cx &operator+=(T &&);
  template <class T> __host__ __device__ __rocport_cx &operator-=(T &&);
  template <class T> __host__ __device__ __rocport_cx &operator*=(T &&);
  static constexpr int value = 1;
  using type = __rocport_cx;
  using value_type = __rocport_cx;
  using element_type = __rocport_cx;
  using Element = __rocport_cx;
  using Arguments = __rocport_cx;
  using Params = __rocport_cx;
  using SharedStorage = __rocport_cx;
  using TensorStorage = __rocport_cx;
  using PipelineStorage = __rocport_cx;
  using CollectiveOp = __rocport_cx;
  using Kernel = __rocport_cx;
  using GemmKernel = __rocport_cx;
  using Layout = __rocport_cx;
  using Shape = __rocport_cx;
  using Stride = __rocport_cx;
  using TiledMma = __rocport_cx;
  using TiledCopy = __rocport_cx;
  using FragmentA = __rocport_cx;
  using FragmentB = __rocport_cx;
  using FragmentC = __rocport_cx;
  __host__ __device__ __rocport_cx layout() const;
  __host__ __device__ __rocport_cx shape() const;
  __host__ __device__ __rocport_cx stride() const;
  __host__ __device__ __rocport_cx data() const;
  __host__ __device__ __rocport_cx size() const;
  __host__ __device__ __rocport_cx get() const;
  template <class... A> __host__ __device__ __rocport_cx with(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx get_slice(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx get_thread_slice(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_S(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_D(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_A(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_B(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_C(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_fragment_A(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_fragment_B(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx partition_fragment_C(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx retile_S(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx retile_D(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx compose(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx tile(A &&...) const;
  template <class... A> static __host__ __device__ __rocport_cx make(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx to_underlying_arguments(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx get_workspace_size(A &&...);
  template <class... A> static __host__ __device__ __rocport_cx can_implement(A &&...);
  template <class... A> __host__ __device__ __rocport_cx initialize(A &&...);
  template <class... A> __host__ __device__ __rocport_cx run(A &&...);
  template <class... A> __host__ __device__ __rocport_cx sync(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx arrive(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx wait(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx load(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx store(A &&...) const;
  template <class... A> __host__ __device__ __rocport_cx clear(A &&...);
  template <class... A> __host__ __device__ __rocport_cx fill(A &&...);
  __host__ __device__ __rocport_cx begin() const;
  __host__ __device__ __rocport_cx end() const;
  /* Hidden friends: found only when an operand is such a value, never competing with built-in operators. */
  template <class T> friend __host__ __device__ __rocport_cx operator+(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ __rocport_cx operator-(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ __rocport_cx operator*(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ __rocport_cx operator/(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ __rocport_cx operator%(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ bool operator<(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ bool operator==(const __rocport_cx &, const T &);
  template <class T> friend __host__ __device__ bool operator!=(const __rocport_cx &, const T &);
};
/* A type of any template of a modelled library: any type arguments, the members above. */
template <class... T> struct __rocport_cx_type : __rocport_cx { using __rocport_cx::__rocport_cx; };
#endif
