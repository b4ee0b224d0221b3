/* ROCport's model of TensorFlow's custom-operator API (`tensorflow/core/framework/op.h`, `op_kernel.h`,
 * `shape_inference.h`) for a parse without TensorFlow: the other framework a project's CUDA operators bind to, beside
 * PyTorch (Open3D's ML operators, point-cloud and NeRF libraries). `REGISTER_OP("Name").Input(...).SetShapeFn(...)`
 * becomes a variable whose initializer keeps the chain, an OpKernel's Compute a member function, `OP_REQUIRES` a
 * statement. Not a reimplementation. */
#ifndef ROCPORT_MODEL_TENSORFLOW_H
#define ROCPORT_MODEL_TENSORFLOW_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
#include "/__rocport_models__/abseil.h"
namespace Eigen {
struct GpuDevice { cudaStream_t stream() const; int getNumGpuMultiProcessors() const; };
struct ThreadPoolDevice { int numThreads() const; };
struct half : __half { using __half::__half; };
}  // namespace Eigen
namespace tensorflow {
typedef long long int64;
typedef int int32;
typedef unsigned long long uint64;
typedef unsigned uint32;
typedef signed char int8;
typedef unsigned char uint8;
typedef absl::Status Status;
template <class T> using StatusOr = absl::StatusOr<T>;
enum DataType { DT_INVALID, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_STRING, DT_INT64, DT_BOOL,
                DT_HALF, DT_BFLOAT16, DT_UINT16, DT_UINT32, DT_UINT64 };
template <class T> struct DataTypeToEnum { static constexpr DataType value = DT_FLOAT; static DataType v(); };
extern const char *const DEVICE_CPU;
extern const char *const DEVICE_GPU;
extern const char *const DEVICE_DEFAULT;
namespace errors {
#define ROCPORT_TF_ERROR(name) template <class... A> Status name(A &&...);
ROCPORT_TF_ERROR(InvalidArgument)
ROCPORT_TF_ERROR(Internal)
ROCPORT_TF_ERROR(NotFound)
ROCPORT_TF_ERROR(Unimplemented)
ROCPORT_TF_ERROR(Unknown)
ROCPORT_TF_ERROR(OutOfRange)
ROCPORT_TF_ERROR(FailedPrecondition)
ROCPORT_TF_ERROR(ResourceExhausted)
#undef ROCPORT_TF_ERROR
}  // namespace errors
struct TensorShape {
  TensorShape();
  TensorShape(std::initializer_list<int64>);
  template <class... A> TensorShape(A &&...);
  int dims() const;
  int64 dim_size(int) const;
  int64 num_elements() const;
  void AddDim(int64);
  void set_dim(int, int64);
  void RemoveDim(int);
  std::string DebugString() const;
  bool IsSameSize(const TensorShape &) const;
};
struct Tensor {
  Tensor();
  template <class... A> Tensor(A &&...);
  const TensorShape &shape() const;
  DataType dtype() const;
  int dims() const;
  int64 dim_size(int) const;
  int64 NumElements() const;
  bool IsInitialized() const;
  template <class... A> bool CopyFrom(A &&...);
  std::string DebugString() const;
  template <class T> __rocport_cx flat() const;
  template <class T> __rocport_cx flat_inner_dims() const;
  template <class T> __rocport_cx vec() const;
  template <class T> __rocport_cx matrix() const;
  template <class T> __rocport_cx scalar() const;
  template <class T, int N = 1> __rocport_cx tensor() const;
  template <class T> __rocport_cx shaped(std::initializer_list<int64>) const;
  template <class... A> Tensor Slice(A &&...) const;
  __rocport_cx tensor_data() const;
};
struct DeviceContext {
  template <class... A> void CopyCPUTensorToDevice(A &&...);
  template <class... A> void CopyDeviceTensorToCPU(A &&...);
};
struct AllocatorAttributes {
  void set_on_host(bool);
  void set_gpu_compatible(bool);
};
struct OpKernelConstruction {
  template <class T> Status GetAttr(const char *, T *) const;
  template <class T> Status GetAttr(const std::string &, T *) const;
  template <class... A> void CtxFailure(A &&...);
  DataType input_type(int) const;
  int num_inputs() const;
};
struct OpKernelContext {
  const Tensor &input(int) const;
  Status input(const char *, const Tensor **);
  int num_inputs() const;
  int num_outputs() const;
  Tensor *mutable_output(int);
  template <class... A> Status allocate_output(A &&...);
  template <class... A> Status allocate_temp(A &&...);
  template <class... A> Status forward_input_or_allocate_output(A &&...);
  template <class... A> void set_output(A &&...);
  const Eigen::GpuDevice &eigen_gpu_device() const;
  const Eigen::ThreadPoolDevice &eigen_cpu_device() const;
  template <class D> const D &eigen_device() const;
  DeviceContext *op_device_context();
  template <class T> Status GetAttr(const char *, T *) const;
  template <class... A> void CtxFailure(A &&...);
  template <class... A> void CtxFailureWithWarning(A &&...);
  template <class... A> void SetStatus(A &&...);
  Status status() const;
};
struct OpKernel {
  explicit OpKernel(OpKernelConstruction *);
  virtual ~OpKernel();
  virtual void Compute(OpKernelContext *) = 0;
  const std::string &name() const;
};
struct AsyncOpKernel : OpKernel {
  using OpKernel::OpKernel;
  typedef std::function<void()> DoneCallback;
  virtual void ComputeAsync(OpKernelContext *, DoneCallback) = 0;
};
namespace shape_inference {
struct DimensionHandle { bool SameHandle(DimensionHandle) const; };
struct ShapeHandle { bool SameHandle(ShapeHandle) const; };
struct DimensionOrConstant {
  DimensionOrConstant(DimensionHandle);
  DimensionOrConstant(int64);
};
struct InferenceContext {
  static constexpr int64 kUnknownDim = -1;
  static constexpr int32 kUnknownRank = -1;
  ShapeHandle input(int64) const;
  int num_inputs() const;
  int num_outputs() const;
  ShapeHandle output(int64) const;
  void set_output(int, ShapeHandle);
  template <class... A> Status WithRank(A &&...);
  template <class... A> Status WithRankAtLeast(A &&...);
  template <class... A> Status WithRankAtMost(A &&...);
  template <class... A> Status WithValue(A &&...);
  template <class... A> Status Merge(A &&...);
  template <class... A> Status Add(A &&...);
  template <class... A> Status Subtract(A &&...);
  template <class... A> Status Multiply(A &&...);
  template <class... A> Status Divide(A &&...);
  template <class... A> Status Concatenate(A &&...);
  template <class... A> Status Subshape(A &&...);
  template <class... A> Status ReplaceDim(A &&...);
  DimensionHandle Dim(ShapeHandle, int64);
  DimensionHandle DimKnownRank(ShapeHandle, int64);
  int32 Rank(ShapeHandle) const;
  bool RankKnown(ShapeHandle) const;
  bool FullyDefined(ShapeHandle) const;
  bool ValueKnown(DimensionHandle) const;
  int64 Value(DimensionOrConstant) const;
  DimensionHandle MakeDim(DimensionOrConstant);
  DimensionHandle UnknownDim();
  ShapeHandle UnknownShape();
  ShapeHandle Scalar();
  ShapeHandle Vector(DimensionOrConstant);
  ShapeHandle Matrix(DimensionOrConstant, DimensionOrConstant);
  ShapeHandle MakeShape(std::initializer_list<DimensionOrConstant>);
  template <class... A> ShapeHandle MakeShape(A &&...);
  template <class... A> ShapeHandle UnknownShapeOfRank(A &&...);
  template <class T> Status GetAttr(const char *, T *) const;
  std::string DebugString(ShapeHandle);
};
Status UnchangedShape(InferenceContext *);
Status ScalarShape(InferenceContext *);
}  // namespace shape_inference
/* The builders REGISTER_OP and REGISTER_KERNEL_BUILDER read. */
struct OpDefBuilderWrapper {
  template <class... A> OpDefBuilderWrapper &Attr(A &&...);
  template <class... A> OpDefBuilderWrapper &Input(A &&...);
  template <class... A> OpDefBuilderWrapper &Output(A &&...);
  template <class F> OpDefBuilderWrapper &SetShapeFn(F &&);
  template <class... A> OpDefBuilderWrapper &Doc(A &&...);
  OpDefBuilderWrapper &SetIsStateful();
  OpDefBuilderWrapper &SetIsCommutative();
};
OpDefBuilderWrapper __rocport_register_op(const char *);
struct KernelDefBuilder {
  KernelDefBuilder &Device(const char *);
  template <class T> KernelDefBuilder &TypeConstraint(const char *);
  template <class... A> KernelDefBuilder &TypeConstraint(A &&...);
  KernelDefBuilder &HostMemory(const char *);
  KernelDefBuilder &Label(const char *);
  KernelDefBuilder &Priority(int);
};
KernelDefBuilder Name(const char *);
}  // namespace tensorflow
#define __ROCPORT_TF_CAT2(a, b) a##b
#define __ROCPORT_TF_CAT(a, b) __ROCPORT_TF_CAT2(a, b)
#define REGISTER_OP(name)                                                                                           \
  static ::tensorflow::OpDefBuilderWrapper __ROCPORT_TF_CAT(__rocport_tf_op_, __COUNTER__) =                        \
      ::tensorflow::__rocport_register_op(name)
/* The builder's expression and the kernel class are kept (its template arguments name the types it serves). */
#define REGISTER_KERNEL_BUILDER(builder, ...)                                                                       \
  static void __rocport_tf_kernel(char (*)[__LINE__]) { (void)(::tensorflow::builder); (void)sizeof(__VA_ARGS__); } \
  static_assert(true, "")
#define TF_RETURN_IF_ERROR(...)                                                                                     \
  do {                                                                                                              \
    ::tensorflow::Status __rocport_status = (__VA_ARGS__);                                                          \
    if (!__rocport_status.ok()) return __rocport_status;                                                            \
  } while (0)
#define TF_RETURN_WITH_CONTEXT_IF_ERROR(expr, ...) TF_RETURN_IF_ERROR(expr)
#define OP_REQUIRES(context, condition, status)                                                                    \
  do {                                                                                                              \
    if (!(condition)) {                                                                                             \
      (context)->CtxFailure(status);                                                                                \
      return;                                                                                                       \
    }                                                                                                               \
  } while (0)
#define OP_REQUIRES_OK(context, ...)                                                                                \
  do {                                                                                                              \
    ::tensorflow::Status __rocport_status = (__VA_ARGS__);                                                          \
    if (!__rocport_status.ok()) {                                                                                   \
      (context)->CtxFailure(__rocport_status);                                                                      \
      return;                                                                                                       \
    }                                                                                                               \
  } while (0)
#define OP_REQUIRES_ASYNC(context, condition, status, done) OP_REQUIRES(context, condition, status)
#define OP_REQUIRES_OK_ASYNC(context, status, done) OP_REQUIRES_OK(context, status)
#define TF_PREDICT_FALSE(x) (x)
#define TF_PREDICT_TRUE(x) (x)
#define TF_CALL_float(m) m(float)
#define TF_CALL_double(m) m(double)
#define TF_CALL_int32(m) m(::tensorflow::int32)
#define TF_CALL_int64(m) m(::tensorflow::int64)
#define TF_CALL_GPU_NUMBER_TYPES(m) m(float) m(double)
#define TF_CALL_REAL_NUMBER_TYPES(m) m(float) m(double)
#endif
