"""CUDA's runtime headers' include guards, which code tests to know a header came first (the cuda-samples'
helper_cuda.h declares checkCudaErrors under `#ifdef __DRIVER_TYPES_H__`): the translator gives each the guard of
the HIP header its include becomes, so that what the guard kept visible stays visible. HIPIFY's table has none."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from tests.scanner.translate.helpers import body
from tests.tools import needs

HELPER = """
    #pragma once
    #include <stdio.h>
    #ifdef __DRIVER_TYPES_H__
    template <typename T> void check(T result, const char *what) {
      if (result) fprintf(stderr, "%s failed: %s\\n", what, cudaGetErrorString(result));
    }
    #define checkCudaErrors(val) check((val), #val)
    #endif
    #if defined(__CUDA_RUNTIME_H__) && !defined(__CUDA_RUNTIME_API_H__)
    #error "the runtime header without its API"
    #endif
    #ifdef __CUDA_RUNTIME_H__
    inline int findCudaDevice() { int n = 0; checkCudaErrors(cudaGetDeviceCount(&n)); return n ? 0 : -1; }
    #endif
"""
PROGRAM = """
    #include <cuda_runtime.h>
    #include "helper_cuda.h"
    __global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }
    int main() {
      float *x;
      findCudaDevice();
      checkCudaErrors(cudaMalloc(&x, 32 * sizeof(float)));
      scale<<<1, 32>>>(x);
      checkCudaErrors(cudaFree(x));
      return 0;
    }
"""


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("__DRIVER_TYPES_H__", "HIP_INCLUDE_HIP_DRIVER_TYPES_H"),
        ("__CUDA_RUNTIME_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_H"),
        ("__CUDA_RUNTIME_API_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H"),
    ],
)
def test_a_runtime_header_guard_becomes_its_hip_headers(cuda, hip):
    assert body(f"#ifdef {cuda}\nint a;\n#endif\n#if defined({cuda})\nint b;\n#endif\n") == (
        f"#ifdef {hip}\nint a;\n#endif\n#if defined({hip})\nint b;\n#endif\n"
    )


def test_cublas_guards_become_hipblas_but_not_under_roc():
    text = "#ifdef CUBLAS_API_H_\nint a;\n#endif\n"
    assert body(text) == "#ifdef HIPBLAS_H\nint a;\n#endif\n"
    assert body(text, roc=True) == text  # rocBLAS then: its guard is not ours to say


def test_a_guard_like_name_of_the_project_is_left_alone():
    text = "#ifndef __MY_DRIVER_TYPES_H__\n#define __MY_DRIVER_TYPES_H__\n#endif\n"
    assert body(text) == text


@needs("hip-clang")
def test_a_program_using_a_helper_behind_the_guards_builds(tmp_path: Path):
    """Without the guards translated, checkCudaErrors and findCudaDevice are undeclared after translation."""
    (tmp_path / "helper_cuda.h").write_text(textwrap.dedent(HELPER))
    (tmp_path / "app.cu").write_text(textwrap.dedent(PROGRAM))
    results = scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang", translate=True))
    result = next(r.compile for r in results if r.path == "app.cu")
    assert result["status"] == "compiles", result["diagnostics"]
