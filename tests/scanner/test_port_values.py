"""A project's own HIP layer: macros derived from HIP's platform macros in its headers, and CUDA switches its CMake
defines only in the CUDA branch (scanner.port_values), and what they do to findings under them."""

from __future__ import annotations

from scanner import ScanOptions, Severity, plan, scan
from tests.scanner.helpers import write_tree

DEVICE_H = """
    #pragma once
    #if defined(__HIP_PLATFORM_AMD__)
    #include <hip/hip_runtime.h>
    #define COMM_DEVICE_HIP
    #else
    #define COMM_DEVICE_CUDA
    #endif
"""

GPU_H = """
    #pragma once
    #include "device.h"
    #if defined(COMM_DEVICE_HIP)
    using CUdeviceptr = hipDeviceptr_t;
    #define COMM_NVLS_SUPPORTED 0
    #else
    #include <cuda.h>
    #define COMM_NVLS_SUPPORTED (CUDART_VERSION >= 12030)
    #endif
    #define COMM_PEER_COPY !defined(__HIP_PLATFORM_AMD__)
"""

ATOMIC_H = """
    #pragma once
    #if defined(COMM_USE_CUDA) && !defined(COMM_DEVICE_CUDA)
    #define COMM_DEVICE_CUDA
    #endif
"""

CMAKE = """
    project(comm LANGUAGES CXX)
    add_library(comm_obj OBJECT src/switch.cu src/nvls.cc src/utils.cc src/allreduce.cu src/mem.cc)
    if(COMM_USE_CUDA)
        target_compile_definitions(comm_obj PRIVATE COMM_USE_CUDA)
    elseif(COMM_USE_ROCM)
        target_compile_definitions(comm_obj PRIVATE COMM_USE_ROCM)
        target_compile_options(comm_obj PRIVATE --offload-arch=gfx942)
    endif()
"""

SWITCH_CU = """
    #include "../include/atomic.h"
    #include "../include/gpu.h"
    #if defined(COMM_DEVICE_CUDA)
    __device__ void multimem_store(float* ptr, float v) {
      asm volatile("multimem.st.relaxed.sys.global.f32 [%0], %1;" ::"l"(ptr), "f"(v) : "memory");
    }
    #endif
    __global__ void barrier(int* flags) {
    #if COMM_NVLS_SUPPORTED && (__CUDA_ARCH__ >= 900)
      flags[threadIdx.x] = 1;
    #endif
    }
"""

NVLS_CC = """
    #include "../include/gpu.h"
    #if COMM_NVLS_SUPPORTED
    size_t granularity(CUmulticastObjectProp* prop) {
      size_t gran = 0;
      cuMulticastGetGranularity(&gran, prop, CU_MULTICAST_GRANULARITY_RECOMMENDED);
      return gran;
    }
    #endif
"""

ALLREDUCE_CU = """
    #include "switch.cu"
    __device__ float fused_scale(float v) { return v * 0.5f; }
    __global__ void allreduce(float* out, float v) {
    #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      multimem_store(out + threadIdx.x, v);
    #endif
    #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      out[threadIdx.x] = fused_scale(v);
    #endif
    }
"""

MEM_CC = """
    #include "../include/gpu.h"
    size_t reserve(size_t bytes) {
      CUdeviceptr base = 0;
      return bytes + (size_t)base;
    }
"""

UTILS_CC = """
    #if defined(COMM_USE_CUDA)
    #include <nvml.h>
    #endif
    int fabric_state() {
    #if defined(COMM_USE_CUDA)
      nvmlDevice_t device;
      return nvmlDeviceGetHandleByIndex(0, &device);
    #else
      return 0;
    #endif
    }
"""


def _tree(tmp_path, cmake: str = CMAKE, gpu: str = GPU_H):
    return write_tree(
        tmp_path,
        {
            "CMakeLists.txt": cmake,
            "include/device.h": DEVICE_H,
            "include/gpu.h": gpu,
            "include/atomic.h": ATOMIC_H,
            "src/switch.cu": SWITCH_CU,
            "src/nvls.cc": NVLS_CC,
            "src/utils.cc": UTILS_CC,
            "src/allreduce.cu": ALLREDUCE_CU,
            "src/mem.cc": MEM_CC,
        },
    )


def _by_rule(root) -> dict:
    findings = [f for r in scan(root, ScanOptions(enable=("ROC120", "ROC140", "ROC150", "ROC158"))) for f in r.findings]
    out: dict = {}
    for f in findings:
        out.setdefault(f.rule, set()).add((f.path, f.line, f.severity))
    return out


def test_macros_derived_from_hips_platform_macros_and_the_cuda_only_build_switch(tmp_path):
    root = _tree(tmp_path)
    port = plan(root, ScanOptions())[0].port
    assert "COMM_DEVICE_HIP" in port.hip_macros
    # COMM_DEVICE_CUDA's second definition hides behind COMM_USE_CUDA, which CMake defines only in its CUDA branch.
    assert {"COMM_DEVICE_CUDA", "COMM_USE_CUDA"} <= port.hip_undefined
    assert dict(port.hip_values) == {"COMM_NVLS_SUPPORTED": 0, "COMM_PEER_COPY": 0}
    # `using CUdeviceptr = hipDeviceptr_t;` on the HIP side: the project's HIP layer already maps the name.
    assert "CUdeviceptr" in port.hip_mapped


def test_code_behind_the_projects_cuda_side_macros_is_info(tmp_path):
    root = _tree(tmp_path)
    mem = [f for r in scan(root, ScanOptions(enable=("ROC161",))) for f in r.findings if f.path == "src/mem.cc"]
    assert mem and all(f.severity == Severity.INFO for f in mem), [(f.line, f.severity, f.message) for f in mem]
    found = _by_rule(root)
    assert found["ROC120"] == {("src/switch.cu", 6, Severity.INFO)}
    # What HIP leaves out calls `multimem_store`, defined only under COMM_DEVICE_CUDA: the port's choice, a note.
    # The sm_80 branch calls a function HIP has: dropping it silently changes the result.
    assert found["ROC158"] == {
        ("src/switch.cu", 10, Severity.INFO),
        ("src/allreduce.cu", 5, Severity.INFO),
        ("src/allreduce.cu", 8, Severity.MEDIUM),
    }
    assert "multimem_store" in plan(tmp_path, ScanOptions())[0].port.hip_absent
    assert {severity for _p, _l, severity in found["ROC150"]} == {Severity.INFO}
    assert {severity for _p, _l, severity in found["ROC140"]} == {Severity.INFO}


def test_without_a_hip_branch_in_cmake_the_cuda_switch_is_unknown(tmp_path):
    cmake = "project(comm LANGUAGES CXX CUDA)\nif(COMM_USE_CUDA)\n  add_compile_definitions(COMM_USE_CUDA)\nendif()\n"
    root = _tree(tmp_path, cmake=cmake)
    port = plan(root, ScanOptions())[0].port
    assert "COMM_USE_CUDA" not in port.hip_undefined
    found = _by_rule(root)
    # NVML behind COMM_USE_CUDA: a switch the ROCm build may well define, so the finding is no NVIDIA-side note.
    assert Severity.INFO not in {severity for _p, _l, severity in found["ROC140"]}


def test_a_default_or_a_value_only_the_cuda_side_gives_is_no_hip_value(tmp_path):
    gpu = """
        #pragma once
        #include "device.h"
        #ifndef COMM_NVLS_SUPPORTED
        #define COMM_NVLS_SUPPORTED 0
        #endif
        #define COMM_TILE 32
    """
    root = _tree(tmp_path, gpu=gpu)
    port = plan(root, ScanOptions())[0].port
    # A default the build may override, and a constant that does not come from the platform: not learned.
    assert port.hip_values == ()
    found = _by_rule(root)
    assert {severity for _p, _l, severity in found["ROC150"]} == {Severity.MEDIUM}
    assert ("src/switch.cu", 10, Severity.MEDIUM) in found["ROC158"]
