"""nvcuda::wmma to rocWMMA (scanner.translate.wmma): translated where every fragment has a rocWMMA counterpart on
gfx942, else left as written with the fragments that have none named (scanner.rocwmma)."""

from __future__ import annotations

import pytest

from tests.scanner.translate.helpers import body, hipify

KERNEL = """#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half *a, const half *b, float *c, int ld) {
  wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, WM, WN, WK, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, ld);
  wmma::load_matrix_sync(fb, b, ld);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, ld, wmma::mem_row_major);
}
"""


def _kernel(m: int, n: int, k: int) -> str:
    return f"#define WM {m}\n#define WN {n}\n#define WK {k}\n" + KERNEL


def test_a_kernel_whose_fragments_rocwmma_has_is_translated():
    result = hipify(_kernel(16, 16, 16), insert_runtime_header=False)
    out = result.text
    assert "#include <rocwmma/rocwmma.hpp>\n" in out and "<mma.h>" not in out
    assert "nvcuda" not in out and "using namespace" not in out
    assert "  rocwmma::fragment<rocwmma::matrix_a, WM, WN, WK, half, rocwmma::row_major> fa;" in out
    assert "rocwmma::fragment<rocwmma::accumulator, WM, WN, WK, float> acc;" in out
    assert "rocwmma::store_matrix_sync(c, acc, ld, rocwmma::mem_row_major);" in out
    # rocWMMA deduces the fill value's type with the fragment's: the literal is converted as CUDA converts it
    assert (
        "rocwmma::fill_fragment(acc, static_cast<typename std::remove_reference_t<decltype(acc)>::element_type>"
        "(0.0f));" in out
    )
    assert result.unconverted == [] and result.stats.converted_by_api["WMMA API"] >= 10


def test_32_by_32_by_8_is_rocwmmas_too():
    assert "rocwmma::mma_sync" in body(_kernel(32, 32, 8))


@pytest.mark.parametrize(
    "shape, why",
    [
        ((8, 32, 16), "rocWMMA's f16 blocks there are 16×16 with K ≥ 16 and 32×32 with K ≥ 8"),
        ((32, 8, 16), "rocWMMA's f16 blocks"),
    ],
)
def test_a_shape_rocwmma_lacks_leaves_the_file_and_names_the_fragment(shape, why):
    result = hipify(_kernel(*shape), insert_runtime_header=False)
    assert result.text == _kernel(*shape)  # the WMMA code stays as written, include too
    first = result.unconverted[0]
    assert first.name == "mma.h" and "has no rocWMMA counterpart on gfx942" in first.reason
    fragments = [u for u in result.unconverted if u.name.startswith("fragment<")]
    m, n, k = shape
    assert [(u.name, u.line) for u in fragments] == [
        (f"fragment<matrix_a, {m}, {n}, {k}, half, row_major>", 7),
        (f"fragment<matrix_b, {m}, {n}, {k}, half, col_major>", 8),
        (f"fragment<accumulator, {m}, {n}, {k}, float>", 9),
    ]
    assert why in fragments[0].reason


@pytest.mark.parametrize(
    "fragment, why",
    [
        ("wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;", "xf32"),
        ("wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;", "hip_bfloat16"),
        ("wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> a;", "unsigned 8-bit"),
        ("wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;", "i8 blocks"),
        ("wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;", "f64 blocks"),
        ("wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> a;", "sub-byte"),
        ("wmma::bmma_sync(d, a, b, c);", "1-bit"),
    ],
)
def test_types_rocwmma_lacks_on_gfx942_are_left_and_said(fragment, why):
    source = f"#include <mma.h>\nusing namespace nvcuda;\n__global__ void k() {{\n  {fragment}\n}}\n"
    result = hipify(source, insert_runtime_header=False)
    assert "rocwmma" not in result.text and "using namespace nvcuda;" in result.text  # `__nv_bfloat16` is renamed
    assert any(why in u.reason for u in result.unconverted), result.unconverted


def test_a_namespace_alias_keeps_its_name():
    source = "#include <mma.h>\nnamespace wmma = nvcuda::wmma;\n__device__ void f(wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>& a);\n"
    out = body(source)
    assert "namespace wmma = rocwmma;" in out and "wmma::fragment<wmma::matrix_a" in out


def test_a_projects_own_wmma_namespace_is_not_nvcudas():
    source = "namespace wmma { int fragment; }\n__global__ void k(int* o) { o[0] = wmma::fragment; }\n"
    assert body(source) == source


def test_an_unresolved_shape_is_left_to_rocwmmas_own_checks():
    source = (
        "#include <mma.h>\ntemplate <int M> __device__ void f() {\n"
        "  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, M, 16, 16, half, nvcuda::wmma::row_major> a;\n}\n"
    )
    assert "rocwmma::fragment<rocwmma::matrix_a, M, 16, 16" in body(source)


def test_the_elements_storage_of_a_fragment_is_taken_by_address():
    """flash-fft-conv multiplies accumulators elementwise as `__half2` pairs: CUDA's `x` array decays to a pointer,
    rocWMMA's vector is taken by address; a member `x` of anything but a fragment is left alone."""
    source = (
        "#include <mma.h>\nusing namespace nvcuda;\n__global__ void k(S s) {\n"
        "  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc[2], b;\n"
        "  __half2 t = reinterpret_cast<__half2 *>(acc[1].x)[0];\n"
        "  reinterpret_cast<__half2 *>(b.x)[0] = t;\n"
        "  float* q = reinterpret_cast<float*>(s.x);\n}\n"
    )
    out = body(source)
    assert "__half2 t = reinterpret_cast<__half2 *>(&acc[1].x)[0];" in out
    assert "reinterpret_cast<__half2 *>(&b.x)[0] = t;" in out and "reinterpret_cast<float*>(s.x);" in out
