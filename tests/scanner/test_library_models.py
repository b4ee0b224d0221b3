"""Issue 32, round 7: what the tune half's tokens-only files lacked. nvbench modelled where its headers are missing,
Catch2's templated test cases with a signature, libcu++'s `cuda::stream_ref`, more of Thrust's functors and
iterators and of the standard library's traits. Each fixture is code of our own in the shape the real files have."""

from __future__ import annotations

from scanner.model import ParseMode
from scanner.parsing.clang_unit import Parser, ParseSettings
from scanner.parsing.models import model_for
from tests.scanner.helpers import analyze_text


def _parsed_whole(result, modelled=None):
    assert result.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), result.health.fallback_reason
    assert result.health.error_count == 0, result.health.first_errors
    if modelled is not None:
        assert result.health.modelled_headers == modelled


NVBENCH_SUITE = """\
#include <nvbench/nvbench.cuh>
#include <thrust/device_vector.h>
#include <cuda/stream_ref>
#include <cstdint>

enum class fill_kind { zeros, ramp };

NVBENCH_DECLARE_TYPE_STRINGS(float, "F32", "single precision");
NVBENCH_DECLARE_ENUM_TYPE_STRINGS(
  fill_kind,
  [](fill_kind k) { return k == fill_kind::zeros ? std::string{"zeros"} : std::string{"ramp"}; },
  [](fill_kind) { return std::string{"fill"}; })

template <typename T>
__global__ void scale(T *data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

struct device_buffer {
  void resize(std::size_t, cuda::stream_ref stream) { (void)stream.get(); }
};

auto const SIZES = nvbench::range(1 << 10, 1 << 20, 1 << 4);

void scale_plain(nvbench::state &state) {
  auto const n = state.get_int64("Elements");
  thrust::device_vector<float> data(n);
  state.add_element_count(n);
  state.add_global_memory_reads<float>(n, "In");
  state.exec([&](nvbench::launch &launch) {
    scale<<<(n + 255) / 256, 256, 0, launch.get_stream()>>>(thrust::raw_pointer_cast(data.data()), 2.0f, n);
  });
}
NVBENCH_BENCH(scale_plain).set_name("scale").add_int64_axis("Elements", {1024, 1 << 20}).set_max_noise(3);

template <typename T, fill_kind Fill>
void scale_typed(nvbench::state &state, nvbench::type_list<T, nvbench::enum_type<Fill>>) {
  auto const n = state.get_int64_or_default("Elements", 4096);
  auto const rate = state.get_float64("Rate");
  if (rate > 1.0) {
    state.skip("a rate above one");
    return;
  }
  thrust::device_vector<T> data(n);
  device_buffer scratch;
  state.exec(nvbench::exec_tag::sync | nvbench::exec_tag::timer, [&](nvbench::launch &launch, auto &timer) {
    scratch.resize(n, {launch.get_stream()});
    timer.start();
    scale<<<(n + 255) / 256, 256, 0, launch.get_stream()>>>(thrust::raw_pointer_cast(data.data()), T{2}, n);
    timer.stop();
  });
  auto &summary = state.add_summary("Rate");
  summary.set_string("hint", "rate");
}

using value_types = nvbench::type_list<float, nvbench::int64_t>;
NVBENCH_BENCH_TYPES(scale_typed,
                    NVBENCH_TYPE_AXES(value_types, nvbench::enum_type_list<fill_kind::zeros, fill_kind::ramp>))
  .set_name("scale_typed")
  .set_type_axes_names({"T", "Fill"})
  .add_float64_axis("Rate", {0.5, 0.9})
  .add_int64_power_of_two_axis("Elements", nvbench::range(10, 20, 2));
"""


def test_nvbench_is_modelled_where_its_header_is_missing():
    assert model_for("nvbench/nvbench.cuh") == "nvbench"
    assert model_for("nvbench/main.cuh") == "nvbench"


def test_an_nvbench_benchmark_keeps_its_tree(tmp_path):
    """`NVBENCH_BENCH(f).set_name("x");` at namespace scope is no declaration without nvbench: cuCollections' 27
    benchmarks were tokens-only ("use of undeclared identifier 'nvbench'")."""
    result = analyze_text(tmp_path, NVBENCH_SUITE, name="scale_bench.cu")
    _parsed_whole(result, ["libcudacxx", "nvbench"])
    # the registered benchmarks keep the kernel launches' lines in the tree
    assert result.stats.kernel_launches == 2


CATCH2_SIGNATURE = """\
#include <catch2/catch_template_test_macros.hpp>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <cuda/std/type_traits>
#include <cstdint>

enum class probing { linear, double_hashing };

template <typename Key, int Width>
__global__ void mark(Key const *keys, bool *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) seen[i] = thrust::equal_to<Key>{}(keys[i], Key{Width});
}

TEMPLATE_TEST_CASE_SIG("keys are marked", "",
                       ((typename Key, probing Probe, int Width), Key, Probe, Width),
                       (int32_t, probing::linear, 1),
                       (int64_t, probing::double_hashing, 2))
{
  static_assert(cuda::std::has_unique_object_representations_v<Key>);
  thrust::device_vector<Key> keys(128);
  thrust::device_vector<bool> seen(128);
  SECTION("every key") {
    mark<Key, Width><<<1, 128>>>(thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(seen.data()), 128);
    REQUIRE(thrust::all_of(seen.begin(), seen.end(), thrust::identity<bool>{}));
  }
  auto const first = thrust::get<0>(thrust::make_pair(Key{1}, Width));
  REQUIRE(first == Key{1});
  cuda::std::byte raw{};
  (void)raw;
}
"""


def test_a_catch2_test_case_with_a_signature_keeps_its_tree(tmp_path):
    """`TEMPLATE_TEST_CASE_SIG(name, tags, ((typename K, int N), K, N), ...)`: the model took no signature, and the
    test body's names were unknown ("a type specifier is required"): 14 of cuCollections' tests were tokens-only."""
    result = analyze_text(tmp_path, CATCH2_SIGNATURE, name="mark_test.cu")
    _parsed_whole(result, ["libcudacxx", "catch2"])


MATHDX_SOLVER = """\
#include <cusolverdx.hpp>
#include <cufftdx.hpp>
#include <cuda_runtime.h>
#include <numeric>
#include <vector>

template <class Solver, typename T = typename Solver::a_data_type>
__global__ __launch_bounds__(Solver::max_threads_per_block) void factor(T *a, typename Solver::status_type *info) {
  CUSOLVERDX_SKIP_IF_NOT_APPLICABLE_SM(Solver);
  extern __shared__ cusolverdx::byte smem[];
  auto [as, bs] = cusolverdx::shared_memory::slice<T, T>(smem, Solver::lda * Solver::n_size);
  constexpr auto rows = (cusolverdx::arrangement_of_v_a<Solver> == cusolverdx::col_major) ? Solver::m_size : 1;
  cusolverdx::copy_2d<Solver, rows, Solver::n_size, cusolverdx::arrangement::col_major>(a, Solver::m_size, as, Solver::lda);
  Solver().execute(as, info);
  (void)bs;
}

template <int Arch>
int cholesky() {
  using namespace cusolverdx;
  using Solver = decltype(Size<32, 32>() + Precision<double>() + Type<type::complex>() + Function<potrf>() +
                          FillMode<fill_mode::lower>() + Arrangement<col_major>() + SM<Arch>() + Block() +
                          BlockDim<128>());
  using T = typename Solver::a_data_type;
  std::vector<int> info(4);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  factor<Solver><<<4, Solver::block_dim, Solver::shared_memory_size, stream>>>(static_cast<T *>(nullptr), nullptr);
  return std::accumulate(info.begin(), info.end(), 0) != 0;
}

using FFT = decltype(cufftdx::Size<128>() + cufftdx::Precision<float>() + cufftdx::Type<cufftdx::fft_type::c2c>() +
                     cufftdx::Direction<cufftdx::fft_direction::forward>() + cufftdx::SM<800>() + cufftdx::Block() +
                     cufftdx::ElementsPerThread<8>() + cufftdx::FFTsPerBlock<2>());

__global__ void transform(typename FFT::value_type *data) {
  typename FFT::value_type thread_data[FFT::storage_size];
  extern __shared__ typename FFT::value_type shared[];
  for (unsigned i = 0; i < FFT::elements_per_thread; ++i) thread_data[i] = data[threadIdx.x + i * FFT::stride];
  FFT().execute(thread_data, shared);
}

int main() {
  transform<<<1, FFT::block_dim, FFT::shared_memory_size>>>(nullptr);
  return cholesky<800>();
}
"""


def test_mathdx_is_modelled_where_its_headers_are_missing():
    for header in ("cusolverdx.hpp", "cublasdx.hpp", "cufftdx.hpp", "curanddx.hpp", "cufftdx/operators.hpp"):
        assert model_for(header) == "mathdx"


def test_a_mathdx_description_keeps_its_tree(tmp_path):
    """`using Solver = decltype(Size<32, 32>() + ... + Block());` and `Solver::lda`: without cuSolverDx's header
    nothing of it was declared and 40 of CUDALibrarySamples' cuSolverDx samples were tokens-only."""
    result = analyze_text(tmp_path, MATHDX_SOLVER, name="cholesky.cu")
    _parsed_whole(result, ["mathdx"])
    assert result.stats.kernel_launches == 2


CUDA_STD_TUPLE_PROTOCOL = """\
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

namespace kv {
template <class K, class V>
struct alignas(sizeof(K) + sizeof(V)) slot {
  K key;
  V value;
};
}  // namespace kv

namespace cuda::std {
template <class K, class V>
struct tuple_size<kv::slot<K, V>> : integral_constant<size_t, 2> {};
template <std::size_t I, class K, class V>
struct tuple_element<I, kv::slot<K, V>> {
  using type = cuda::std::conditional_t<I == 0, K, V>;
};
}  // namespace cuda::std

static_assert(cuda::std::tuple_size<kv::slot<int, float>>::value == 2);
static_assert(cuda::std::tuple_size_v<cuda::std::tuple<int, int, int>> == 3);

__global__ void keys_of(kv::slot<int, float> const *slots, cuda::std::tuple_element_t<0, kv::slot<int, float>> *out) {
  out[threadIdx.x] = slots[threadIdx.x].key;
}
"""


def test_cuda_std_tuple_size_is_specialized_for_a_projects_pair(tmp_path):
    """`namespace cuda::std { template <...> struct tuple_size<my_pair<...>> ... }`: the model's cuda::std only
    nominated the prelude's std, and a specialization there is in the wrong namespace (cuCollections'
    tuple_helpers.inl was tokens-only)."""
    result = analyze_text(tmp_path, CUDA_STD_TUPLE_PROTOCOL, name="slots.cu")
    _parsed_whole(result, ["libcudacxx"])


RAFT_SOURCE = """\
#include <raft/core/handle.hpp>
#include <raft/core/device_mdspan.hpp>
#include <raft/linalg/unary_op.cuh>
#include <raft/stats/mean.cuh>
#include <raft/util/cuda_utils.cuh>
#include <raft/util/cudart_utils.hpp>
#include <rmm/device_uvector.hpp>
#include <rmm/exec_policy.hpp>
#include <rapids_logger/logger.hpp>
#include <thrust/fill.h>

namespace ML {
template <typename DataT>
struct GiniBin {
  int count;
  HDI static void increment(GiniBin *hist, int nbins, int b, int label) { atomicAdd(&hist[b * nbins + label].count, 1); }
  DI GiniBin &operator+=(const GiniBin &other) {
    count += other.count;
    return *this;
  }
};

template <typename DataT>
CUML_KERNEL void center_kernel(DataT *x, const DataT *mu, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * d) x[i] -= mu[i % d];
}

template <typename DataT>
void center(const raft::handle_t &handle, DataT *x, int n, int d, rapids_logger::level_enum verbosity) {
  cudaStream_t stream = handle.get_stream();
  rmm::device_uvector<DataT> mu(d, stream);
  auto view = raft::make_device_matrix_view<const DataT, int, raft::col_major>(x, n, d);
  raft::stats::mean(handle, view, raft::make_device_vector_view<DataT, int>(mu.data(), d), false);
  raft::linalg::unaryOp(mu.data(), mu.data(), d, raft::identity_op{}, stream);
  thrust::fill(rmm::exec_policy(stream), mu.begin(), mu.end(), DataT{0});
  int blocks = raft::ceildiv(n * d, 256);
  center_kernel<<<blocks, 256, 0, stream>>>(x, mu.data(), n, d);
  RAFT_CUDA_TRY(cudaPeekAtLastError());
  RAFT_EXPECTS(view.extent(0) == n, "rows");
  raft::update_host(x, mu.data(), d, stream);
  handle.sync_stream(stream);
  (void)verbosity;
}
template void center<float>(const raft::handle_t &, float *, int, int, rapids_logger::level_enum);
}  // namespace ML
"""


def test_raft_rmm_and_the_logger_are_modelled_where_their_headers_are_missing():
    assert model_for("raft/core/handle.hpp") == "raft"
    assert model_for("rmm/device_uvector.hpp") == "rmm"
    assert model_for("rapids_logger/logger.hpp") == "rapids_logger"


def test_a_raft_user_keeps_its_tree(tmp_path):
    """cuML's decision-tree bins are declared with RAFT's `HDI`/`DI`, its solvers take `raft::handle_t` and
    `rapids_logger::level_enum`: without RAFT the declarations failed and 12 of cuML's files were tokens-only."""
    result = analyze_text(tmp_path, "#define CUML_KERNEL __global__ static\n" + RAFT_SOURCE, name="center.cu")
    _parsed_whole(result, ["raft", "rmm", "rapids_logger"])
    assert result.stats.kernel_launches == 1


CXX20_HOST_AND_DEVICE = """\
#include <concepts>
#include <limits>
#include <random>
#include <cuda/iterator>
#include <cuda/std/random>

template <std::integral T, std::integral U>
constexpr T checked_narrow(U value) {
  static_assert(std::unsigned_integral<T> || std::signed_integral<T>);
  return std::in_range<T>(value) ? static_cast<T>(value) : T{};
}

template <std::floating_point T>
__device__ bool close(T a, T b) { return a - b < std::numeric_limits<T>::epsilon(); }

__global__ void sample(unsigned seed, int *out, int n) {
  cuda::std::minstd_rand engine(seed);
  auto first = cuda::counting_iterator(0);
  auto shuffled = cuda::shuffle_iterator(n, engine);
  (void)first;
  (void)shuffled;
  out[threadIdx.x] = checked_narrow<int>(engine() % 7u);
}
"""


def test_cxx20_concepts_limits_and_cuda_iterators_are_declared(tmp_path):
    """cuML builds with -std=c++20: its checked arithmetic constrains on std::integral and calls std::in_range, its
    kernels build cuda::shuffle_iterator and seed a minstd_rand in device code, and its objectives read
    numeric_limits<T>::epsilon(); none of which the prelude declared (its decision-tree kernels were tokens-only)."""
    source = tmp_path / "sample.cu"
    source.write_text(CXX20_HOST_AND_DEVICE)
    unit = Parser().parse(str(source), CXX20_HOST_AND_DEVICE, "cuda", ("-std=c++20",))
    assert unit.mode in (ParseMode.AST, ParseMode.AST_STUBBED), unit.fallback_reason
    assert unit.errors == []


def test_a_real_rmm_beside_the_models_is_no_redefinition(tmp_path):
    """Every model sits in the precompiled header of a unit that needs any model (here libcu++'s), so rmm's own
    headers were read beside the rmm model: "redefinition of 'device_scalar'", and rmm's own files were tokens-only.
    The model lives in a namespace `rmm` only nominates."""
    (tmp_path / "include/rmm").mkdir(parents=True)
    (tmp_path / "include/rmm/device_scalar.hpp").write_text(
        "#pragma once\n#include <rmm/version_config.hpp>\n#include <cuda/std/type_traits>\n"
        "namespace rmm {\nclass cuda_stream_view { public: cudaStream_t value() const; };\n"
        "template <typename T> class device_scalar {\n public:\n  explicit device_scalar(cuda_stream_view s);\n"
        "  T *data() noexcept;\n  static_assert(cuda::std::is_trivially_copyable_v<T>);\n};\n}  // namespace rmm\n"
    )
    source = """\
#include <rmm/device_scalar.hpp>
__global__ void count(int *n) { atomicAdd(n, 1); }
int launch(rmm::cuda_stream_view stream) {
  rmm::device_scalar<int> total(stream);
  count<<<1, 32, 0, stream.value()>>>(total.data());
  return 0;
}
"""
    (tmp_path / "src").mkdir()
    path = tmp_path / "src/count.cu"
    path.write_text(source)
    unit = Parser(ParseSettings(include_dirs=(str(tmp_path / "include"),))).parse(str(path), source, "cuda")
    assert unit.mode in (ParseMode.AST, ParseMode.AST_STUBBED), unit.fallback_reason
    assert "rmm" in unit.modelled and "libcudacxx" in unit.modelled
    assert unit.errors == []
    header = tmp_path / "include/rmm/device_scalar.hpp"
    alone = Parser(ParseSettings(include_dirs=(str(tmp_path / "include"),))).parse(
        str(header), header.read_text(), "cuda"
    )
    assert alone.errors == [], alone.errors


def test_raft_short_qualifiers_stay_out_of_units_without_raft(tmp_path):
    """RAFT's `HD`, `HDI` and `DI` are object-like macros: defined in every unit that needs any model, they would
    rewrite another project's `HD` (a video mode, a member). They are defined only where a RAFT header is included."""
    source = """\
#include <cuda/std/type_traits>
enum class resolution { SD, HD, UHD };
struct frame { int DI; resolution mode = resolution::HD; };
__global__ void mark(frame *f) { f[threadIdx.x].DI = static_cast<int>(f[threadIdx.x].mode); }
"""
    result = analyze_text(tmp_path, source, name="frames.cu")
    _parsed_whole(result, ["libcudacxx"])
