"""The port that is already there: the repository's HIP switches and ROCm build (scanner.port), the #if branches
HIP-Clang compiles (scanner.analysis.hip_branches), and what both do to findings (scanner.analysis.port_notes)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from scanner import ScanOptions, Severity, plan, scan
from scanner.analysis.hip_branches import dead_lines
from scanner.parsing.tokens import Directive, Token
from tests.scanner.helpers import write_tree


def _directives(source: str) -> tuple[list[Directive], int]:
    """Directives of `source`, tokenised the way the token view does it (one text per token)."""
    import re

    out = []
    lines = source.split("\n")
    for number, line in enumerate(lines, 1):
        match = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if match:
            texts = re.findall(r"0[xX][0-9a-fA-F]+|\w+|&&|\|\||[<>=!]=|<<|>>|\S", match.group(2))
            tokens = tuple(Token("identifier", t, number, 1, 0) for t in texts)
            out.append(Directive(match.group(1), number, number, tokens))
    return out, len(lines)


def _dead(source: str, macros=()) -> set[int]:
    directives, count = _directives(textwrap.dedent(source).strip("\n"))
    return set(dead_lines(directives, count, frozenset(macros)))


@pytest.mark.parametrize(
    "source, macros, expected",
    [
        # The CUDA side of the project's own switch.
        ("#ifdef GGML_USE_HIP\nhip();\n#else\ncuda();\n#endif", ["GGML_USE_HIP"], {4}),
        ("#if !defined(GGML_USE_HIP) && !defined(GGML_USE_MUSA)\ncuda();\n#endif", ["GGML_USE_HIP"], {2}),
        ("#if BNB_HIP\nhip();\n#else\ncuda();\n#endif", ["BNB_HIP"], {4}),
        # NVIDIA's macros are undefined under HIP, so 0.
        ("#if __CUDA_ARCH__ >= 800\nfast();\n#else\nslow();\n#endif", [], {2}),
        ("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700\nold();\n#endif", [], {2}),
        ("#if CUDA_VERSION >= 11000\nnew_api();\n#endif", [], {2}),
        ("#if CUDART_VERSION >= 12000\nnew_api();\n#else\nold_api();\n#endif", [], {2}),
        ("#if defined(CUDART_VERSION) && CUDART_VERSION >= 11080\nfp8();\n#endif", [], {2}),
        ("#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700\nboth();\n#endif", [], set()),
        ("#if __has_include(<nvml.h>)\nnvml();\n#endif", [], {2}),
        # HIP's own macros are defined: the #else of an AMD branch is dead.
        ("#if defined(__HIP_PLATFORM_AMD__)\namd();\n#elif defined(FOO)\nfoo();\n#else\nnv();\n#endif", [], {4, 6}),
        # Unknown project options decide nothing.
        ("#ifdef USE_FAST_MATH\nfast();\n#else\nslow();\n#endif", [], set()),
        ("#if defined(GGML_USE_HIP) && defined(RDNA3)\nwmma();\n#else\nother();\n#endif", ["GGML_USE_HIP"], set()),
        ("#if FOO(1)\nx();\n#endif", [], set()),
        # Nesting: the outer dead branch holds the inner directives.
        ("#ifndef GGML_USE_HIP\n#if __CUDA_ARCH__ >= 800\nx();\n#endif\n#endif", ["GGML_USE_HIP"], {2, 3, 4}),
        # An #elif after a branch of unknown outcome is unknown, not dead.
        ("#if defined(FOO)\na();\n#elif defined(__HIP__)\nb();\n#else\nc();\n#endif", [], {6}),
    ],
)
def test_dead_lines_under_hip_clang(source, macros, expected):
    assert _dead(source, macros) == expected


def test_a_cuda_version_the_projects_hip_side_defines_is_unknown_not_zero():
    source = "#if CUDART_VERSION >= 12000\nnew_api();\n#endif\n#ifdef CUDART_VERSION\nx();\n#endif"
    directives, count = _directives(source)
    assert set(dead_lines(directives, count)) == {2, 5}
    assert set(dead_lines(directives, count, project_defined=frozenset({"CUDART_VERSION"}))) == set()


def test_learns_switches_and_evidence(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "src/compat.cuh": """
            #if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
            #define PROJ_ON_AMD 1
            #include <hip/hip_runtime.h>
            #else
            #define PROJ_ON_AMD 0
            #endif
            #if defined(PROJ_ON_AMD) && defined(RDNA3)
            #define PROJ_WMMA 1
            #endif
            #ifdef GGML_USE_HIP
            #endif
            #if TORCH_HIP_VERSION >= 60000
            #endif
        """,
            "hip/CMakeLists.txt": "enable_language(HIP)\nadd_compile_definitions(MYLIB_USE_ROCM GGML_HIP_ROCWMMA)\n",
            ".github/workflows/amd.yml": "jobs:\n  test:\n    runs-on: [self-hosted, mi300x]\n",
        },
    )
    options, _jobs = plan(root, ScanOptions())
    port = options.port
    assert port.hip_macros == {"PROJ_ON_AMD", "GGML_USE_HIP", "MYLIB_USE_ROCM"}
    # A HIP language and an AMD CI job are signs, not a build: no target compiles anything for AMD.
    assert not port.ported and port.hip_builds == ()
    assert any("AMD GPU CI job in .github/workflows/amd.yml" in sign for sign in port.signs)
    assert any("HIP's runtime included in src/compat.cuh" in sign for sign in port.signs)


def test_plain_cuda_repository_has_no_port(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "k.cu": "#include <cuda_runtime.h>\n#ifdef USE_FAST\n#endif\n",
            ".github/workflows/ci.yml": "jobs:\n  t:\n    runs-on: ubuntu-latest\n    container: nvidia/cuda:12.4.0-devel\n",
        },
    )
    port = plan(root, ScanOptions())[0].port
    assert not port.ported and port.hip_macros == frozenset()


KERNEL = """
    #include "compat.cuh"
    __global__ void k(float* out) {
    #if PROJ_ON_AMD
        int lane = threadIdx.x % 64;
    #else
        int lane = threadIdx.x % 32;
    #endif
        int warp = threadIdx.x % 32;
        out[lane] = __shfl_sync(0xffffffff, (float)warp, 0);
    }
"""


def _findings(root: Path, code: str) -> list:
    return [f for result in scan(root, ScanOptions(enable=(code,))) for f in result.findings]


def test_finding_in_a_branch_hip_never_compiles_is_info_and_says_why(tmp_path):
    root = write_tree(
        tmp_path, {"compat.cuh": "#if defined(__HIP_PLATFORM_AMD__)\n#define PROJ_ON_AMD 1\n#endif\n", "k.cu": KERNEL}
    )
    by_line = {f.line: f for f in _findings(root, "ROC101") if f.path == "k.cu"}
    # Line 7 is the CUDA side of the project's switch; line 9 is shared code and stays high.
    assert by_line[7].severity == Severity.INFO
    assert "HIP-Clang does not compile this line (`#else`, line 6)" in by_line[7].message
    assert by_line[9].severity == Severity.HIGH and "HIP-Clang" not in by_line[9].message


def test_without_the_switch_the_same_code_stays_high(tmp_path):
    root = write_tree(tmp_path, {"compat.cuh": "#define PROJ_ON_AMD 0\n", "k.cu": KERNEL})
    by_line = {f.line: f for f in _findings(root, "ROC101") if f.path == "k.cu"}
    assert by_line[9].severity == Severity.HIGH
    assert "HIP-Clang" not in by_line[7].message


CUDA_CI = "jobs:\n  t:\n    runs-on: [self-hosted, nvidia-gpu]\n    steps:\n      - run: nvidia-smi\n"


TWIN_BUILDS = """
    project(p LANGUAGES CXX CUDA HIP)
    add_executable(k_cuda k.cu)
    add_executable(k_rocm k.hip)
"""


def test_ci_of_a_ported_repository_is_its_nvidia_side(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": TWIN_BUILDS,
            "k.cu": "__global__ void k() {}\n",
            "k.hip": "__global__ void k() {}\n",
            ".github/workflows/cuda.yml": CUDA_CI,
        },
    )
    findings = [f for f in _findings(root, "ROC235") if f.path.endswith("cuda.yml")]
    assert findings and all(f.severity == Severity.INFO for f in findings)
    assert "The HIP build cmake target `k_rocm` in CMakeLists.txt:4 (hipcc)" in findings[0].message


def test_an_amd_ci_job_makes_the_cuda_ci_jobs_the_nvidia_side_and_names_it(tmp_path):
    """The CI rules say "the ROCm port is never built or tested in CI": untrue once an AMD job exists. Judged on
    the tune half (bitsandbytes, exllamav2, torchao, xformers, DeepSpeed: their NVIDIA jobs beside ROCm ones)."""
    cuda_only = write_tree(tmp_path / "cuda", {".github/workflows/cuda.yml": CUDA_CI})
    assert all(f.severity != Severity.INFO for f in _findings(cuda_only, "ROC235"))
    root = write_tree(
        tmp_path / "both",
        {
            ".github/workflows/cuda.yml": CUDA_CI,
            ".github/workflows/rocm.yml": "jobs:\n  t:\n    runs-on: [self-hosted, rocm]\n",
        },
    )
    findings = [f for f in _findings(root, "ROC235") if f.path.endswith("cuda.yml")]
    assert findings and all(f.severity == Severity.INFO and "rocm.yml" in f.message for f in findings)


def test_a_hip_build_that_does_not_cover_the_cuda_sources_is_no_nvidia_side(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": TWIN_BUILDS + "add_executable(extra_cuda extra.cu)\n",
            "k.cu": "__global__ void k() {}\n",
            "k.hip": "__global__ void k() {}\n",
            "extra.cu": "__global__ void e() {}\n",
            ".github/workflows/cuda.yml": CUDA_CI,
        },
    )
    port = plan(root, ScanOptions())[0].port
    assert port.accepted == ("CMakeLists.txt:k_rocm",) and port.uncovered == ("extra.cu",)
    assert not port.ported
    findings = [f for f in _findings(root, "ROC235") if f.path.endswith("cuda.yml")]
    assert findings and all(f.severity != Severity.INFO for f in findings)


def test_the_teams_decision_decides_which_hip_build_counts(tmp_path):
    files = {
        "CMakeLists.txt": TWIN_BUILDS,
        "k.cu": "__global__ void k() {}\n",
        "k.hip": "__global__ void k() {}\n",
        ".github/workflows/cuda.yml": CUDA_CI,
    }
    root = write_tree(tmp_path, files)
    none = plan(root, ScanOptions(hip_builds=()))[0].port
    assert not none.ported and none.decision == "decided" and none.hip_builds[0][0] == "CMakeLists.txt:k_rocm"
    findings = [f for r in scan(root, ScanOptions(enable=("ROC235",), hip_builds=())) for f in r.findings]
    assert findings and all(f.severity != Severity.INFO for f in findings)
    # The repository's own declaration wins over the decision passed in.
    (root / ".rocport.toml").write_text('[port]\nhip_builds = ["CMakeLists.txt:k_rocm"]\n')
    assert plan(root, ScanOptions(hip_builds=()))[0].port.ported


def test_ci_of_an_unported_repository_keeps_its_severity(tmp_path):
    root = write_tree(tmp_path, {".github/workflows/cuda.yml": CUDA_CI})
    findings = _findings(root, "ROC235")
    assert findings and all(f.severity != Severity.INFO for f in findings)


def test_lane_logic_an_amd_build_compiles_is_judged_as_hip_code(tmp_path):
    # A HIP build compiling the file does not make its 32-lane code right: nothing is lowered because it exists.
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "project(p LANGUAGES CXX HIP)\nadd_executable(k k.cu)\n"
            "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n",
            "k.cu": "__global__ void k(float* o) {\n  int lane = threadIdx.x % warpSize;\n"
            "  o[lane] = __shfl_down_sync(0xffffffff, o[lane], 1) + (threadIdx.x % 32);\n}\n",
        },
    )
    options, jobs = plan(root, ScanOptions())
    assert options.port.ported and [c.compiler for c in next(j for j in jobs if j.rel == "k.cu").build.amd] == ["hipcc"]
    findings = [f for r in scan(root, ScanOptions(enable=("ROC101", "ROC106"))) for f in r.findings]
    by_rule = {f.rule: f for f in findings}
    assert by_rule["ROC101"].severity == Severity.HIGH and "ROCm" not in by_rule["ROC101"].message
    assert by_rule["ROC106"].severity == Severity.HIGH


def test_per_platform_constants_shims_feature_macros_and_twins(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": "project(p LANGUAGES CXX HIP)\n",
            "common.cuh": """
            #if defined(__HIP_PLATFORM_AMD__)
            #define P_WARP 64
            #define P_MASK 0xffffffffffffffffull
            #define __shfl_xor_sync(mask, var, lane, width) __shfl_xor(var, lane, width)
            #else
            #define P_WARP 32
            #define P_MASK 0xffffffffu
            #define NEW_MMA 1
            #endif
        """,
            "k.cu": """
            #include "common.cuh"
            __global__ void k(float* o) {
              int lane = threadIdx.x % P_WARP;
              o[lane] = __shfl_down_sync(P_MASK, o[lane], 1) + __shfl_xor_sync(0xffffffff, o[lane], 1, 32);
            #ifdef NEW_MMA
              o[0] = __shfl_down_sync(0xffffffff, o[0], 16);
            #endif
            }
        """,
            "old/kernels.cu": "__global__ void q(int* o) { o[threadIdx.x % 32] = __shfl_down_sync(0xffffffff, 1, 1); }\n",
            "old/kernels.hip": "__global__ void q(int* o) { o[threadIdx.x % warpSize] = 1; }\n",
        },
    )
    port = plan(root, ScanOptions())[0].port
    assert {"P_WARP", "P_MASK"} <= port.per_platform
    assert port.shims == {"__shfl_xor_sync"}
    assert "NEW_MMA" in port.hip_undefined
    assert port.hip_twins == {"old/kernels.cu"}
    findings = [f for r in scan(root, ScanOptions(enable=("ROC101", "ROC106"))) for f in r.findings]
    k = [(f.line, f.rule, f.severity) for f in findings if f.path == "k.cu"]
    # The per-platform lane arithmetic and mask, and the shimmed shuffle, are the project's: nothing reported on
    # lines 4-5. The NEW_MMA branch is defined only where HIP never looks: info.
    assert k == [(7, "ROC106", Severity.INFO)]
    twin = [f for f in findings if f.path == "old/kernels.cu"]
    assert twin and all(f.severity == Severity.INFO and "HIP twin" in f.message for f in twin)


def test_cuda_names_the_projects_hip_header_maps_are_already_ported(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "vendors/hip.h": "#pragma once\n#include <hip/hip_runtime.h>\n#define cuMemCreate hipMemCreate\n"
            # driver types spelled CU + lower case (ggml's vendors/hip.h)
            "#define CUdeviceptr hipDeviceptr_t\n",
            "vmm.cu": """
            #include <cuda.h>
            #if defined(USE_HIP)
            #include "vendors/hip.h"
            #endif
            void reserve(CUmemGenericAllocationHandle* h, CUmemAllocationProp* p) {
              cuMemCreate(h, 1 << 21, p, 0);
              cuMemRelease(*h);
              CUdeviceptr base = 0;
            }
        """,
        },
    )
    findings = [f for r in scan(root, ScanOptions(enable=("ROC161",))) for f in r.findings if f.path == "vmm.cu"]
    by_line = {f.line: f for f in findings}
    assert by_line[7].severity == Severity.INFO and "maps `cuMemCreate`" in by_line[7].message
    assert by_line[9].severity == Severity.INFO and "maps `CUdeviceptr`" in by_line[9].message
    assert by_line[8].severity != Severity.INFO  # cuMemRelease is not in the project's header


def test_sources_cmake_adds_only_to_the_cuda_build_are_not_in_the_rocm_build(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": """
            set(GPU_FILES csrc/ops.cu)
            if(BUILD_CUDA)
                list(APPEND SRC ${GPU_FILES} csrc/mma_sm80.cu)  # sm80+ only
            elseif(BUILD_HIP)
                enable_language(HIP)
                list(APPEND SRC ${GPU_FILES})
            endif()
        """,
            "csrc/ops.cu": '#include "common.cuh"\n__global__ void k(int* o) { o[threadIdx.x % 32] = warpSize; }\n',
            "csrc/mma_sm80.cu": '#include "mma.cuh"\n#include "common.cuh"\n__global__ void m(int* o) { mma(o); }\n',
            # Included by the sm80 source alone: CUDA-only too. common.cuh is shared and stays in the ROCm build.
            "csrc/mma.cuh": '__device__ void mma(int* o) { asm volatile("mma.sync.aligned.m16n8k16 {};"); }\n',
            "csrc/common.cuh": '__device__ void c(int* o) { asm volatile("mov.u32 %0, %%laneid;" : "=r"(o[0])); }\n',
        },
    )
    port = plan(root, ScanOptions())[0].port
    assert port.cuda_only_sources == {"csrc/mma_sm80.cu", "csrc/mma.cuh"}
    findings = {f.path: f for r in scan(root, ScanOptions(enable=("ROC120",))) for f in r.findings}
    assert findings["csrc/mma.cuh"].severity == Severity.INFO
    assert "only for CUDA" in findings["csrc/mma.cuh"].message
    assert findings["csrc/common.cuh"].severity != Severity.INFO


@pytest.mark.parametrize(
    "condition, guarded",
    [
        ("defined(__HIP_PLATFORM_AMD__)", True),
        ("GGML_USE_HIP", True),
        ("defined(USE_ROCM)", True),
        ("__CUDA_ARCH__ >= 800", True),
        ("defined(__NVPTX__)", True),
        ("__gfx942__", True),
        ("defined(CHIP_ID)", False),
        ("defined(WITH_GRAPHICS)", False),
        ("hipster", False),
        ("PROJ_ON_AMD", False),  # a project's own switch: scanner.port learns it, hip_branches evaluates it
    ],
)
def test_one_platform_guard_for_every_rule(condition, guarded):
    from scanner.analysis.context import PLATFORM_GUARD

    assert bool(PLATFORM_GUARD.search(condition)) is guarded


def test_headers_reached_only_through_cuda_only_headers_are_not_in_the_rocm_build(tmp_path):
    # A kernel-template chain: the sm90 sources include launch.h, which includes kernel.h, which includes lanes.h;
    # stray.h includes lanes.h too but nothing includes stray.h. shared.h is also included by the HIP-built op.
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": """
            set(SRC src/op.cu)
            if(USE_CUDA)
                list(APPEND SRC src/attn/fwd_sm90_fp16.cu src/attn/fwd_sm90_bf16.cu)
            elseif(USE_HIP)
                enable_language(HIP)
            endif()
            add_library(ops ${SRC})
        """,
            "src/op.cu": '#include "attn/shared.h"\n__global__ void op(int* o) { o[0] = 1; }\n',
            "src/attn/fwd_sm90_fp16.cu": '#include "attn/launch.h"\n',
            "src/attn/fwd_sm90_bf16.cu": '#include "attn/launch.h"\n',
            "src/attn/launch.h": '#pragma once\n#include "kernel.h"\n#include "shared.h"\n',
            "src/attn/kernel.h": '#pragma once\n#include "lanes.h"\n',
            "src/attn/lanes.h": "#pragma once\n__device__ int lane() { return threadIdx.x % 32; }\n",
            "src/attn/stray.h": '#pragma once\n#include "lanes.h"\n',
            "src/attn/shared.h": "#pragma once\n__device__ int quarter() { return threadIdx.x % 32; }\n",
        },
    )
    only = plan(root, ScanOptions())[0].port.cuda_only_sources
    assert {"src/attn/launch.h", "src/attn/kernel.h", "src/attn/lanes.h"} <= only
    assert "src/attn/shared.h" not in only and "src/attn/stray.h" not in only
    findings = {f.path: f for r in scan(root, ScanOptions(enable=("ROC101",))) for f in r.findings}
    assert findings["src/attn/lanes.h"].severity == Severity.INFO
    assert findings["src/attn/shared.h"].severity != Severity.INFO


def test_sources_the_hip_branch_removes_from_the_same_target_are_not_in_the_rocm_build(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "CMakeLists.txt": """
            option(USE_CUDA "CUDA" OFF)
            option(USE_HIP "HIP" OFF)
            set(GPU_SOURCES src/norm.cu src/quant/int4_gemm.cu)
            if(USE_CUDA)
                enable_language(CUDA)
                add_library(engine SHARED ${GPU_SOURCES})
            elseif(USE_HIP)
                enable_language(HIP)
                list(REMOVE_ITEM GPU_SOURCES src/quant/int4_gemm.cu)
                set_source_files_properties(${GPU_SOURCES} PROPERTIES LANGUAGE HIP)
                add_library(engine SHARED ${GPU_SOURCES})
            endif()
        """,
            "src/norm.cu": '__global__ void norm(int* o) { asm volatile("mov.u32 %0, %%laneid;" : "=r"(o[0])); }\n',
            "src/quant/int4_gemm.cu": '__global__ void g(int* o) { asm volatile("lop3.b32 %0, %0, %0, %0, 0x6a;" : "+r"(o[0])); }\n',
        },
    )
    only = plan(root, ScanOptions())[0].port.cuda_only_sources
    assert "src/quant/int4_gemm.cu" in only and "src/norm.cu" not in only
    findings = {f.path: f for r in scan(root, ScanOptions(enable=("ROC120",))) for f in r.findings}
    assert findings["src/quant/int4_gemm.cu"].severity == Severity.INFO
    assert "only for CUDA" in findings["src/quant/int4_gemm.cu"].message
    assert findings["src/norm.cu"].severity == Severity.HIGH


# A library in CCCL's style: its feature macros come from NVIDIA's version macros in an extension-less header
# the scan does not list (`<lib/detail/__config>`), and its kernels test those macros with a fallback beside.
FEATURE_CONFIG = """#pragma once
#if defined(CUDART_VERSION) && (CUDART_VERSION >= 12010)
#define FLIB_HAS_INVOKE_ONE
#endif
"""
FEATURE_KERNEL = """#include <cooperative_groups.h>
#include <flib/detail/__config>
namespace cg = cooperative_groups;

__global__ void reset(int *counter) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
#if defined(FLIB_HAS_INVOKE_ONE)
  cg::invoke_one(tile, [&] { counter[0] = 0; });
#else
  if (tile.thread_rank() == 0) { counter[0] = 0; }
#endif
  cg::invoke_one(tile, [&] { counter[1] = 0; });
}
"""


def test_a_feature_macro_an_extension_less_header_defines_from_cudart_version_is_undefined_on_hip(tmp_path):
    """cuCollections' `CUCO_HAS_CG_INVOKE_ONE`: defined in `include/cuco/detail/__config` only when CUDART_VERSION
    says CUDA 12.1, which HIP-Clang leaves undefined; so HIP compiles the `#else` fallback, not `invoke_one`."""
    files = {"include/flib/detail/__config": FEATURE_CONFIG, "include/flib/kernels.cuh": FEATURE_KERNEL}
    by_line = {f.line: f for f in _findings(write_tree(tmp_path / "lib", files), "ROC155")}
    assert by_line[8].severity == Severity.INFO and "FLIB_HAS_INVOKE_ONE )`, line 7" in by_line[8].message
    assert by_line[12].severity == Severity.HIGH  # unguarded: HIP compiles it


def test_the_same_macro_stays_live_where_the_projects_hip_side_defines_cudart_version(tmp_path):
    hip_side = "#if defined(__HIP_PLATFORM_AMD__)\n#define CUDART_VERSION 12020\n#endif\n" + FEATURE_CONFIG
    files = {"include/flib/detail/__config": hip_side, "include/flib/kernels.cuh": FEATURE_KERNEL}
    by_line = {f.line: f for f in _findings(write_tree(tmp_path / "lib", files), "ROC155")}
    assert by_line[8].severity == Severity.HIGH
    # Defined unconditionally: the guard holds on every platform.
    files["include/flib/detail/__config"] = "#pragma once\n#define FLIB_HAS_INVOKE_ONE\n"
    by_line = {f.line: f for f in _findings(write_tree(tmp_path / "always", files), "ROC155")}
    assert by_line[8].severity == Severity.HIGH
