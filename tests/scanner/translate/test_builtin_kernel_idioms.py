"""Kernel-code idioms of real projects the translator writes so that clang builds them (issue 33, round 7): braced
launch dimensions, PTX macro headers, ldmatrix's modifiers in ptxas's other order, portability headers' constants,
cuda_fp8.h, cuBLAS's half API and its deprecated tensor-op algorithm."""

from __future__ import annotations

import pytest

from scanner.translate import ptx
from tests.scanner.translate.helpers import body, hipify


def test_a_braced_grid_or_block_becomes_a_dim3_list():
    text = "void f(int n, cudaStream_t s) {\n  k<<<{n, 1, 1}, {32, 8, 1}, 0, s>>>(n);\n  k<<<dim3(2), 64>>>(n);\n}\n"
    out = body(text)
    assert "k<<<dim3{n, 1, 1}, dim3{32, 8, 1}, 0, s>>>(n);" in out
    assert "k<<<dim3(2), 64>>>(n);" in out


def test_a_braced_list_elsewhere_is_left():
    text = "void f() {\n  int a[3] = {1, 2, 3};\n  k<<<g, b>>>(S{1, 2});\n  std::cout << (x < y);\n}\n"
    assert body(text) == text


def test_braced_dimensions_in_hipLaunchKernelGGL_are_still_a_dim3():
    out = body("void f() { k<<<{4, 1, 1}, b>>>(1); }\n", launch_syntax="hipLaunchKernelGGL")
    assert "hipLaunchKernelGGL(k, dim3({4, 1, 1}), dim3(b), 0, 0, 1);" in out


LDMATRIX = (
    'asm volatile("ldmatrix.sync.aligned.{} {{%0, %1, %2, %3}}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(p));'
)


@pytest.mark.parametrize(
    "modifiers, trans",
    [("m8n8.x4.shared.b16", False), ("x4.m8n8.shared.b16", False), ("x4.trans.m8n8.shared.b16", True)],
)
def test_ldmatrix_takes_its_shape_count_and_trans_in_any_order(modifiers, trans):
    result = hipify(f"__device__ void f(unsigned p) {{ unsigned a, b, c, d; {LDMATRIX.format(modifiers)} }}\n")
    assert f"rocport_ptx::ldmatrix<4, {'true' if trans else 'false'}>(s0, d);" in result.text
    assert not result.unconverted


@pytest.mark.parametrize("modifiers", ["x4.x2.m8n8.shared.b16", "x4.shared.b16", "m8n8.x4.trans.trans.shared.b16"])
def test_ldmatrix_with_a_repeated_or_missing_modifier_is_left(modifiers):
    result = hipify(f"__device__ void f(unsigned p) {{ unsigned a, b, c, d; {LDMATRIX.format(modifiers)} }}\n")
    assert "rocport_ptx::ldmatrix" not in result.text
    assert [u.name for u in result.unconverted] == [f"asm ldmatrix.sync.aligned.{modifiers}"]


def test_a_header_of_ptx_macros_is_cuda():
    text = (
        "#pragma once\n"
        '#define COMMIT() asm volatile("cp.async.commit_group;\\n" ::)\n'
        '#define LOAD(R, a) asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\\n" : "=r"(R) : "r"(a))\n'
    )
    result = hipify(text, name="ptx.h")
    assert "#define COMMIT() (void)0" in result.text
    assert "rocport_ptx::ldmatrix<1, false>" in result.text
    assert "#include <hip/hip_runtime.h>" in result.text


@pytest.mark.parametrize(
    "instruction, is_ptx",
    [
        ("ldmatrix.sync.aligned.x4.m8n8.shared.b16", True),
        ("cp.async.commit_group", True),
        ("ld.global.nc.v4.u32", True),
        ("mov.u32", True),
        ("vld1.32", False),  # NEON
        ("add.w", False),  # Thumb-2
        ("ldr.w", False),
        ("fence.proxy", False),  # no qualifier only PTX writes: not enough to call a file CUDA
    ],
)
def test_only_ptx_mnemonics_make_a_file_cuda(instruction, is_ptx):
    assert ptx.is_ptx(instruction) is is_ptx


def test_a_c_header_with_another_architectures_asm_is_left_byte_for_byte():
    text = (
        "#pragma once\n"
        '#define LOAD4(d, p) asm volatile("vld1.32 {%q0}, [%1]" : "=w"(d) : "r"(p))\n'
        '#define WIDE_ADD(d, a, b) asm("add.w %0, %1, %2" : "=r"(d) : "r"(a), "r"(b))\n'
    )
    result = hipify(text, name="neon.h")
    assert result.text == text and result.stats.changed_lines == 0


def test_a_portability_headers_constants_stay_and_their_uses_are_translated():
    text = (
        "#if defined(__HIP_PLATFORM_AMD__)\n"
        "constexpr auto cudaSuccess = hipSuccess;\n"
        "const auto cudaMemcpyDefault = hipMemcpyDefault;\n"
        "#endif\n"
        "constexpr auto ok = cudaSuccess;\n"
        "constexpr auto cudaErrorX = someValue;\n"
    )
    out = body(text, name="gpu.hpp")
    assert "constexpr auto cudaSuccess = hipSuccess;\nconst auto cudaMemcpyDefault = hipMemcpyDefault;\n" in out
    assert "constexpr auto ok = hipSuccess;" in out


def test_cuda_fp8_becomes_hip_fp8_with_its_names():
    text = (
        "#include <cuda_fp8.h>\n"
        "__nv_fp8_storage_t f(float x, __nv_fp8x2_e5m2 p) {\n"
        "  __nv_fp8_e4m3 v(x);\n"
        "  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);\n}\n"
    )
    result = hipify(text)
    assert "#include <hip/hip_fp8.h>" in result.text
    assert "__hip_fp8_storage_t f(float x, __hip_fp8x2_e5m2 p)" in result.text
    assert "__hip_fp8_e4m3 v(x);" in result.text
    assert "__hip_cvt_float_to_fp8(x, __HIP_SATFINITE, __HIP_E4M3)" in result.text
    assert not result.unconverted


def test_cublas_deprecated_tensor_op_algorithm_is_the_default_one():
    text = "void f() { auto a = CUBLAS_GEMM_DEFAULT_TENSOR_OP; auto b = CUBLAS_GEMM_DFALT_TENSOR_OP; }\n"
    assert body(text) == "void f() { auto a = HIPBLAS_GEMM_DEFAULT; auto b = HIPBLAS_GEMM_DEFAULT; }\n"
    assert "rocblas_gemm_algo_standard; auto b = rocblas_gemm_algo_standard;" in body(text, roc=True)


def test_hipblas_comes_with_cublas_half_type():
    out = body('#include "cublas_v2.h"\n#include <cublas_v2.h>\n')
    assert out.startswith('#ifndef HIPBLAS_USE_HIP_HALF\n#define HIPBLAS_USE_HIP_HALF\n#endif\n#include "hipblas.h"\n')
    assert out.count("HIPBLAS_USE_HIP_HALF") == 2  # once: the second include was a duplicate, removed
    assert "HIPBLAS_USE_HIP_HALF" not in body("#include <cublas_v2.h>\n", roc=True)


def test_the_device_breakpoint_is_clangs_debug_trap():
    text = "__device__ inline void stop() { __brkpt(); }\n"
    assert body(text) == "__device__ inline void stop() { __builtin_debugtrap(); }\n"


def test_the_extensible_launch_is_hips_and_clusters_are_reported():
    text = (
        "void f(cudaLaunchConfig_t* c, cudaLaunchAttribute* a, void** args) {\n"
        "  a[0].id = cudaLaunchAttributeClusterDimension;\n"
        "  cudaLaunchKernelExC(c, (const void*)k, args);\n  cudaLaunchKernelEx(c, k, 1);\n}\n"
    )
    result = hipify(text, insert_runtime_header=False)
    assert "void f(hipLaunchConfig_t* c, hipLaunchAttribute* a, void** args)" in result.text
    assert "hipLaunchKernelExC(c, (const void*)k, args);\n  hipLaunchKernelEx(c, k, 1);" in result.text
    [cluster] = result.unconverted
    assert cluster.name == "cudaLaunchAttributeClusterDimension" and "clusters" in cluster.reason


@pytest.mark.parametrize(
    "statement, store",
    [
        ('asm volatile("st.global.cg.b32 [%0], %1;" :: "l"(p), "r"(v));', "p[0] = static_cast<unsigned int>(s1);"),
        ('asm("st.global.wb.s32 [%0], %1;" :: "l"(p), "r"(v));', "p[0] = static_cast<int>(s1);"),
        (
            'asm volatile("st.global.cs.v2.f32 [%0], {%1, %2};" :: "l"(p), "f"(a), "f"(b));',
            "p[0] = static_cast<float>(s1); p[1] = static_cast<float>(s2);",
        ),
    ],
)
def test_a_cache_hinted_global_store_is_a_plain_store(statement, store):
    result = hipify(f"__device__ void f(int* p, int v, float a, float b) {{ {statement} }}\n")
    assert store in result.text and not result.unconverted


@pytest.mark.parametrize(
    "statement",
    [
        'asm volatile("st.global.volatile.b32 [%0], %1;" :: "l"(p), "r"(v));',  # ordered: not a cache hint
        'asm volatile("st.global.cg.b32 [%0+4], %1;" :: "l"(p), "r"(v));',  # an offset this does not read
        'asm volatile("st.shared.b32 [%0], %1;" :: "r"(p), "r"(v));',
    ],
)
def test_other_stores_are_left(statement):
    result = hipify(f"__device__ void f(int* p, int v) {{ {statement} }}\n")
    assert statement in result.text and result.unconverted


GUARDED_COPY = (
    'asm volatile("{\\n .reg .pred p;\\n setp.ne.b32 p, %0, 0;\\n @p cp.async.cg.shared.global [%1], [%2], SIZE;\\n}\\n"'
    ' :: "r"((int)mask), "r"(dst), "l"(src));'
)


def test_a_guarded_async_copy_copies_when_the_guard_is_set():
    result = hipify(
        f"__device__ void f(int dst, const void* src, bool mask) {{ {GUARDED_COPY.replace('SIZE', '16')} }}\n"
    )
    assert "if (s0 != 0) __builtin_memcpy(" in result.text and "s1, s2, 16);" in result.text
    assert result.stats.converted_by_name["cp.async (guarded)"] == 1 and not result.unconverted


def test_a_guarded_copy_of_another_size_or_with_a_cache_policy_is_left():
    for template in (GUARDED_COPY.replace("SIZE", "32"), GUARDED_COPY.replace("SIZE", "16, %3")):
        result = hipify(f"__device__ void f(int dst, const void* src, bool mask) {{ {template} }}\n")
        assert "__builtin_memcpy" not in result.text and result.unconverted
