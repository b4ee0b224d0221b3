"""The built-in translator renames what HIPIFY's table says, where hipify-clang would, and nothing else."""

from __future__ import annotations

import pytest

from scanner.nametable import INCLUDE_KINDS, is_identifier, load
from scanner.translate.includes import HIP_HALF_API
from scanner.translate.names import HIP_SAME_NAME
from tests.scanner.translate.helpers import body, hipify

TABLE = load()


def _one_supported_entry_per_kind():
    chosen = {}
    for entry in TABLE.entries:
        if entry.status == "supported" and entry.hip and entry.kind and entry.kind not in chosen:
            if entry.kind in INCLUDE_KINDS or (is_identifier(entry.cuda) and is_identifier(entry.hip)):
                chosen[entry.kind] = entry
    return sorted(chosen.values(), key=lambda e: e.kind)


@pytest.mark.parametrize("entry", _one_supported_entry_per_kind(), ids=lambda e: e.kind)
def test_every_kind_of_the_table_is_translated(entry):
    if entry.kind in INCLUDE_KINDS:
        result = hipify(f"#include <{entry.cuda}>\n", insert_runtime_header=False)
        assert result.text.endswith(f"#include <{entry.hip}>\n")
        assert result.text.replace(HIP_HALF_API.decode(), "") == f"#include <{entry.hip}>\n"
    else:
        result = hipify(f"void f() {{ auto x = {entry.cuda}; }}\n", insert_runtime_header=False)
        assert result.text == f"void f() {{ auto x = {entry.hip}; }}\n"
    assert result.stats.converted_by_type[entry.kind] == 1
    assert result.stats.converted_by_name[entry.cuda] == 1


def test_a_file_with_no_cuda_is_returned_byte_for_byte():
    text = (
        "// cudaMalloc is mentioned in this comment\n#include <vector>\n\n"
        "int my_cudaMalloc(int cudaMallocWrapper) {  \t\n"
        '  const char *s = "cudaMalloc failed";\r\n  return cudaMallocWrapper;\n}\n/* cudaFree */'
    )
    result = hipify(text, name="plain.cpp")
    assert result.text == text
    assert result.stats.converted == result.stats.unconverted == 0
    assert result.stats.changed_lines == 0


def test_comments_and_strings_are_untouched_by_default_and_translated_when_asked():
    text = 'void f() {\n  // cudaMemcpy copies\n  puts("cudaMemcpyHostToDevice done");\n  cudaDeviceSynchronize();\n}\n'
    assert body(text) == text.replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
    translated = body(text, translate_comments=True, translate_strings=True)
    assert "// hipMemcpy copies" in translated
    assert '"hipMemcpyHostToDevice done"' in translated


def test_user_identifiers_members_and_user_namespaces_are_not_renamed():
    text = (
        "int my_cudaMalloc(); int cudaMallocWrapper();\n"
        "void f(S x, S *p) {\n  x.cudaMalloc(1);\n  p->cudaFree(2);\n  mylib::cudaMalloc(3);\n"
        "  ::cudaMalloc(4);\n  cudaMalloc(5);\n}\n"
    )
    out = body(text)
    assert "my_cudaMalloc()" in out and "cudaMallocWrapper()" in out
    assert "x.cudaMalloc(1)" in out and "p->cudaFree(2)" in out and "mylib::cudaMalloc(3)" in out
    assert "::hipMalloc(4)" in out and "  hipMalloc(5)" in out


def test_macros_templates_and_inactive_branches_are_translated():
    text = (
        "#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) puts(cudaGetErrorString(e)); } while (0)\n"
        "template <typename T> void copy(T *d, const T *h, int n) {\n"
        "  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));\n}\n"
        "#if 0\nvoid old() { cudaThreadSynchronize(); }\n#endif\n"
        "#ifdef __CUDACC__\nstatic cudaStream_t s;\n#endif\n"
    )
    out = body(text)
    assert "hipError_t e = (x); if (e != hipSuccess) puts(hipGetErrorString(e));" in out
    assert "hipMemcpy(d, h, n * sizeof(T), hipMemcpyHostToDevice)" in out
    assert "hipDeviceSynchronize();" in out  # CUDA's deprecated name, in an #if 0 branch
    assert "#ifdef __HIPCC__" in out and "static hipStream_t s;" in out


def test_unsupported_names_are_left_counted_and_reported():
    entry = next(
        e for e in TABLE.entries if e.status == "unsupported" and e.cuda.startswith("cuda") and is_identifier(e.cuda)
    )
    text = f"void f() {{\n  cudaFree(0);\n  auto x = {entry.cuda};\n}}\n"
    result = hipify(text, insert_runtime_header=False)
    assert entry.cuda in result.text
    assert result.stats.unconverted == 1 and result.stats.unconverted_by_name[entry.cuda] == 1
    assert result.stats.conversion_percent == pytest.approx(50.0)
    [item] = result.unconverted
    assert (item.name, item.line) == (entry.cuda, 3)


def test_roc_style_uses_roc_library_names():
    text = "void f(cublasHandle_t h) { cublasSgemm(h); }\n"
    assert "hipblasSgemm" in body(text)
    assert "rocblas_sgemm" in body(text, roc=True)


def test_experimental_names_need_the_experimental_option():
    entry = next(e for e in TABLE.entries if e.status == "experimental" and is_identifier(e.cuda) and e.hip)
    text = f"auto x = {entry.cuda};\n"
    assert body(text) == text
    assert body(text, experimental=True) == f"auto x = {entry.hip};\n"


def test_statistics_count_bytes_and_lines_like_hipify():
    text = "#include <cuda_runtime.h>\nvoid f(float **p) {\n  cudaMalloc(p, 4);\n  cudaFree(*p);\n}\n"
    stats = hipify(text).stats
    assert stats.converted == 3
    assert stats.replaced_bytes == len("<cuda_runtime.h>") + len("cudaMalloc") + len("cudaFree")
    assert stats.changed_lines == 3 and stats.total_lines == 5 and stats.total_bytes == len(text)
    assert stats.converted_by_api["CUDA RT API"] == 3


def test_device_functions_keep_their_names_but_count_as_converted():
    stats = hipify("__device__ float f(float *x) { return atomicAdd(x, 1.f) + __expf(*x); }\n").stats
    assert stats.converted_by_type["device_function"] == 2


def test_cuda_bf16_kernels_get_hip_bf16_and_its_types():
    # llm.c's kernels: cuda_bf16.h's own API (__bfloat162float takes its __nv_bfloat16), whose HIP twin is
    # hip_bf16.h's __hip_bfloat16; HIPIFY's table predates that header.
    result = hipify(
        "#include <cuda_bf16.h>\n__global__ void k(float* o, const __nv_bfloat16* x, nv_bfloat162 p) "
        "{ o[0] = __bfloat162float(x[0]); }\n",
        insert_runtime_header=False,
    )
    assert "#include <hip/hip_bf16.h>" in result.text
    assert "const __hip_bfloat16* x, __hip_bfloat162 p" in result.text and "__nv_" not in result.text


def test_bf16_through_cublas_alone_keeps_hipblas_type():
    result = hipify("#include <cublas_v2.h>\nvoid f(__nv_bfloat16* a) {}\n", insert_runtime_header=False)
    assert "void f(hip_bfloat16* a)" in result.text  # what hipBLAS's bf16 API takes, as hipify-clang writes it


def test_full_warp_masks_become_64_bit_and_others_stay():
    out = body(
        "__global__ void k(float* o, unsigned m) {\n"
        "  float v = __shfl_xor_sync(0xFFFFFFFF, o[0], 16);\n"
        "  v += __shfl_down_sync(m, v, 1);\n"
        "  unsigned long long b = __ballot_sync(0xffffffffu, v > 0);\n"
        "  __syncwarp(0xffff);\n"
        "  o[0] = v + b;\n}\n"
    )
    assert "__shfl_xor_sync(0xffffffffffffffffull, o[0], 16)" in out
    assert "__ballot_sync(0xffffffffffffffffull, v > 0)" in out
    assert "__shfl_down_sync(m, v, 1)" in out and "__syncwarp(0xffff)" in out  # a person's decision


def test_the_masked_shuffles_hip_has_under_their_own_names_are_kept_and_not_unconverted():
    """HIPIFY's table calls them unsupported; HIP declares them by default since 7.0 (both profiles)."""
    source = (
        "__global__ void k(float* o) {\n"
        + "".join(f"  o[{i}] = {name}(0xffffffff, o[0], 1);\n" for i, name in enumerate(sorted(HIP_SAME_NAME)))
        + "}\n"
    )
    result = hipify(source, insert_runtime_header=False)
    assert result.unconverted == [] and all(name in result.text for name in HIP_SAME_NAME)
    assert result.stats.converted == len(HIP_SAME_NAME) and result.stats.unconverted == 0


def test_streaming_loads_and_stores_become_plain_ones():
    out = body(
        "__global__ void k(int4* o, const int4* x, cudaStream_t s) {\n"
        "  __stcs(o + threadIdx.x, __ldcs(reinterpret_cast<const int4*>(x) + 1));\n}\n"
    )
    assert "(*(o + threadIdx.x) = ((*(reinterpret_cast<const int4*>(x) + 1))));" in out
    assert "hipStream_t s" in out  # the rest of the line is still translated


@pytest.mark.parametrize("load", ["__ldcg", "__ldca", "__ldlu", "__ldcv"])
@pytest.mark.parametrize("store", ["__stcg", "__stwb", "__stwt"])
def test_every_cache_operator_load_and_store_becomes_a_plain_one(load, store):
    out = body(f"__global__ void k(float4* o, const float4* x) {{ {store}(o + 1, {load}(x + threadIdx.x)); }}\n")
    assert "(*(o + 1) = ((*(x + threadIdx.x))));" in out


def test_cuda_runtime_h_keeps_bringing_cs_math_string_and_assert_to_host_code():
    # llm.c's common.h calls isfinite() in a host template and memset() in host code, relying on cuda_runtime.h;
    # hip_runtime.h alone leaves only the device overloads of the math, and HIP 7's no longer brings string.h.
    out = body("#include <cuda_runtime.h>\ntemplate <class T> bool ok(T v) { return isfinite(v); }\n")
    assert out.startswith(
        "#include <hip/hip_runtime.h>\n#include <math.h>\n#include <string.h>\n#include <assert.h>\ntemplate"
    )


def test_a_kernel_given_to_cudafuncsetattribute_is_cast_as_hipify_clang_does():
    out = body("void f() { cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100); }\n")
    assert "hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), " in out


def test_trap_becomes_clangs_trap_builtin():
    """`__trap()` aborts the kernel; HIP has no such name, and its own device `abort()` is `__builtin_trap()`."""
    result = hipify("__device__ void check(int e) { if (e) __trap(); }\n", insert_runtime_header=False)
    assert result.text == "__device__ void check(int e) { if (e) __builtin_trap(); }\n"
    assert result.stats.converted_by_name["__trap"] == 1 and result.unconverted == []


def test_a_classs_own_method_named_after_a_driver_function_keeps_its_name():
    """FasterTransformer's (TensorRT's) CUDADriverWrapper declares `cuGetErrorName` as a method and calls it as
    `wrap.cuGetErrorName(...)`: renaming the declaration alone left the call without a member. A call of the driver's
    own function in the same file is still translated."""
    source = (
        "class CUDADriverWrapper {\n public:\n  CUresult cuGetErrorName(CUresult e, const char** s) const;\n};\n"
        "void check(CUresult stat) { CUDADriverWrapper w; const char* m; w.cuGetErrorName(stat, &m); "
        "cuGetErrorName(stat, &m); }\n"
    )
    out = body(source)
    assert "  hipError_t cuGetErrorName(hipError_t e, const char** s) const;" in out
    assert "w.cuGetErrorName(stat, &m); hipDrvGetErrorName(stat, &m); }" in out
    # declared in the class, called through it in another file: still the class's own
    source = "struct W {\n  CUresult cuLaunchKernel(CUfunction f) const;\n};\n"
    source += "template <class T> void g(T t) { CUresult r = cuLaunchKernel(t); }\n"
    out = body(source)
    assert "  hipError_t cuLaunchKernel(hipFunction_t f) const;" in out
    assert "hipError_t r = hipModuleLaunchKernel(t); }" in out
