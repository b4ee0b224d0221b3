"""cuda_fp16.h's and cuda_bf16.h's types in host code shared with device code: a file whose bf16 types come through
a header of the project (no cuda_bf16.h include of its own) gets hip_bf16.h's `__hip_bfloat16` like the header it
includes, not hipBLAS's `hip_bfloat16`, which only a file that includes cuBLAS keeps."""

from __future__ import annotations

from pathlib import Path

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
