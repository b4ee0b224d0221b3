"""Only CUDA is translated: plain C/C++ and code already written for HIP come out as they went in."""

from __future__ import annotations

import pytest

from tests.scanner.translate.helpers import hipify

MATH = "  return max(exp(x), fabsf(min(y, x)));\n"


def _untouched(text: str, name: str, **options):
    result = hipify(text, name=name, **options)
    assert result.text == text
    assert result.stats.converted == result.stats.unconverted == 0
    assert result.stats.changed_lines == 0 and not result.changed
    return result


# -- plain C/C++ ------------------------------------------------------------------------------------------
def test_host_only_cpp_with_c_math_is_untouched_and_counts_nothing():
    text = f"#include <vector>\n#include <cmath>\n\nfloat f(float x, float y) {{\n{MATH}}}\n"
    result = _untouched(text, "examples/common.cpp")
    assert "hip_runtime" not in result.text


def test_comments_and_strings_of_plain_cpp_stay_even_when_asked():
    text = '// uses cudaMalloc elsewhere\nconst char *s = "cudaMalloc";\nint f() { return max(1, 2); }\n'
    _untouched(text, "plain.cpp", translate_comments=True, translate_strings=True)


@pytest.mark.parametrize(
    "text",
    [
        # a CPU header that only asks whether nvcc compiles it
        "#if defined(__ARM_NEON) && !defined(__CUDACC__)\n#include <arm_neon.h>\n#endif\nfloat g(float x) { return expf(x); }\n",
        # a SYCL port keeps CUDA's names for variables of its own
        "void f(int n) {\n  sycl::range<3> gridDim(n, 1, 1);\n  submit(gridDim * sycl::range<3>(1, 1, 256));\n}\n",
        # Ascend C spells its kernels __global__ too
        'extern "C" __global__ __aicore__ void dup(GM_ADDR src) { copy(src); }\n',
    ],
)
def test_other_host_and_device_dialects_are_not_cuda(text):
    _untouched(text, "backend.cpp")


# -- CUDA code --------------------------------------------------------------------------------------------
def test_c_math_counts_inside_a_cu_kernel():
    text = f"__global__ void k(float x, float y, float *out) {{\n  *out = [&] {{\n{MATH}  }}();\n}}\n"
    stats = hipify(text, name="k.cu").stats
    for name in ("max", "exp", "fabsf", "min"):
        assert stats.converted_by_name[name] == 1


def test_c_math_counts_in_a_cu_file_even_without_other_cuda():
    stats = hipify(f"float f(float x, float y) {{\n{MATH}}}\n", name="math.cu").stats
    assert stats.converted == 4


def test_a_mixed_cpp_calling_cuda_is_translated_and_its_math_counted():
    text = "#include <vector>\n\nvoid f(float **p, float x, float y) {\n  cudaMalloc(p, 4);\n  **p = max(x, y);\n}\n"
    result = hipify(text, name="mixed.cpp")
    assert "  hipMalloc(p, 4);\n" in result.text
    assert "#include <hip/hip_runtime.h>\n#include <vector>" in result.text
    assert result.stats.converted_by_name["cudaMalloc"] == 1
    assert result.stats.converted_by_name["max"] == 1


def test_a_cuda_header_include_makes_a_cpp_cuda():
    result = hipify("#include <cublas_v2.h>\nfloat f(float x) { return fabsf(x); }\n", name="blas.cpp")
    assert "#include <hipblas.h>" in result.text
    assert result.stats.converted_by_name["fabsf"] == 1


# -- code already written for HIP -------------------------------------------------------------------------
COMPAT_HEADER = (
    "#pragma once\n\n#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n\n"
    "#define cublasHandle_t hipblasHandle_t\n#define CUBLAS_OP_N HIPBLAS_OP_N\n"
    "#define cudaStreamWaitEvent(stream, event, flags) hipStreamWaitEvent(stream, event, flags)\n"
    "#define __shfl_sync(mask, var, lane, width) __shfl(var, lane, width)\n"
    "typedef hipStream_t cudaStream_t;\n"
    "static __device__ __forceinline__ int __vsub4(int a, int b) { return __syncthreads_or(a - b); }\n"
)


@pytest.mark.parametrize("name", ["vendors/hip.h", "vendors/hip.cuh"])
def test_a_hip_compatibility_header_is_untouched(name):
    _untouched(COMPAT_HEADER, name)


def test_an_ifdef_guarded_vendor_header_is_untouched():
    text = (
        "#if defined(GGML_USE_HIP)\n#include <hip/hip_runtime.h>\n#define cudaMalloc hipMalloc\n"
        "#define cudaError_t hipError_t\n#else\n#include <cuda_runtime.h>\n#include <cublas_v2.h>\n#endif\n"
    )
    _untouched(text, "vendor.h")


def test_mapping_lines_stay_while_the_rest_of_a_cuda_file_is_translated():
    text = (
        "#ifdef USE_HIP\n#define cudaStream_t hipStream_t\n#endif\nusing cudaEvent_t = hipEvent_t;\n"
        "void f() { cudaDeviceSynchronize(); }\n"
    )
    out = hipify(text, name="k.cu", insert_runtime_header=False).text
    assert out == text.replace("cudaDeviceSynchronize", "hipDeviceSynchronize")


@pytest.mark.parametrize(
    "definition",
    [
        "#define hipStream_t cudaStream_t\n",  # a HIP -> CUDA shim: translated, it would define hipStream_t as itself
        "#define cudaDeviceBlockingSync cudaDeviceScheduleBlockingSync\n",  # both sides become one HIP name
        "using hipStream_t = cudaStream_t;\n",
        "typedef cudaStream_t hipStream_t;\n",
    ],
)
def test_no_edit_makes_an_identity_definition(definition):
    text = definition + "__global__ void k() {}\n"
    assert hipify(text, name="k.cu", insert_runtime_header=False).text == text
