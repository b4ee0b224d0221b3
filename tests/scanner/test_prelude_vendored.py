"""The prelude beside real library code: a project's own copy of CUB (FasterTransformer's 3rdparty/cub, vendored for
old toolkits) declares the real `cub::BlockReduce` and its enums where the prelude models them, and host code reaches
for standard traits the prelude lacked (fresh3's FasterTransformer and lmdeploy, round 4)."""

from __future__ import annotations

from scanner.model import ParseMode
from tests.scanner.helpers import analyze_path, analyze_text

# Our own text in the shape of CUB 1.x's headers: no include guard of the prelude's kind, the full template
# parameter lists, the algorithm enums defined again.
VENDORED_BLOCK_REDUCE = """\
#pragma once
#include <iterator>
#include "../util_namespace.cuh"

CUB_NS_PREFIX
namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };

template <typename InputIteratorT, typename OffsetT = ptrdiff_t>
struct ArgIndexInputIterator {
  typedef typename std::iterator_traits<InputIteratorT>::value_type T;
  typedef std::random_access_iterator_tag iterator_category;
};

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int PTX_ARCH = 0>
class BlockReduce {
 public:
  struct TempStorage { T partials[BLOCK_DIM_X / 32]; };
  __device__ BlockReduce(TempStorage &storage) : storage(storage) {}
  __device__ T Sum(T input) {
    unsigned lane = threadIdx.x % 32;
    if (lane == 0) storage.partials[threadIdx.x / 32] = input;
    return input;
  }
 private:
  TempStorage &storage;
};

}  // namespace cub
CUB_NS_POSTFIX
"""


def test_a_vendored_cub_header_keeps_its_tree(tmp_path):
    folder = tmp_path / "3rdparty" / "cub"
    (folder / "block").mkdir(parents=True)
    (folder / "util_namespace.cuh").write_text("#pragma once\n#define CUB_NS_PREFIX\n#define CUB_NS_POSTFIX\n")
    header = folder / "block" / "block_reduce.cuh"
    header.write_text(VENDORED_BLOCK_REDUCE)
    result = analyze_path(header, tmp_path, codes=["ROC101"])
    assert result.health.error_count == 0, result.health.first_errors
    assert result.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED)
    assert ("ROC101", 24) in {(f.rule, f.line) for f in result.findings}


# Without CUB's headers the prelude's model still answers, and a project may specialize CUB's traits for its own
# types, which only a template of `cub` itself allows.
MODELLED_CUB_USER = """\
#include <cub/cub.cuh>
#include <type_traits>
#include <utility>

namespace cub {
template <> struct Traits<__half> { typedef unsigned short UnsignedBits; };
}

template <class T, std::enable_if_t<std::is_enum_v<T> || std::is_pod<T>::value, int> = 0>
void write(T value) {}

template <class F, size_t... I> void unroll(F &&f, std::index_sequence<I...>) { (f(I), ...); }

__global__ void block_sum(float *out, const float *in) {
  typedef cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  float sum = Reduce(storage).Sum(in[threadIdx.x]);
  cub::Traits<__half>::UnsignedBits bits = 0;
  out[blockIdx.x] = sum + bits;
}

void launch(float *out, const float *in) {
  unroll([&](size_t) { block_sum<<<1, 128>>>(out, in); }, std::make_index_sequence<4>{});
}
"""


def test_the_cub_model_takes_specializations_and_standard_traits(tmp_path):
    result = analyze_text(tmp_path, MODELLED_CUB_USER, name="block_sum.cu")
    assert result.health.error_count == 0, result.health.first_errors
    assert result.health.mode == ParseMode.AST_STUBBED


# lmdeploy's turbomind bindings and engine (fresh3, round 4): host code that owns CUDA buffers through smart pointers,
# counts with atomics, runs workers on threads and passes names as string views. The prelude's std had pointers
# without `*`, `bool` or `reset`, and no atomic, thread or string_view: 44 errors in one binding file.
HOST_OWNERSHIP = """\
#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

struct Buffer {
  void *data = nullptr;
  size_t size = 0;
};

std::atomic<int64_t> live{0};

std::shared_ptr<Buffer> allocate(size_t n, std::string_view tag) {
  auto buffer = std::make_shared<Buffer>();
  cudaMalloc(&buffer->data, n);
  (*buffer).size = n;
  live.fetch_add(1, std::memory_order_relaxed);
  return tag.empty() ? nullptr : buffer;
}

int main() {
  std::unique_ptr<int[]> host(new int[16]);
  host[0] = 1;
  std::vector<int> a{1, 2}, b{1, 2};
  std::shared_ptr<Buffer> buffer = allocate(64, "kv");
  std::thread worker([&] { cudaFree(buffer->data); });
  worker.join();
  if (!buffer || buffer == nullptr || !(a == b)) return 1;
  host.reset();
  auto address = reinterpret_cast<std::uintptr_t>((*buffer).data);
  return live.load(std::memory_order_acquire) + static_cast<int>(address);
}
"""


def test_host_code_owning_device_buffers_keeps_its_tree(tmp_path):
    result = analyze_text(tmp_path, HOST_OWNERSHIP, name="ownership.cu")
    assert result.health.error_count == 0, result.health.first_errors
    assert result.health.mode == ParseMode.AST_STUBBED


def test_glibcs_short_unsigned_names_are_declared(tmp_path):
    """pytorch3d's pulsar renderer (round 2's fresh half) declares its instantiations with `uint`, which glibc's
    <sys/types.h> names; a project's own identical typedef stays legal."""
    text = (
        "#include <cstdint>\n"
        "template <bool DEV> __global__ void render(float *out, const uint n) { out[n % 32] = 0.f; }\n"
        "template __global__ void render<true>(float *, const uint);\nushort tag = 0;\nulong count = 0;\n"
    )
    for name, source in (("renderer.cu", text), ("own_typedef.cu", "typedef unsigned int uint;\n" + text)):
        result = analyze_text(tmp_path, source, name=name)
        assert result.health.error_count == 0, (name, result.health.first_errors)
