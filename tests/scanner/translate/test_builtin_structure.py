"""Includes, kernel launches and argument-dependent renames, as hipify-clang writes them."""

from __future__ import annotations

import pytest

from tests.scanner.translate.helpers import body, hipify

GGL = {"launch_syntax": "hipLaunchKernelGGL"}


# -- includes ---------------------------------------------------------------------------------------------
def test_runtime_header_is_inserted_before_the_first_include():
    text = "// header comment\n#include <stdio.h>\n__global__ void k() {}\n"
    assert (
        hipify(text).text == "// header comment\n\n#include <hip/hip_runtime.h>\n#include <stdio.h>\n"
        "__global__ void k() {}\n"
    )


def test_runtime_header_goes_after_pragma_once_or_at_the_top():
    assert (
        hipify("#pragma once\n__device__ int x;\n").text
        == "#pragma once\n#include <hip/hip_runtime.h>\n\n__device__ int x;\n"
    )
    assert hipify("__global__ void k() {}\n").text == "\n#include <hip/hip_runtime.h>\n__global__ void k() {}\n"


def test_a_rewritten_main_header_is_kept_once_and_quote_style_is_kept():
    text = '#include "cuda.h"\n#include <cuda_runtime.h>\n#include <device_launch_parameters.h>\nint x;\n'
    result = hipify(text)
    assert result.text == '#include "hip/hip_runtime.h"\n\n\nint x;\n'
    assert result.stats.converted_by_type["include_cuda_main_header"] == 2
    assert result.stats.converted_by_type["include"] == 1


def test_library_headers_map_to_their_hip_and_roc_headers():
    text = "#include <cublas_v2.h>\n#include <curand_kernel.h>\n#include <cuda_fp16.h>\n"
    assert body(text) == (
        "#ifndef HIPBLAS_USE_HIP_HALF\n#define HIPBLAS_USE_HIP_HALF\n#endif\n"  # cuBLAS's half API takes __half
        "#include <hipblas.h>\n#include <hiprand/hiprand_kernel.h>\n#include <hip/hip_fp16.h>\n"
    )
    assert "#include <rocblas.h>" in body(text, roc=True)


def test_header_names_are_not_renamed_as_identifiers():
    text = '#include "cudaMalloc/helpers.h"\n'
    assert body(text) == text


# -- launches ---------------------------------------------------------------------------------------------
def test_launches_stay_chevrons_by_default():
    text = "void f() { k<<<1, 2>>>(a); }\n"
    assert body(text) == text


@pytest.mark.parametrize(
    "launch, expected",
    [
        ("k<<<grid, block>>>(a, b);", "hipLaunchKernelGGL(k, dim3(grid), dim3(block), 0, 0, a, b);"),
        (
            "k<<<(n + 255) / 256, 256, 0, stream>>>(x, n);",
            "hipLaunchKernelGGL(k, dim3((n + 255) / 256), dim3(256), 0, stream, x, n);",
        ),
        ("k<<<dim3(1, 1), dim3(64), smem>>>(p);", "hipLaunchKernelGGL(k, dim3(1, 1), dim3(64), smem, 0, p);"),
        ("k<<<1, n>>> ( );", "hipLaunchKernelGGL(k, dim3(1), dim3(n), 0, 0);"),
        (
            "ns::k<float, 4><<<g, b>>>(x);",
            "hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k<float, 4>), dim3(g), dim3(b), 0, 0, x);",
        ),
        (
            "k<<<g, b, 0, cudaStreamPerThread>>>(std::min(a, b), c[i]);",
            "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, hipStreamPerThread, std::min(a, b), c[i]);",
        ),
    ],
)
def test_launches_become_hipLaunchKernelGGL_when_asked(launch, expected):
    assert body(f"void f() {{ {launch} }}\n", **GGL) == f"void f() {{ {expected} }}\n"


def test_a_template_kernel_launched_without_explicit_arguments_gets_its_kernel_name_wrapped():
    text = "template <typename T> __global__ void sort(T *d) {}\nvoid f(int *d) { sort<<<1, 1024>>>(d); }\n"
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(sort), dim3(1), dim3(1024), 0, 0, d);" in body(text, **GGL)


def test_a_multiline_launch_keeps_its_arguments_verbatim():
    text = "void f() {\n  kernel<<<blocks,\n         threads>>>(a,\n                    b);\n}\n"
    assert (
        body(text, **GGL) == "void f() {\n  hipLaunchKernelGGL(kernel, dim3(blocks), dim3(threads), 0, 0, a,\n"
        "                    b);\n}\n"
    )


def test_launch_statistics_count_one_kernel_launch():
    result = hipify("void f() { k<<<1, 1>>>(); }\n", **GGL)
    assert result.stats.converted_by_type["kernel_launch"] == 1


# -- argument-dependent renames ---------------------------------------------------------------------------
def test_symbol_arguments_are_wrapped_in_HIP_SYMBOL():
    text = "void f() { cudaMemcpyToSymbol(coef, h, 5 * sizeof(float)); cudaMemcpyFromSymbol(h, coef, 4); }\n"
    assert body(text) == (
        "void f() { hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 5 * sizeof(float)); "
        "hipMemcpyFromSymbol(h, HIP_SYMBOL(coef), 4); }\n"
    )


def test_kernel_pointers_are_cast_and_event_create_picks_its_overload():
    text = (
        "void f() { cudaFuncGetAttributes(&attr, kernel); cudaEventCreate(&a); "
        "cudaEventCreate(&b, cudaEventDisableTiming); }\n"
    )
    assert body(text) == (
        "void f() { hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)); "
        "hipEventCreate(&a); hipEventCreateWithFlags(&b, hipEventDisableTiming); }\n"
    )


def test_cubs_own_headers_become_their_hipcub_twins():
    """flash-fft-conv includes `cub/block/block_load.cuh`: HIPIFY's table maps only `cub/cub.cuh`."""
    text = '#include <cub/block/block_load.cuh>\n#include "cub/device/device_radix_sort.cuh"\n#include <cub/block/specializations/block_scan_raking.cuh>\n'
    out = body(text)
    assert out.startswith('#include <hipcub/block/block_load.hpp>\n#include "hipcub/device/device_radix_sort.hpp"\n')
    assert "#include <cub/block/specializations/block_scan_raking.cuh>" in out  # hipCUB has no such header


def test_cub_namespace_becomes_hipcub_and_cooperative_group_headers_map():
    text = "#include <cooperative_groups/reduce.h>\ntypedef ::cub::BlockRadixSort<int, 128> Sort;\n"
    assert (
        body(text)
        == "#include <hip/cooperative_groups/hip_reduce.h>\ntypedef ::hipcub::BlockRadixSort<int, 128> Sort;\n"
    )


def test_a_launch_written_with_spaced_chevrons_is_written_together():
    """diff-gaussian-rasterization: `renderCUDA<NUM_CHANNELS> << <grid, block >> > (...)`, which nvcc takes and clang
    does not read as a launch; shifts and `operator<< <T>` stay."""
    out = body("void f() {\n  render<C> << <grid, block >> > (r, a >> 1);\n  x = y << z; operator<< <int>(os, 1);\n}\n")
    assert "  render<C> <<<grid, block >>> (r, a >> 1);\n  x = y << z; operator<< <int>(os, 1);\n" in out
