"""32-lane groups kept throughout (scanner.rules.warp._groups): 32s that agree with each other are a note, 32s that
meet the hardware's 64 stay findings; and the shapes where a 32 is not a lane at all."""

from __future__ import annotations

from pathlib import Path

from scanner import ScanOptions, Severity, scan
from tests.scanner.helpers import write_tree

WARP_CODES = tuple(f"ROC{n}" for n in range(101, 111))

# llm.c's block reduction: lanes, warps, slots and the xor tree all count 32; nothing spans 64 lanes.
CONSISTENT = """
    __device__ float warpReduceSum(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xFFFFFFFFull, v, o);
        return v;
    }
    __global__ void norm(float* out, const float* in) {
        __shared__ float slots[32];
        int lane = threadIdx.x % 32;
        int warp = threadIdx.x / 32;
        int warps = blockDim.x / 32;
        float s = warpReduceSum(in[threadIdx.x]);
        if (lane == 0) slots[warp] = s;
        __syncthreads();
        s = lane < warps ? slots[lane] : 0.f;
        out[blockIdx.x] = warpReduceSum(s);
    }
"""


def _findings(root: Path, codes=WARP_CODES, path: str = "k.cu") -> dict[tuple[int, str], object]:
    results = scan(root, ScanOptions(enable=codes))
    return {(f.line, f.rule): f for result in results if result.path == path for f in result.findings}


def _severities(found) -> dict[str, set]:
    out: dict[str, set] = {}
    for (_, code), finding in found.items():
        out.setdefault(code, set()).add(finding.severity)
    return out


def test_a_kernel_that_keeps_to_32_lane_groups_gets_notes_that_say_so(tmp_path):
    found = _findings(write_tree(tmp_path, {"k.cu": CONSISTENT}))
    assert {"ROC101", "ROC102", "ROC103"} <= {code for _, code in found}
    for (line, code), finding in found.items():
        if code in ("ROC101", "ROC102", "ROC103"):
            assert finding.severity == Severity.INFO, (line, code, finding.message)
            assert "keeps to 32-lane groups" in finding.message
            assert "wrong on AMD" not in finding.message  # the breaking claim is dropped, the shape kept


def test_warpsize_beside_the_32s_keeps_them_findings(tmp_path):
    mixed = CONSISTENT.replace("int warps = blockDim.x / 32;", "int warps = blockDim.x / warpSize;")
    severities = _severities(_findings(write_tree(tmp_path, {"k.cu": mixed})))
    assert Severity.HIGH in severities["ROC101"]


def test_a_broadcast_at_the_default_width_crosses_the_halves(tmp_path):
    # Lane 0's total sent to every lane: on a 64-lane wavefront lanes 32-63 get the first group's.
    broadcast = CONSISTENT.replace("return v;", "return __shfl_sync(0xFFFFFFFFull, v, 0);")
    severities = _severities(_findings(write_tree(tmp_path, {"k.cu": broadcast})))
    assert Severity.HIGH in severities["ROC101"] and Severity.HIGH in severities["ROC103"]


def test_an_absolute_source_lane_through_a_shuffle_helper_crosses_the_halves(tmp_path):
    # apex's cuWelfordMuSigma2: ATen's WARP_SHFL(v, srcLane) has the wavefront's width; `& 31` keeps srcLane in the
    # first half, so lanes 32-63 read it.
    source = """
        template <typename T> __device__ T WARP_SHFL(T v, int src, int width = warpSize);
        template <typename U> __device__ void welford(U& mu) {
            for (int l = 0; l <= 4; ++l) {
                int srcLaneB = (threadIdx.x + (1 << l)) & 31;
                mu += WARP_SHFL(mu, srcLaneB);
            }
        }
        template <typename U> __global__ void norm(U* out) {
            U mu = out[threadIdx.x];
            welford<U>(mu);
            if (threadIdx.x % 32 == 0) out[threadIdx.y] = mu;
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}), codes=("ROC101",))
    assert found[(12, "ROC101")].severity == Severity.HIGH


def test_a_down_tree_from_16_gives_each_group_its_sum_at_its_first_lane(tmp_path):
    # welford.cu's warp_reduce_sum: read at `tid % 32 == 0` only; lane 32's tree reads lanes 32-63 alone.
    down = CONSISTENT.replace("__shfl_xor_sync", "__shfl_down_sync")
    severities = _severities(_findings(write_tree(tmp_path, {"k.cu": down})))
    assert severities["ROC101"] == {Severity.INFO} and severities["ROC103"] == {Severity.INFO}


def test_a_helper_in_a_header_is_read_where_clang_found_it(tmp_path):
    helper, kernel = CONSISTENT.split("__global__")
    kernel = '#include "reduce.cuh"\n__global__' + kernel
    found = _findings(write_tree(tmp_path, {"reduce.cuh": helper, "k.cu": kernel}))
    assert _severities(found)["ROC101"] == {Severity.INFO}
    broadcast = helper.replace("return v;", "return __shfl_sync(0xFFFFFFFFull, v, 0);")
    found = _findings(write_tree(tmp_path, {"reduce.cuh": broadcast}))
    assert Severity.HIGH in _severities(found)["ROC101"]


def test_cub_warp_reduce_without_a_width_spans_the_wavefront(tmp_path):
    # bitsandbytes' kgemm_4bit_inference_naive before its port: rows per 32-lane warp, reduced by CUB's default.
    source = """
        #include <cub/cub.cuh>
        __global__ void gemv(float* out, const float* a, int K) {
            typedef cub::WarpReduce<float> WarpReduce;
            __shared__ typename WarpReduce::TempStorage temp[4];
            const int warp_idx = threadIdx.x / 32;
            const int warp_lane = threadIdx.x % 32;
            float acc = 0.f;
            for (int i = warp_lane * 4; i < K; i += 32 * 4) acc += a[warp_idx * K + i];
            acc = WarpReduce(temp[warp_idx]).Sum(acc);
            if (warp_lane == 0) out[warp_idx] = acc;
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}))
    stride = [f for (line, code), f in found.items() if code == "ROC101" and "strides" in f.message]
    assert stride and "WarpReduce<...> without a width" in stride[0].message
    assert stride[0].severity == Severity.HIGH


def test_an_explicit_width_of_32_is_the_group_the_reduction_covers(tmp_path):
    # apex's softmax: WARP_SIZE is a template parameter at 32 and every shuffle passes it as the width.
    source = """
        template <int WARP_BATCH, int WARP_SIZE = 32>
        __global__ void softmax(float* out, const float* in) {
            float sum = in[threadIdx.x];
            for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
                sum += __shfl_xor_sync(0xffffffffffffffffull, sum, offset, WARP_SIZE);
            out[threadIdx.x] = sum;
        }
        template __global__ void softmax<1>(float*, const float*);
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}))
    assert not [key for key in found if key[1] == "ROC103"]
    roc104 = [f for (line, code), f in found.items() if code == "ROC104"]
    assert roc104 and roc104[0].severity == Severity.INFO and "`softmax` keeps to 32-lane groups" in roc104[0].message


def test_bit_fields_and_block_boundaries_are_not_lanes(tmp_path):
    source = """
        __global__ void unpack(int* out, const int* q, int n) {
            const int qh = q[0] >> (4 * (threadIdx.x % 4));
            int v = (qh >> 5) & 0x00001000;
            const int iqs = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
            if (iqs % 32 != 0) return;
            const float delta = q[1] & (0x08 << 4 * (threadIdx.x % 2)) ? 1.f : 2.f;
            for (int l = 0; l <= 4; ++l) v += __shfl_sync(0xffffffffffffffffull, v, (threadIdx.x + (1 << l)) & 31);
            if (threadIdx.x % 32 == 0)
                out[blockIdx.x] = v + (int)delta;
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}))
    lines = {line for line, _ in found}
    assert not {3, 4, 6, 7} & lines  # shift amounts below 32, a masked bit field, an alignment test
    # `1 << l` runs to 16: no lane mask; the source lane `& 31` at the default width is a lane use (lanes
    # 32-63 read the first half), and so is one leader per 32-lane warp.
    assert (8, "ROC108") not in found and (8, "ROC101") in found
    assert (9, "ROC101") in found


def test_tiles_of_32_are_a_finding_only_beside_whole_wavefront_code(tmp_path):
    source = """
        #include <cooperative_groups.h>
        namespace cg = cooperative_groups;
        __global__ void tiles(float* out) {
            cg::thread_block block = cg::this_thread_block();
            cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
            out[warp.meta_group_rank()] = warp.shfl_down(1.f, 1);
        }
        __global__ void mixed(float* out) {
            cg::thread_block block = cg::this_thread_block();
            cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
            out[threadIdx.x / warpSize] = warp.thread_rank();
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}), codes=("ROC110",))
    assert {line for line, _ in found} == {11}


def test_a_two_d_block_whose_kernel_reduces_through_shared_memory_is_a_tile(tmp_path):
    source = """
        __global__ void partial(float* out) {
            __shared__ float s[4][33];
            s[threadIdx.y][threadIdx.x] = out[threadIdx.x];
            __syncthreads();
            out[threadIdx.y] = s[threadIdx.y][0];
        }
        __global__ void shuffled(float* out) {
            out[0] = __shfl_down_sync(0xffffffffffffffffull, out[threadIdx.x], 1);
        }
        void launch(float* out) {
            const dim3 tile(32, 4, 1);
            partial<<<1, tile>>>(out);
            const dim3 rows(32, 4, 1);
            shuffled<<<1, rows>>>(out);
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cu": source}), codes=("ROC110",))
    assert {line for line, _ in found} == {14}


def test_another_vendors_backend_is_not_a_hip_file(tmp_path):
    found = _findings(
        write_tree(
            tmp_path,
            {
                "src/ggml-sycl/presets.hpp": "#define QK_WARP_SIZE 32\n",
                "src/ggml-cuda/presets.cuh": "#define QK_WARP_SIZE 32\n",
            },
        ),
        path="src/ggml-sycl/presets.hpp",
    )
    assert not found
    assert _findings(tmp_path, path="src/ggml-cuda/presets.cuh")


def test_a_warp_size_check_inside_an_assert_macro_is_found_on_its_line(tmp_path):
    # faiss' StandardGpuResources: the check sits in a macro's argument, where clang gives it no text of its own.
    source = """
        #include <cstdio>
        #define CHECK_FMT(X, FMT, ...) do { if (!(X)) { fprintf(stderr, FMT, __VA_ARGS__); } } while (0)
        struct Prop { int warpSize; };
        void init(const Prop& prop, int device) {
            CHECK_FMT(
                prop.warpSize == 32,
                "device %d is not 32 wide", device);
        }
    """
    found = _findings(write_tree(tmp_path, {"k.cpp": source}), codes=("ROC101",), path="k.cpp")
    assert list(found) == [(7, "ROC101")] and "`warpSize == 32`" in found[(7, "ROC101")].message


def test_a_launch_of_32_is_judged_by_the_kernel_clang_found_in_a_header(tmp_path):
    # A PyTorch-extension layout: kernels in a header, launches in the .cu that includes it.
    kernels = """
        __global__ void scale_rows(float* x, float a, int n) {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) x[i] *= a;
        }
        __global__ void any_negative(const float* x, int* flags) {
            const unsigned long long m = __ballot_sync(__activemask(), x[threadIdx.x] < 0.f);
            if (threadIdx.x == 0) flags[blockIdx.x] = m != 0ull;
        }
        __global__ void group_sums(float* x) {
            float v = x[threadIdx.x];
            for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffffffffffull, v, o, 32);
            x[threadIdx.x] = v;
        }
    """
    launches = """
        #include "kernels.cuh"
        void run(float* x, int* flags, int n) {
            scale_rows<<<(n + 31) / 32, 32>>>(x, 2.f, n);
            any_negative<<<n / 32, 32>>>(x, flags);
            group_sums<<<n / 32, 32>>>(x);
        }
    """
    root = write_tree(tmp_path, {"kernels.cuh": kernels, "k.cu": launches})
    found = _findings(root, codes=("ROC110",))
    assert {line: f.severity for (line, _), f in found.items()} == {5: Severity.MEDIUM, 6: Severity.INFO}


# A sample collection's common header: a warp size it never uses itself, for the files that include it.
COMMON_HEADER = """
    #pragma once
    namespace example {
        constexpr unsigned int warp_size = 32u;
        template <class T> __device__ T square(T v) { return v * v; }
    }
"""
# Shared-memory padding against bank conflicts: any value computes the same.
PADDED_IO = """
    #pragma once
    #include "../common/common.hpp"
    template <unsigned FramesPerBank, class T>
    struct strided_io {
        static constexpr auto pad = (example::warp_size + (FramesPerBank - 1)) / FramesPerBank;
        static __device__ void load(const T* in, T* smem, unsigned n) {
            for (unsigned i = threadIdx.x; i < n; i += blockDim.x) smem[i + i / 32 * pad] = in[i];
            __syncthreads();
        }
    };
"""
# The same name feeding a shuffle tree: per-warp work.
WARP_REDUCE = """
    #pragma once
    #include "../common/common.hpp"
    __device__ float warp_total(float v) {
        for (unsigned o = example::warp_size / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
        return v;
    }
"""


def _header_constant(root: Path) -> list:
    found = [f for r in scan(root, ScanOptions(enable=("ROC104",))) for f in r.findings]
    return [(f.path, f.line, f.severity) for f in found if f.path == "common/common.hpp"]


def test_a_headers_warp_size_that_its_includers_only_pad_with_is_low(tmp_path):
    root = write_tree(tmp_path, {"common/common.hpp": COMMON_HEADER, "conv/io.hpp": PADDED_IO})
    assert _header_constant(root) == [("common/common.hpp", 4, Severity.LOW)]


def test_a_headers_warp_size_an_includer_shuffles_by_stays_high(tmp_path):
    root = write_tree(
        tmp_path, {"common/common.hpp": COMMON_HEADER, "conv/io.hpp": PADDED_IO, "reduce/warp.hpp": WARP_REDUCE}
    )
    assert _header_constant(root) == [("common/common.hpp", 4, Severity.HIGH)]
    # And with no includer at all, nothing says how it is used: the finding stands.
    alone = write_tree(tmp_path / "alone", {"common/common.hpp": COMMON_HEADER})
    assert _header_constant(alone) == [("common/common.hpp", 4, Severity.HIGH)]
