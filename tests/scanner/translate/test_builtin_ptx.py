"""Inline PTX: single-instruction `cvt` statements written as the C++ they compute, every other PTX statement left
as written and reported (scanner.translate.ptx)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scanner.translate.helpers import body, hipify

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "ptx" / "cvt.cu"
_S8 = "v != v ? 0.0f : fminf(fmaxf(rintf(v), -128.0f), 127.0f)"


def test_float_to_int8_rounds_to_nearest_even_clamps_and_takes_nan_to_zero():
    out = body(FIXTURE.read_text())
    assert f"[](auto& d0, float s0) {{ float v = s0; d0 = static_cast<signed char>({_S8}); }}((dst), (x));" in out
    assert "asm" not in out.split("\n", 3)[3]  # every statement of the fixture has a counterpart


def test_a_half_source_is_read_from_its_bits_and_32_bit_results_clamp_in_double():
    out = body(FIXTURE.read_text())
    half = "[](auto& d0, unsigned short s0) { float v = __half2float(__ushort_as_half(s0)); "
    assert f"{half}d0 = static_cast<signed char>({_S8}); }}((int16), (int16_in));" in out
    assert "d0 = static_cast<unsigned int>(v != v ? 0.0 : fmin(fmax(rint(v), 0.0), 4294967295.0)); }((y), (x));" in out
    assert "fmax(trunc(v), -2147483648.0), 2147483647.0)); }((t), (back));" in out  # rzi: toward zero


def test_half_packing_puts_the_first_source_in_the_upper_half():
    out = body(FIXTURE.read_text())
    pack = "d0 = static_cast<unsigned int>(__half_as_ushort(__float2half_rn(s0))) << 16 | "
    assert (
        f"[](auto& d0, float s0, float s1) {{ {pack}__half_as_ushort(__float2half_rn(s1)); }}((tmp.u32), (hi), (lo));"
        in out
    )
    assert "{ d0 = __half_as_ushort(__float2half_rn(s0)); }((h), (lo));" in out


def test_half_arithmetic_and_moves_work_on_the_registers_bits():
    out = body(FIXTURE.read_text())
    assert "{ d0 = __half_as_ushort(__hadd(__ushort_as_half(s0), __ushort_as_half(s1))); }((c), (a), (b));" in out
    fma = "d0 = __builtin_bit_cast(unsigned int, __hfma2(__builtin_bit_cast(__half2, s0), "
    assert f"[](auto& d0, unsigned int s0, unsigned int s1, unsigned int s2) {{ {fma}" in out
    unpack = "d0 = static_cast<unsigned short>(s0); d1 = static_cast<unsigned short>(s0 >> 16);"
    assert f"[](auto& d0, auto& d1, unsigned int s0) {{ {unpack} }}((lo), (hi), (v));" in out
    assert "{ d0 = static_cast<unsigned int>(s0) << 16 | s0; }((b), (add(lo, hi)));" in out  # one operand, twice


def test_each_rewrite_counts_as_converted_and_brings_hip_fp16():
    result = hipify('__device__ void f(float x, short& h) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); }\n')
    assert result.stats.converted_by_name["cvt.rn.f16.f32"] == 1 and result.unconverted == []
    assert "#include <hip/hip_fp16.h>" in result.text


@pytest.mark.parametrize(
    "statement",
    [
        'asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};" : "=f"(d) : "r"(a),'
        ' "r"(b), "f"(c));',
        'asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "+r"(d) : "f"(x));',  # read-write output
        'asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(d) : "r"(x));',  # not a float register
        'asm volatile("cvt.rn.f16.f32 %0, %1; cvt.rn.f16.f32 %0, %1;" : "=h"(d) : "f"(x));',  # two instructions
        'asm volatile("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(d) : "f"(x), "f"(y));',  # operands swapped
        'asm volatile("add.rn.sat.f16 %0, %1, %2;" : "=h"(d) : "h"(x), "h"(y));',  # saturating
    ],
)
def test_ptx_without_a_sure_counterpart_is_left_and_reported(statement):
    result = hipify(
        f"__device__ void f(float x, float y, unsigned d, unsigned a, unsigned b, float c) {{ {statement} }}\n"
    )
    assert statement in result.text
    assert [u.name.split(" ")[0] for u in result.unconverted] == ["asm"]
    assert "without a sure HIP counterpart" in result.unconverted[0].reason


def test_a_macro_in_the_template_is_not_read_but_reported():
    source = '__device__ void f(unsigned a) { asm volatile("cp.async.cg.shared.global" HINT " [%0], [%1], 16;" :: "r"(a)); }\n'
    result = hipify(source)
    assert result.text.endswith(source) and [u.name for u in result.unconverted] == ["asm cp.async.cg.shared.global"]


CP_ASYNC = FIXTURE.parent / "cp_async.cu"
_TO_SHARED = "(void*)(__attribute__((address_space(3))) char*)(unsigned long long)s0"


def test_an_async_copy_becomes_the_synchronous_copy_of_its_bytes():
    out = body(CP_ASYNC.read_text())
    copy = f"[](unsigned int s0, const void* s1) {{ __builtin_memcpy({_TO_SHARED}, s1, 16); }}"
    assert f"    {copy}((first), (in + threadIdx.x));" in out
    sized = f"[](unsigned int s0, const void* s1, unsigned long long s2) {{ __builtin_memcpy({_TO_SHARED}, s1, s2); }}"
    assert f"    {sized}((dst), (src), (bytes))" in out  # in a macro's body, its operands the macro's parameters
    shared = "((unsigned long long)(__attribute__((address_space(3))) const void*)(&buf[0][threadIdx.x]))"
    assert f"uint32_t first = static_cast<uint32_t>({shared});" in out


def test_the_copy_groups_have_nothing_left_to_wait_for():
    out = body(CP_ASYNC.read_text())
    assert "#define CP_ASYNC_COMMIT_GROUP() (void)0\n" in out
    assert "#define CP_ASYNC_WAIT_GROUP(n) [](unsigned long long s0) {  }((n))\n" in out
    assert "        } else {\n            (void)0;\n        }" in out and "asm" not in out.split("\n", 2)[2]


def test_a_zero_filling_copy_is_left_and_reported():
    statement = 'asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\\n" ::"r"(s), "l"(g), "r"(n));'
    result = hipify(f"__device__ void f(unsigned s, const float4* g, unsigned n) {{ {statement} }}\n")
    assert statement in result.text and [u.name for u in result.unconverted] == ["asm cp.async.cg.shared.global"]


def test_the_pipeline_primitives_are_the_same_synchronous_copies():
    out = body(CP_ASYNC.read_text())
    assert "cuda_pipeline_primitives.h" not in out and "__pipeline" not in out
    assert "    __builtin_memcpy(&buf[threadIdx.x], in + threadIdx.x, sizeof(float4));\n    ((void)0);\n" in out
    assert "    ((void)(0));\n" in out
    kept = "__pipeline_memcpy_async(d, s, 16, 8);"  # zero-filling: left
    assert kept in body(f"__device__ void f(float4* d, const float4* s) {{ {kept} }}\n")


def test_global_loads_with_cache_hints_are_plain_loads_and_ordered_ones_are_not():
    out = body(FIXTURE.read_text())
    vector = (
        "[](auto& d0, auto& d1, auto& d2, auto& d3, const void* s0) { const float* p = static_cast<const float*>(s0); "
    )
    assert f"{vector}d0 = p[0]; d1 = p[1]; d2 = p[2]; d3 = p[3]; }}((v.x), (v.y), (v.z), (v.w), (p));" in out
    assert "{ const float* p = static_cast<const float*>(s0); d0 = p[0]; }((w), (q));" in out
    acquire = 'asm volatile("ld.global.acquire.gpu.b32 %0, [%1];" : "=r"(x) : "l"(q));'
    out = body(f"__device__ void f(const unsigned* q, unsigned x) {{ {acquire} }}\n")
    assert "p[0]" not in out and "__ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT" in out  # an acquire load, not a plain one


def test_a_guarded_load_takes_its_defaults_then_loads_when_the_guard_is_set():
    out = body(FIXTURE.read_text())
    vector = (
        "[](auto& d0, auto& d1, auto& d2, auto& d3, const void* s0, unsigned int s1, unsigned int s2, unsigned int s3,"
        " unsigned int s4, unsigned int s5) { d0 = s2; d1 = s3; d2 = s4; d3 = s5; if (s1 != 0) { const unsigned int* "
        "p = static_cast<const unsigned int*>(s0); d0 = p[0]; d1 = p[1]; d2 = p[2]; d3 = p[3]; } }((v.x), (v.y), "
        "(v.z), (v.w), (p), ((int)inside), (v.x), (v.y), (v.z), (v.w));"
    )
    assert vector in out
    assert (
        "{ d0 = s2; if (s1 != 0) { const unsigned short* p = static_cast<const unsigned short*>(s0); d0 = p[0]; }"
        in out
    )


@pytest.mark.parametrize(
    "block",
    [
        "{ .reg .pred p; setp.eq.b32 p, %2, 0; mov.b32 %0, %3; @p ld.global.u32 %0, [%1]; }",  # guard inverted
        "{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b32 %0, %3; @!p ld.global.u32 %0, [%1]; }",  # negated
        "{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b16 %0, %3; @p ld.global.u32 %0, [%1]; }",  # widths differ
        "{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b32 %0, %3; @p ld.global.acquire.gpu.u32 %0, [%1]; }",
    ],
)
def test_other_guarded_blocks_are_left(block):
    statement = f'asm volatile("{block}" : "=r"(d) : "l"(q), "r"(g), "r"(d));'
    result = hipify(f"__device__ void f(const unsigned* q, int g, unsigned d) {{ {statement} }}\n")
    assert statement in result.text and [u.name.split(" ")[0] for u in result.unconverted] == ["asm"]


def test_the_lane_index_is_hips_lane_id_in_either_spelling():
    out = body(FIXTURE.read_text())
    assert 'asm("mov.s32 %0, %laneid;"' not in out and "%%laneid" not in out
    assert out.count("[](auto& d0) { d0 = __lane_id(); }((lane))") == 2


def test_scoped_acquire_and_release_accesses_are_hips_scoped_atomics():
    out = body(FIXTURE.read_text())
    assert (
        "__hip_atomic_fetch_add(static_cast<int*>(const_cast<void*>(s0)), static_cast<int>(s1), __ATOMIC_RELEASE, "
        "__HIP_MEMORY_SCOPE_AGENT)" in out
    )
    assert "__hip_atomic_load(static_cast<const unsigned int*>(s0), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT)" in out
    assert "__ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM)" in out and "red.release" not in out
    assert "static_cast<int>(1), __ATOMIC_RELEASE" in out  # an immediate operand
    assert body('asm("st.acquire.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(v));\n').startswith('asm("st.acquire')
