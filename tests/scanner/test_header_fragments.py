"""Header fragments read after their includer (scanner.parsing.includers): a header that only makes sense inside
the file that includes it (an umbrella header's namespace and types, a declaration it defines) is read after the
includer's lines that precede its #include, keeps its own line numbers and its findings, and says so."""

from __future__ import annotations

from scanner import scan
from scanner.model import ParseMode
from scanner.parsing import includers

UMBRELLA = """#pragma once
#ifndef TILES_CUH
#define TILES_CUH
namespace tiles {
struct lane_tile { float v[8]; };
template <int N> struct rows { static constexpr int count = N; };
#include "ops/warp_sum.cuh"
}  // namespace tiles
#endif
"""
# Uses the namespace's types unqualified, as such fragments do: alone, clang knows none of them.
FRAGMENT = """#pragma once
__device__ inline float warp_sum(lane_tile &t, rows<4> r) {
  float s = t.v[0] * r.count;
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffff, s, offset);
  return s;
}
"""
KERNEL = """#include "tiles.cuh"
__global__ void k(float *out) { tiles::lane_tile t{}; out[threadIdx.x] = tiles::warp_sum(t, tiles::rows<4>{}); }
"""


def _tree(tmp_path, fragment: str = FRAGMENT):
    root = tmp_path / "repo"
    (root / "include/ops").mkdir(parents=True)
    (root / "include/tiles.cuh").write_text(UMBRELLA)
    (root / "include/ops/warp_sum.cuh").write_text(fragment)
    (root / "src").mkdir()
    (root / "src/k.cu").write_text(KERNEL)
    return root


def test_a_fragment_is_read_after_its_includer_and_keeps_its_lines_and_findings(tmp_path):
    results = {r.path: r for r in scan(_tree(tmp_path))}
    fragment = results["include/ops/warp_sum.cuh"]
    assert fragment.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), fragment.health.fallback_reason
    assert fragment.health.read_after == "include/tiles.cuh:7"
    # the offset-16 shuffle on the fragment's own line 4, found from the tree
    assert 4 in {f.line for f in fragment.findings if f.rule == "ROC103"}
    assert results["include/tiles.cuh"].health.read_after == ""


def test_a_header_that_reads_alone_is_not_read_again(tmp_path):
    whole = "#pragma once\n__device__ inline float twice(float x) { return 2.0f * x; }\n"
    results = {r.path: r for r in scan(_tree(tmp_path, whole))}
    assert results["include/ops/warp_sum.cuh"].health.read_after == ""
    assert results["include/ops/warp_sum.cuh"].health.mode in (ParseMode.AST, ParseMode.AST_STUBBED)


def test_includers_are_found_by_path_and_by_tail_and_their_open_guards_closed(tmp_path):
    root = _tree(tmp_path)
    (root / "src/other.cu").write_text("#include <ops/warp_sum.cuh>\n__global__ void g() {}\n")
    found = includers.index(str(root), ["include/tiles.cuh", "include/ops/warp_sum.cuh", "src/k.cu", "src/other.cu"])
    assert found["include/ops/warp_sum.cuh"] == (("src/other.cu", 1), ("include/tiles.cuh", 7))  # sources first
    assert found["include/tiles.cuh"] == (("src/k.cu", 1),)
    prefix = includers.prefix_of(UMBRELLA, 7)
    assert prefix.count("#endif") == 1 and "namespace tiles {" in prefix and "warp_sum" not in prefix


def test_the_cache_key_follows_the_includers_lines_before_the_include_only(tmp_path):
    """A result cache keyed on the header's blob must also change when the lines it is read after change (the
    portal's cache key takes `includers.key`), and only then."""
    from scanner import plan

    root = _tree(tmp_path)

    def key() -> str:
        _options, jobs = plan(root)
        return includers.key(next(j for j in jobs if j.rel == "include/ops/warp_sum.cuh"))

    before = key()
    (root / "include/tiles.cuh").write_text(UMBRELLA + "// a comment after the include\n")
    assert key() == before
    (root / "include/tiles.cuh").write_text(UMBRELLA.replace("float v[8]", "float v[16]"))
    assert key() != before


# ThunderKittens' shape (round 2's fresh half, open to tuning): the umbrella header brings the library's types in
# and opens `struct group {`, then includes `shared/shared.cuh`, which includes `vec/vec.cuh`, which includes
# `maps.cuh`: that last fragment reads only after all three includers' lines. The umbrella also includes more
# standard headers than the parse's reparse rounds could stub one fatal error at a time.
NESTED_UMBRELLA = (
    "#pragma once\n"
    + "".join(f"#include <{h}>\n" for h in ("bit", "concepts", "cstddef", "cstdint", "algorithm", "cassert"))
    + "".join(f"#include <{h}>\n" for h in ("cstdio", "cstdlib", "iostream", "stdexcept", "string", "unistd.h"))
    + """#include "types/types.cuh"
namespace kittens {
template <int WARPS> struct group {
  static constexpr int GROUP_THREADS = WARPS * 32;
  __device__ static inline int laneid() { return threadIdx.x % GROUP_THREADS; }
#include "shared/shared.cuh"
};
}  // namespace kittens
"""
)
NESTED_TYPES = "#pragma once\nnamespace kittens { namespace ducks { namespace sv { struct all {}; } } }\n"
NESTED_MAPS = """template <typename op, typename T>
__device__ static inline void unary_op(T &dst, const ducks::sv::all &src) {
  for (int cur = laneid(); cur < 64; cur += GROUP_THREADS) dst[cur] = __shfl_down_sync(0xffffffff, cur, 16);
}
"""


def test_a_fragment_its_includers_include_is_read_after_all_of_them(tmp_path):
    root = tmp_path / "repo"
    (root / "include/types").mkdir(parents=True)
    (root / "include/shared/vec").mkdir(parents=True)
    (root / "include/kittens.cuh").write_text(NESTED_UMBRELLA)
    (root / "include/types/types.cuh").write_text(NESTED_TYPES)
    (root / "include/shared/shared.cuh").write_text('#include "vec/vec.cuh"\n')
    (root / "include/shared/vec/vec.cuh").write_text('#include "maps.cuh"\n')
    (root / "include/shared/vec/maps.cuh").write_text(NESTED_MAPS)
    (root / "k.cu").write_text('#include "include/kittens.cuh"\n__global__ void k() {}\n')
    results = {r.path: r for r in scan(root)}
    maps = results["include/shared/vec/maps.cuh"]
    assert maps.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), maps.health.fallback_reason
    assert maps.health.error_count == 0, maps.health.first_errors
    assert maps.health.read_after == "include/shared/vec/vec.cuh:1"
    assert 3 in {f.line for f in maps.findings if f.rule == "ROC103"}


# A whole header (`#pragma once`) that defines its members in an `.inl` it includes at its end, as header-only
# libraries do; a source includes it twice over, through an umbrella header and by name.
WHOLE_MAP = """#pragma once
#include <cuda_runtime.h>
namespace kv {
template <class K> class open_map {
 public:
  explicit open_map(int capacity, cudaStream_t stream = nullptr);
  void insert(const K *keys, int n, cudaStream_t stream = nullptr);
  int size(cudaStream_t stream = nullptr) const;
 private:
  K *slots_ = nullptr;
  int capacity_ = 0;
};
}  // namespace kv
#include "detail/open_map.inl"
"""
MAP_INL = """namespace kv {
template <class K> __global__ void insert_kernel(K *slots, int capacity, const K *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) slots[keys[i] % capacity] = keys[i];
}

template <class K> open_map<K>::open_map(int capacity, cudaStream_t stream) : capacity_(capacity) {
  cudaMallocAsync(&slots_, capacity * sizeof(K), stream);
}

template <class K> void open_map<K>::insert(const K *keys, int n, cudaStream_t stream) {
  insert_kernel<<<(n + 127) / 128, 128, 0, stream>>>(slots_, capacity_, keys, n);
}

template <class K> int open_map<K>::size(cudaStream_t stream) const {
  cudaStreamSynchronize(stream);
  return capacity_;
}
}  // namespace kv
"""


def test_the_inl_of_a_whole_header_its_outer_includers_include_reads_without_redefinitions(tmp_path):
    """The `.inl`'s includer is a header other files include, so its includers' lines came first; but those lines
    include the whole header already (its `.inl` too), and the `.inl` read after them defined everything twice
    (cuCollections' static_map.inl, static_set.inl: tokens-only). The includer's lines alone read it cleanly."""
    root = tmp_path / "repo"
    (root / "include/detail").mkdir(parents=True)
    (root / "include/open_map.cuh").write_text(WHOLE_MAP)
    (root / "include/detail/open_map.inl").write_text(MAP_INL)
    (root / "include/all.cuh").write_text('#pragma once\n#include "open_map.cuh"\n')
    (root / "bench.cu").write_text(
        '#include "include/all.cuh"\n#include "include/open_map.cuh"\n'
        "int main() { kv::open_map<int> m(1024); m.insert(nullptr, 0); return m.size(); }\n"
    )
    results = {r.path: r for r in scan(root)}
    inl = results["include/detail/open_map.inl"]
    assert inl.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), inl.health.fallback_reason
    assert inl.health.error_count == 0, inl.health.first_errors
    assert inl.health.read_after == "include/open_map.cuh:14"


# An include cycle as a header-only runtime writes it: the umbrella header includes every part, and each part
# includes the umbrella. Parsed alone, `array.h` enters the cycle at its top, so `mesh.h` comes before `array_t`
# and its error recovery leaves `namespace wp {` open ("expected '}'" at the end of array.h: tokens-only).
CYCLE_BUILTIN = """#pragma once
#include <cuda_runtime.h>
namespace wp {
struct vec3 { float x, y, z; };
}  // namespace wp
#include "array.h"
#include "mesh.h"
"""
CYCLE_ARRAY = """#pragma once
#include "builtin.h"
namespace wp {
template <typename T> struct array_t {
  T *data;
  int shape;
};
template <typename T> __device__ inline T load(const array_t<T> &a, int i) { return a.data[i]; }
template <typename T> __device__ inline void atomic_add(array_t<T> &a, int i, T v) { atomicAdd(&a.data[i], v); }
}  // namespace wp
"""
CYCLE_MESH = """#pragma once
#include "builtin.h"
namespace wp {
struct Mesh {
  array_t<vec3> points;
  array_t<int> indices;
  vec3 *lowers;
  int num_tris;
  void *context;

  inline __host__ __device__ Mesh(int id = 0) {
    lowers = nullptr;
    num_tris = 0;
    context = nullptr;
  }

  inline __host__ __device__ Mesh(
      array_t<vec3> points,
      array_t<int> indices,
      int num_tris,
      void *context = nullptr
  )
      : points(points)
      , indices(indices)
      , num_tris(num_tris)
      , context(context)
  {
    lowers = nullptr;
  }
};

__host__ __device__ inline Mesh mesh_get(unsigned long long id) { return *(Mesh *)(id); }
__device__ inline vec3 first_point(const Mesh &m) { return load(m.points, 0); }
}  // namespace wp
"""
CYCLE_OPS = """#include "builtin.h"
#include "array.h"
__global__ void gather(wp::array_t<float> a, float *out) { out[threadIdx.x] = wp::load(a, threadIdx.x); }
"""


def test_a_header_of_an_include_cycle_is_read_after_its_includer(tmp_path):
    """The brace left open names nothing the includer declares, yet the includer's lines (`ops.cu` including the
    umbrella first) enter the cycle where the project does. Those lines include `array.h` itself, `#pragma once`
    being no guard for the main file: its second reading's "redefinition of" errors are not the file's."""
    root = tmp_path / "repo"
    (root / "native").mkdir(parents=True)
    (root / "native/builtin.h").write_text(CYCLE_BUILTIN)
    (root / "native/array.h").write_text(CYCLE_ARRAY)
    (root / "native/mesh.h").write_text(CYCLE_MESH)
    (root / "native/ops.cu").write_text(CYCLE_OPS)
    results = {r.path: r for r in scan(root)}
    array = results["native/array.h"]
    assert array.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), array.health.fallback_reason
    assert array.health.error_count == 0, array.health.first_errors
    assert array.health.read_after == "native/ops.cu:2"


# A portable header written for several shading languages, whose every declaration sits under the branch its
# includer picks with a #define; read alone, no branch is taken and its macros stay undefined.
PORTABLE_GRID = """#ifndef GRID_PORTABLE_H
#define GRID_PORTABLE_H
#if defined(GRID_C)
#define GRID_INLINE static inline
typedef unsigned int grid_uint32_t;
#elif defined(GRID_HLSL)
#define GRID_INLINE
#define grid_uint32_t uint
#endif
GRID_INLINE grid_uint32_t grid_leaf_count(grid_uint32_t dim) {
  grid_uint32_t leaves = (dim + 7u) / 8u;
  return leaves * leaves * leaves;
}
GRID_INLINE grid_uint32_t grid_voxel_offset(grid_uint32_t x, grid_uint32_t y, grid_uint32_t z) {
  grid_uint32_t lx = x & 7u;
  grid_uint32_t ly = (y & 7u) << 3;
  grid_uint32_t lz = (z & 7u) << 6;
  return lx | ly | lz;
}
GRID_INLINE grid_uint32_t grid_tile_offset(grid_uint32_t x, grid_uint32_t y, grid_uint32_t z) {
  grid_uint32_t tx = (x >> 3) & 15u;
  grid_uint32_t ty = ((y >> 3) & 15u) << 4;
  grid_uint32_t tz = ((z >> 3) & 15u) << 8;
  return tx | ty | tz;
}
#endif
"""
GRID_INCLUDER = """#pragma once
#define GRID_C
#include "portable/grid.h"
__device__ inline unsigned int leaf_of(unsigned int x) { return grid_voxel_offset(x, x, x); }
"""


def test_a_header_configured_by_its_includers_defines_is_read_after_them(tmp_path):
    """warp's PNanoVDB.h: every declaration sits under `#if defined(PNANOVDB_C)`, which volume.h defines before
    including it; alone, `PNANOVDB_FORCE_INLINE` was an unknown type on each line (tokens-only). The errors quote
    names the includer never spells, yet the includer's #define configures the header."""
    root = tmp_path / "repo"
    (root / "native/portable").mkdir(parents=True)
    (root / "native/portable/grid.h").write_text(PORTABLE_GRID)
    (root / "native/volume.h").write_text(GRID_INCLUDER)
    results = {r.path: r for r in scan(root)}
    grid = results["native/portable/grid.h"]
    assert grid.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED), grid.health.fallback_reason
    assert grid.health.error_count == 0, grid.health.first_errors
    assert grid.health.read_after == "native/volume.h:3"
    assert includers.configures("#define GRID_C\n", PORTABLE_GRID)
    assert not includers.configures("#define OTHER_FLAG\n", PORTABLE_GRID)
