"""Issue 32, round 7: what the tune half's tokens-only files lacked. nvbench modelled where its headers are missing,
Catch2's templated test cases with a signature, libcu++'s `cuda::stream_ref`, more of Thrust's functors and
iterators and of the standard library's traits. Each fixture is code of our own in the shape the real files have."""

from __future__ import annotations

from scanner.model import ParseMode
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
