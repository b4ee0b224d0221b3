"""Issue 32, round 5: what the tune half's tokens-only files lacked. GoogleTest and dmlc-core modelled where their
headers are missing, a declaration macro of a missing header at namespace scope, more of libcu++ (`cuda::std`'s
variant and random engines, `cuda::ptx`, `cuda::proclaim_return_type`) and of the standard library host code
calls, and OpenMP's runtime calls. Each fixture is code of our own in the shape the real files have."""

from __future__ import annotations

from scanner.model import ParseMode
from scanner.parsing.clang_unit import guess_unknown_macros
from scanner.parsing.models import model_for
from tests.scanner.helpers import analyze_text


def _parsed_whole(result, modelled=None):
    assert result.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), result.health.fallback_reason
    assert result.health.error_count == 0, result.health.first_errors
    if modelled is not None:
        assert result.health.modelled_headers == modelled


GTEST_SUITE = """\
#include <gtest/gtest.h>
#include <cuda_runtime.h>
#include <vector>

namespace histo {
__global__ void count_bins(const int *keys, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i]], 1);
}

class BinsTest : public ::testing::Test {
 protected:
  void SetUp() override { cudaMalloc(&bins_, 16 * sizeof(int)); }
  void TearDown() override { cudaFree(bins_); }
  int *bins_{nullptr};
};

class BinsSizes : public ::testing::TestWithParam<int> {};

template <typename T> class TypedBins : public ::testing::Test {
 public:
  T zero{};
};
using BinTypes = ::testing::Types<int, unsigned>;
TYPED_TEST_SUITE(TypedBins, BinTypes);

TEST(Bins, Empty) {
  std::vector<int> host(16, 0);
  ASSERT_EQ(host.size(), 16u) << "sixteen bins, got " << host.size();
  EXPECT_TRUE(host.front() == 0);
  EXPECT_NEAR(0.5f, 0.5f, 1e-6f);
  EXPECT_THROW({ host.at(100); }, std::out_of_range);
}

TEST_F(BinsTest, CountsEveryKey) {
  if (bins_ == nullptr) {
    GTEST_SKIP() << "no device memory";
  }
  count_bins<<<1, 32>>>(nullptr, bins_, 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST_P(BinsSizes, Launches) {
  int n = GetParam();
  count_bins<<<(n + 255) / 256, 256>>>(nullptr, nullptr, n);
  EXPECT_GE(n, 1);
}

INSTANTIATE_TEST_SUITE_P(Sizes, BinsSizes, ::testing::Values(1, 255, 4096),
                         [](const ::testing::TestParamInfo<int> &info) { return std::to_string(info.param); });

TYPED_TEST(TypedBins, StartsAtZero) {
  TypeParam value = this->zero;
  EXPECT_EQ(value, TypeParam{0});
}
}  // namespace histo
"""


def test_a_googletest_suite_keeps_its_tree():
    """`TEST(Suite, Name) {` is no declaration without GoogleTest's header: the file was tokens-only."""
    for header in ("gtest/gtest.h", "gmock/gmock.h", "gtest/gtest-param-test.h"):
        assert model_for(header) == "googletest"


def test_a_googletest_suite_parses_whole(tmp_path):
    result = analyze_text(tmp_path, GTEST_SUITE, name="test_bins.cu")
    _parsed_whole(result, ["googletest"])


DMLC_OBJECTIVE = """\
#include <dmlc/logging.h>
#include <dmlc/parameter.h>
#include <dmlc/registry.h>
#include <cuda_runtime.h>
#include <functional>
#include <string>

namespace boost_like {
struct ClipParam : public dmlc::Parameter<ClipParam> {
  float lower;
  float upper;
  DMLC_DECLARE_PARAMETER(ClipParam) {
    DMLC_DECLARE_FIELD(lower).set_default(0.0f).describe("Smallest kept value.");
    DMLC_DECLARE_FIELD(upper).set_default(1.0f).set_lower_bound(0.0f).describe("Largest kept value.");
    DMLC_DECLARE_ALIAS(upper, max_value);
  }
};

struct ObjectiveReg : public dmlc::FunctionRegEntryBase<ObjectiveReg, std::function<int()>> {};

DMLC_REGISTRY_FILE_TAG(clip_objective);
DMLC_REGISTER_PARAMETER(ClipParam);

__global__ void clip(float *v, int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = fminf(fmaxf(v[i], lo), hi);
}

void Clip(float *v, int n, const ClipParam &param) {
  CHECK_LE(param.lower, param.upper) << "lower bound above upper bound";
  CHECK(v != nullptr);
  if (n == 0) {
    LOG(WARNING) << "nothing to clip";
    return;
  }
  clip<<<(n + 255) / 256, 256>>>(v, n, param.lower, param.upper);
  if (cudaGetLastError() != cudaSuccess) LOG(FATAL) << "launch failed";
}
}  // namespace boost_like

DMLC_REGISTRY_ENABLE(::boost_like::ObjectiveReg);
"""


def test_a_dmlc_core_objective_keeps_its_tree(tmp_path):
    """dmlc-core is a submodule of the projects that use it: a bare checkout has no `dmlc/` headers."""
    assert model_for("dmlc/registry.h") == "dmlc" and model_for("dmlc/omp.h") == "dmlc"
    _parsed_whole(analyze_text(tmp_path, DMLC_OBJECTIVE, name="clip_obj.cu"), ["dmlc"])


PLUGIN_REGISTRATION = """\
#include <plugkit/registry.h>
#include <cuda_runtime.h>

namespace blur {
PLUGKIT_FILE_TAG(gaussian_blur);

__global__ void blur_rows(const float *in, float *out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > 0 && x + 1 < width) out[x] = 0.25f * in[x - 1] + 0.5f * in[x] + 0.25f * in[x + 1];
}

void BlurRows(const float *in, float *out, int width, cudaStream_t stream) {
  blur_rows<<<(width + 127) / 128, 128, 0, stream>>>(in, out, width);
}
}  // namespace blur
"""


def test_a_declaration_macro_of_a_missing_header_is_an_empty_declaration(tmp_path):
    """`PLUGKIT_FILE_TAG(x);` at column 0: a header no model knows writes a declaration there."""
    assert "PLUGKIT_FILE_TAG(...)" in guess_unknown_macros(PLUGIN_REGISTRATION)
    # after a first parse: only where clang did not know the name there (else a second parse gains nothing)
    assert "PLUGKIT_FILE_TAG(...)" in guess_unknown_macros(
        PLUGIN_REGISTRATION, ["5: unknown type name 'PLUGKIT_FILE_TAG'"]
    )
    assert guess_unknown_macros(PLUGIN_REGISTRATION, ["9: use of undeclared identifier 'in'"]) == []
    # indented: a statement in a body (a check macro around a CUDA call), never defined away
    assert not any(g.startswith("CUDA_CHECK") for g in guess_unknown_macros("void f() {\n  CUDA_CHECK(g());\n}\n"))
    _parsed_whole(analyze_text(tmp_path, PLUGIN_REGISTRATION, name="blur.cu"))


LIBCUDACXX_MORE = """\
#include <cuda/atomic>
#include <cuda/functional>
#include <cuda/ptx>
#include <cuda/std/random>
#include <cuda/std/tuple>
#include <cuda/std/variant>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

namespace sampling {
struct Uniform { float lo, hi; };
struct Normal { float mean, sd; };
using Dist = cuda::std::variant<Uniform, Normal>;

__device__ float draw(const Dist &d, unsigned long long seed, unsigned idx) {
  cuda::std::philox4x64 rng(seed);
  rng.discard(idx);
  cuda::std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  float u = unit(rng);
  return cuda::std::visit(
      [u](auto const &p) -> float {
        if constexpr (cuda::std::is_same_v<cuda::std::decay_t<decltype(p)>, Uniform>) return p.lo + u * (p.hi - p.lo);
        else return p.mean + p.sd * (2.0f * u - 1.0f);
      },
      d);
}

__global__ void fill(float *out, Dist d, unsigned long long seed, unsigned *taken) {
  out[threadIdx.x] = draw(d, seed, threadIdx.x);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*taken);
  counter.fetch_add(1, cuda::memory_order_relaxed);
  if (cuda::ptx::elect_sync(~0u)) {
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  auto [first, second] = cuda::std::make_pair(1, 2.0f);
  out[0] += first + second + cuda::std::get<0>(cuda::std::make_tuple(3, 4));
}

void scale(float *v, int n, cudaStream_t s) {
  thrust::transform(thrust::cuda::par_nosync.on(s), v, v + n, v,
                    cuda::proclaim_return_type<float>([] __device__(float x) { return 2.0f * x; }));
}
}  // namespace sampling
"""


def test_libcudacxx_variants_engines_and_ptx_keep_the_tree(tmp_path):
    _parsed_whole(analyze_text(tmp_path, LIBCUDACXX_MORE, name="sampling.cu"), ["libcudacxx"])


HOST_STD = """\
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <type_traits>
#include <vector>
#include <omp.h>

namespace prep {
template <typename T> using ConstView = std::add_const_t<T> *;
template <typename Fn> constexpr bool kCallable = std::is_invocable_v<Fn, std::int8_t>;
static_assert(std::is_standard_layout_v<std::pair<int, int>> || true, "");

std::mutex guard;

std::optional<float> Largest(const std::vector<float> &v) {
  if (v.empty()) return std::nullopt;
  return *std::max_element(v.cbegin(), v.cend());
}

double Prepare(std::vector<float> *values, std::set<std::string> *names, std::set<std::string> more) {
  auto start = std::chrono::steady_clock::now();
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
  std::lock_guard<std::mutex> lock(guard);
  omp_set_num_threads(omp_get_max_threads());
  for (auto &v : *values) v += noise(rng);
  std::sort(values->begin(), values->end(), std::greater<>{});
  std::vector<float> sums(values->size());
  std::partial_sum(values->cbegin(), values->cend(), sums.begin());
  names->merge(more);
  std::uint8_t tag = 0;
  std::sscanf("7", "%hhu", &tag);
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  return elapsed.count() + sums.back() + Largest(*values).value_or(0.0f);
}
}  // namespace prep
"""


def test_host_code_standard_library_and_openmp_keep_the_tree(tmp_path):
    assert model_for("omp.h") == "openmp"
    _parsed_whole(analyze_text(tmp_path, HOST_STD, name="prep.cu"), ["openmp"])


TENSORFLOW_OP = """\
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"
#include "absl/status/status.h"

using namespace tensorflow;

REGISTER_OP("PointsToVoxels")
    .Attr("T: {float, double}")
    .Input("points: T")
    .Input("voxel_size: T")
    .Output("voxel_ids: int64")
    .SetShapeFn([](::tensorflow::shape_inference::InferenceContext *c) {
      using namespace ::tensorflow::shape_inference;
      ShapeHandle points;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &points));
      DimensionHandle n = c->Dim(points, 0);
      c->set_output(0, c->MakeShape({n}));
      return absl::OkStatus();
    })
    .Doc("Maps each point to the id of its voxel.");

template <typename T>
__global__ void voxel_ids(const T *points, T size, long long n, long long *ids) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) ids[i] = (long long)(points[3 * i] / size);
}

template <typename T> class PointsToVoxelsOp : public OpKernel {
 public:
  explicit PointsToVoxelsOp(OpKernelConstruction *construction) : OpKernel(construction) {}
  void Compute(OpKernelContext *context) override {
    const Tensor &points = context->input(0);
    const T size = context->input(1).scalar<T>()();
    OP_REQUIRES(context, points.dims() == 2, absl::InvalidArgumentError("points must be a matrix"));
    Tensor *ids = nullptr;
    OP_REQUIRES_OK(context, context->allocate_output(0, TensorShape({points.dim_size(0)}), &ids));
    auto stream = context->eigen_gpu_device().stream();
    long long n = points.dim_size(0);
    voxel_ids<T><<<(n + 255) / 256, 256, 0, stream>>>(points.flat<T>().data(), size, n, ids->flat<int64>().data());
  }
};

#define REG_KB(type) \\
  REGISTER_KERNEL_BUILDER(Name("PointsToVoxels").Device(DEVICE_GPU).TypeConstraint<type>("T"), PointsToVoxelsOp<type>);
REG_KB(float)
REG_KB(double)
#undef REG_KB
"""


def test_a_tensorflow_custom_op_keeps_its_tree(tmp_path):
    """TensorFlow beside PyTorch as the framework an operator binds to: `using namespace tensorflow;` without its
    headers was "expected namespace name" and the file lost its tree (22 of Open3D's 48 tokens-only files)."""
    assert model_for("tensorflow/core/framework/op_kernel.h") == "tensorflow"
    assert model_for("absl/status/status.h") == "abseil"
    _parsed_whole(analyze_text(tmp_path, TENSORFLOW_OP, name="voxels_op.cu"), ["tensorflow", "abseil"])


CPU_BLAS_BACKEND = """\
#define USE_MKL_BLAS 1
#if defined(USE_MKL_BLAS)
#include "mkl.h"
namespace infer {
using BlasInt = MKL_INT;
}
#else
#include <cblas.h>
namespace infer {
using BlasInt = blasint;
}
#endif
#include <cuda_runtime.h>

namespace infer {
void MatMulCpu(const float *a, const float *b, float *c, BlasInt m, BlasInt n, BlasInt k, bool trans_b) {
  const CBLAS_TRANSPOSE tb = trans_b ? CblasTrans : CblasNoTrans;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, tb, m, n, k, 1.0f, a, k, b, trans_b ? k : n, 0.0f, c, n);
  vsTanh(m * n, c, c);
}

__global__ void tanh_rows(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = tanhf(c[i]);
}
}  // namespace infer
"""


def test_a_cpu_blas_backend_beside_the_cuda_one_keeps_its_tree(tmp_path):
    """`using BlasInt = MKL_INT;` without MKL: the CPU side of an inference engine lost its tree."""
    assert model_for("mkl.h") == "cblas" and model_for("cblas.h") == "cblas"
    _parsed_whole(analyze_text(tmp_path, CPU_BLAS_BACKEND, name="blas.cu"), ["cblas"])


JNI_BINDING = """\
#include <jni.h>
#include <memory>
#include <type_traits>
#include "engine_c_api.h"

extern "C" {
JNIEXPORT jint JNICALL Java_ml_engine_Native_predict(JNIEnv *jenv, jclass jcls, jlong handle, jfloatArray jdata,
                                                     jobjectArray jout) {
  jfloat *data = jenv->GetFloatArrayElements(jdata, nullptr);
  using Elem = std::remove_pointer_t<decltype(data)>;
  std::unique_ptr<Elem, void (*)(Elem *)> guard(data, [](Elem *) {});
  jsize n = jenv->GetArrayLength(jdata);
  float *result = nullptr;
  int ret = EnginePredict(reinterpret_cast<void *>(handle), data, n, &result);
  jfloatArray out = jenv->NewFloatArray(n);
  jenv->SetFloatArrayRegion(out, 0, n, result);
  jenv->SetObjectArrayElement(jout, 0, out);
  jenv->ReleaseFloatArrayElements(jdata, data, JNI_ABORT);
  if (ret != 0) {
    jclass err = jenv->FindClass("ml/engine/EngineError");
    jenv->ThrowNew(err, EngineLastError());
  }
  return ret;
}
}
"""


def test_a_jni_binding_keeps_its_tree(tmp_path):
    """JVM bindings beside the Python ones: `JNIEXPORT jint JNICALL Java_...(JNIEnv *env, ...)` without a JDK."""
    assert model_for("jni.h") == "jni"
    (tmp_path / "engine_c_api.h").write_text(
        "int EnginePredict(void *handle, const float *data, int n, float **out);\nconst char *EngineLastError();\n"
    )
    _parsed_whole(analyze_text(tmp_path, JNI_BINDING, name="engine_jni.cpp"), ["jni"])


PYBIND11_CASTER = """\
#include <pybind11/numpy.h>
#include <cstddef>

struct float3x {
  float x, y, z;
};

NAMESPACE_BEGIN(pybind11)
NAMESPACE_BEGIN(detail)
template <> struct type_caster<float3x> {
 public:
  PYBIND11_TYPE_CASTER(float3x, _("float3x"));
  bool load(handle src, bool convert) {
    auto buf = array_t<float>::ensure(src);
    if (!buf) return false;
    value = float3x{buf.data()[0], buf.data()[1], buf.data()[2]};
    return true;
  }
};
NAMESPACE_END(detail)
NAMESPACE_END(pybind11)
"""


def test_a_pybind11_type_caster_in_the_old_namespace_macros_keeps_its_tree(tmp_path):
    """pybind11 before 2.6 spelled `NAMESPACE_BEGIN(pybind11)`; a project's caster still does."""
    _parsed_whole(analyze_text(tmp_path, PYBIND11_CASTER, name="float3x_caster.hpp"), ["pybind11"])
