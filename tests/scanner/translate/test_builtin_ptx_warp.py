"""ldmatrix and mma.sync written as calls of the emulating helpers (scanner.translate.ptx_warp), the helpers written
once into the file, each such statement noted as exact but slow; what has another shape stays as written. Their
semantics: test_ptx_warp_semantics.py; that the result builds for gfx942: tests/scanner/compile/test_ptx_cvt.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.translate import ptx_warp_helpers
from tests.scanner.translate.helpers import body, hipify

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "ptx" / "mma.cu"
_NOTE = "emulated with 32-lane shuffles: exact but slow; port to MFMA (rocWMMA or __builtin_amdgcn_mfma_*)"


def test_ldmatrix_is_a_call_whose_results_go_to_the_original_operands():
    out = body(FIXTURE.read_text())
    call = (
        "[](auto& d0, auto& d1, auto& d2, auto& d3, unsigned int s0) { unsigned d[4]; "
        "rocport_ptx::ldmatrix<4, false>(s0, d); d0 = d[0]; d1 = d[1]; d2 = d[2]; d3 = d[3]; }"
    )
    assert f"{call}((frag[0]), (frag[1]), (frag[2]), (frag[3]), (address));" in out
    assert "rocport_ptx::ldmatrix<2, true>(s0, d); d0 = d[0]; d1 = d[1]; }((frag[0]), (frag[1]), (address));" in out
    assert "rocport_ptx::ldmatrix<1, false>(s0, d); d0 = d[0]; }((frag), (address));" in out  # .shared::cta


def test_mma_takes_a_b_and_c_in_operand_order_and_read_write_accumulators():
    out = body(FIXTURE.read_text())
    f16 = (
        "const unsigned a[] = {s0, s1, s2, s3}; const unsigned b[] = {s4, s5}; const float c[] = {s6, s7, s8, s9}; "
        "float d[4]; rocport_ptx::mma<16, rocport_ptx::f16, rocport_ptx::f16>(d, a, b, c);"
    )
    assert f16 in out and "}((acc[0]), (acc[1]), (acc[2]), (acc[3]), (fa[0]), (fa[1])," in out
    inout = (
        "const float c[] = {static_cast<float>(d0), static_cast<float>(d1), static_cast<float>(d2), "
        "static_cast<float>(d3)}; float d[4]; rocport_ptx::mma<16, rocport_ptx::bf16, rocport_ptx::bf16>"
    )
    assert inout in out
    assert "rocport_ptx::mma<8, rocport_ptx::f16, rocport_ptx::f16>(d, a, b, c);" in out
    assert "rocport_ptx::mma<8, rocport_ptx::tf32, rocport_ptx::tf32>(d, a, b, c);" in out
    assert "unsigned d[2]; rocport_ptx::mma_f16<16>(d, a, b, c); d0 = d[0]; d1 = d[1]; }((h[0]), (h[1])," in out
    assert "rocport_ptx::mma_s32<32, rocport_ptx::s8, rocport_ptx::s8, false>(d, a, b, c);" in out
    assert "rocport_ptx::mma_s32<32, rocport_ptx::u8, rocport_ptx::s8, true>(d, a, b, c);" in out  # .satfinite
    assert "asm volatile" not in out.split("#endif  // ROCPORT_PTX_WARP_EMULATION")[1]


def test_the_helpers_come_once_after_hip_runtime_and_each_statement_is_noted_as_slow():
    result = hipify(FIXTURE.read_text(), name="mma.cu")
    text = result.text
    assert text.count("#ifndef ROCPORT_PTX_WARP_EMULATION") == 1 and ptx_warp_helpers.HELPERS in text
    assert text.index("#include <hip/hip_runtime.h>") < text.index("namespace rocport_ptx")
    assert text.index("namespace rocport_ptx") < text.index("__device__ __forceinline__ uint32_t shared_address")
    notes = [w for w in result.warnings if _NOTE in w]
    assert [n.split(":")[0] for n in notes] == ["line 15", "line 21", "line 28"] + [
        f"line {n}" for n in (43, 58, 62, 65, 70, 73, 78)
    ]
    assert notes[0] == f"line 15: ldmatrix {_NOTE}" and notes[3] == f"line 43: mma.sync {_NOTE}"
    assert result.unconverted == []
    assert result.stats.converted_by_name["mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"] == 1


def test_the_helpers_follow_pragma_once_in_a_header():
    source = (
        "#pragma once\n#include <stdint.h>\n__device__ void f(unsigned* d, unsigned a) {\n"
        '  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(a));\n}\n'
    )
    text = hipify(source, name="tile.cuh").text
    assert text.startswith("#pragma once\n#include <hip/hip_runtime.h>\n#ifndef ROCPORT_PTX_WARP_EMULATION\n")
    assert text.count("#ifndef ROCPORT_PTX_WARP_EMULATION") == 1


def test_a_file_without_them_gets_no_helpers():
    text = hipify('__device__ void f(float x, short& h) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); }\n').text
    assert "rocport_ptx" not in text


def test_the_shared_address_block_is_the_address_conversion():
    out = body(FIXTURE.read_text())
    convert = "d0 = static_cast<unsigned int>((unsigned long long)(__attribute__((address_space(3))) const void*)(s0));"
    assert f"[](auto& d0, const void* s0) {{ {convert} }}((a), (p));" in out


_ARGS = "unsigned* d, unsigned x, unsigned y, float* f"


@pytest.mark.parametrize(
    "statement",
    [
        # a shape, layout or type without an emulation
        'asm volatile("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, '
        '{%0,%1,%2,%3};" : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(x), "r"(x), "r"(x), "r"(x), '
        '"r"(y), "r"(y));',
        'asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, '
        '{%0,%1,%2,%3};" : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(x), "r"(x), "r"(y), "r"(y));',
        'asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, '
        '{%0,%1,%2,%3};" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(x), "r"(x), "r"(y));',
        # operands in another order, or accumulators read without being written
        'asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%5,%4}, {%6}, '
        '{%7,%8,%9,%10};" : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]) : "r"(x), "r"(x), "r"(y), '
        '"f"(f[0]), "f"(f[1]), "f"(f[2]), "f"(f[3]));',
        'asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, '
        '{%0,%1,%2,%3};" : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]) : "r"(x), "r"(x), "r"(y));',
        # ldmatrix of another size or element, or with too few registers
        'asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0}, [%1];" : "=r"(d[0]) : "r"(x));',
        'asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(x));',
        # two instructions in one template
        'asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1]; mov.b32 %0, %0;" : "+r"(d[0]) : "r"(x));',
    ],
)
def test_other_forms_are_left_and_reported(statement):
    result = hipify(f"__device__ void f({_ARGS}) {{ {statement} }}\n")
    assert statement in result.text and "rocport_ptx" not in result.text
    assert [u.name.split(" ")[0] for u in result.unconverted] == ["asm"]
    assert not any("emulated" in w for w in result.warnings)
