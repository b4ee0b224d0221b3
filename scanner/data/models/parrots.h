/* ROCport's model of Parrots' extension API (SenseTime's training framework; `parrots/extension.hpp`,
 * `parrots/foundation/ssattrs.hpp`, `parrots/compute/aten.hpp`) for a parse without Parrots' headers. mmcv and the
 * OpenMMLab projects built on it bind each CUDA operator to Parrots beside PyTorch: a host-side file that reads the
 * operator's attributes, wraps Parrots arrays as ATen tensors and calls the same `*_cuda` launcher the PyTorch
 * binding calls. Declared permissively: enough that such a file keeps its tree, not a reimplementation. */
#ifndef ROCPORT_MODEL_PARROTS_H
#define ROCPORT_MODEL_PARROTS_H
#pragma clang system_header
#include "/__rocport_models__/torch.h"

namespace parrots {
enum class Prim { Bool, Int8, Uint8, Int16, Int32, Int64, Float16, Float32, Float64 };
struct float16 {
  unsigned short x;
  float16();
  template <class T> __host__ __device__ float16(T);
  __host__ __device__ operator float() const;
};
__host__ __device__ float16 operator+(float16, float16);
__host__ __device__ float16 operator*(float16, float16);
struct DArraySpec {
  Prim elemType() const;
  int ndims() const;
  long dim(int) const;
  long size() const;
};
struct DArrayLite {
  DArrayLite();
  const DArraySpec &spec() const;
  Prim elemType() const;
  int ndims() const;
  long dim(int) const;
  long size() const;
  template <class T = void> T *ptr() const;
  template <class T = void> T *data() const;
};
using DArray = DArrayLite;
struct Context {};
struct HostContext : Context {};
struct CudaContext : Context {
  void *getStream() const;
};
struct SSElement {};
struct SSAttrs {
  SSAttrs(const SSElement &);
  template <class T> SSAttrs &get(const char *, T &);
  SSAttrs &done();
};
struct OperatorBase {
  typedef std::vector<DArrayLite> in_list_t;
  typedef std::vector<DArrayLite> out_list_t;
};
struct ExtensionBuilder {
  explicit ExtensionBuilder(const char *);
  ExtensionBuilder &attr(const char *);
  ExtensionBuilder &input(int);
  ExtensionBuilder &output(int);
  template <class F> ExtensionBuilder &apply(F &&);
  int done();
};
at::Tensor buildATensor(Context &, const DArrayLite &);
void updateDArray(Context &, const at::Tensor &, DArrayLite &);
template <class T> DArrayLite newDArray(Context &, T &&);
}  // namespace parrots

#define PARROTS_EXTENSION_REGISTER(name) static auto __rocport_parrots_##name = ::parrots::ExtensionBuilder(#name)
#define PARROTS_NOTSUPPORTED throw 0
#define PARROTS_CHECKARGS(...) ((void)0)
#endif
