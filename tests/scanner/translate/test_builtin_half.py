"""cuda_fp16.h's and cuda_bf16.h's types in host code shared with device code: a file whose bf16 types come through
a header of the project (no cuda_bf16.h include of its own) gets hip_bf16.h's `__hip_bfloat16` like the header it
includes, not hipBLAS's `hip_bfloat16`, which only a file that includes cuBLAS keeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scanner.translate.helpers import body, hipify

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate" / "half_host"


def test_bf16_and_half_in_host_code_match_the_snapshot():
    source = (FIXTURES / "scale.cu").read_text()
    assert hipify(source, name="scale.cu").text == (FIXTURES / "scale.hip").read_text()


def test_bf16_types_through_a_projects_header_are_hip_bf16s():
    out = body('#include "common.h"\nvoid f(__nv_bfloat16* a, __nv_bfloat162 b, nv_bfloat16 c) {}\n')
    assert "void f(__hip_bfloat16* a, __hip_bfloat162 b, __hip_bfloat16 c)" in out


def test_a_file_with_cublas_and_cuda_bf16_takes_the_headers_types():
    out = body("#include <cublas_v2.h>\n#include <cuda_bf16.h>\nvoid f(__nv_bfloat16* a) {}\n")
    assert "void f(__hip_bfloat16* a)" in out and "#include <hip/hip_bf16.h>" in out


def test_the_header_itself_is_translated_as_before():
    out = body((FIXTURES / "common.h").read_text())
    assert "#include <hip/hip_fp16.h>\n#include <hip/hip_bf16.h>\ntypedef __hip_bfloat16 floatX;" in out


def test_a_file_using_bf16_and_half_without_their_headers_includes_hips():
    # (with the runtime header, and like it: not when the caller turns header insertion off)
    # under nvcc they came through another NVIDIA header (cuBLASLt's cuda_fp8.h); HIP's library headers do not
    out = hipify("#include <cublasLt.h>\n__global__ void k(__nv_bfloat16* x, __half* y) {}\n").text
    assert out.startswith("\n#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n#include <hip/hip_fp16.h>\n")


def test_after_a_rewritten_cuda_runtime_h_the_headers_follow_its_c_headers():
    out = hipify("#include <cuda_runtime.h>\nfloat f(__nv_bfloat16 x) { return __bfloat162float(x); }\n").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <math.h>\n#include <string.h>\n")
    assert "#include <assert.h>\n#include <hip/hip_bf16.h>\nfloat f(__hip_bfloat16 x)" in out


@pytest.mark.parametrize("own", ["#include <cuda_bf16.h>", '#include "cuda_bf16.h"', "#include <hip/hip_bf16.h>"])
def test_a_file_that_includes_the_header_gets_no_second_one(own):
    out = hipify(f"{own}\nvoid f(__nv_bfloat16 x) {{}}\n").text
    assert out.count("bf16.h") == 1, out


def test_a_variable_named_half_is_not_fp16():
    out = hipify("__global__ void k(int n) { int half = n / 2; }\n").text
    assert "fp16" not in out


def test_conversions_hip_lacks_are_spelled_with_what_it_has():
    out = body((FIXTURES / "convert.cu").read_text())
    assert "return __half(__half_raw{static_cast<_Float16>(x)});" in out  # one rounding, as CUDA's
    assert "__float22bfloat162_rn(make_float2(in[2 * threadIdx.x], in[2 * threadIdx.x + 1]))" in out
    # nested: the inner call is rewritten too
    assert "make_float2(1.0f, __half2float(__half(__half_raw{static_cast<_Float16>(2.5)}))))" in out
    assert "__double2half" not in out and "__floats2bfloat162_rn" not in out
    # x evaluated once, rounded once; the pair maker under HIP's name; __ldg of bf16 types a plain load
    assert "= __bfloat162bfloat162(__float2bfloat16(s + 1.0f));" in out
    assert "= __halves2bfloat162((*(lo)), lo[1]);" in out and "= (*(in + threadIdx.x));" in out
    assert "__float2bfloat162_rn" not in out and "make_bfloat162" not in out and "__ldg" not in out


def test_ldg_stays_hips_own_in_a_file_without_bf16_types():
    assert "return __ldg(p);" in body("__device__ float f(const float* p) { return __ldg(p); }\n")


def test_such_a_conversion_counts_as_converted_and_a_member_or_other_arity_is_left():
    stats = hipify("__device__ __half f(double d) { return __double2half(d); }\n").stats
    assert stats.converted_by_name["__double2half"] == 1 and stats.unconverted == 0
    out = body("__device__ void f(S s, double d) { s.__double2half(d); __double2half(d, 1); }\n")
    assert "s.__double2half(d);" in out and "__double2half(d, 1);" in out
