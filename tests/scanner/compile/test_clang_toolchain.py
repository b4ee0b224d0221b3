"""The compile check's default toolchain: Debian's clang-19, lld-19 and clang-tools-19 with the ROCm headers the scanner ships
(scanner.compile.clang_hip, scanner.compile.headers), for the profile's own target (gfx942), no GPU and no ROCm
installation. Skipped without clang-19/lld-19 on a developer's machine; CI installs them."""

from __future__ import annotations

import tarfile
import textwrap
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.compile import describe
from scanner.compile.clang_hip import resolve
from scanner.compile.headers import bundled
from scanner.target import TargetProfile
from tests.tools import needs

pytestmark = needs("hip-clang")

# What Debian's hipcc (ROCm 5.2) cannot build: the *_sync shuffles, gfx942, hipBLAS, bf16.
MODERN = """
    #include <cuda_runtime.h>
    #include <cuda_bf16.h>
    #include <cublas_v2.h>
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;

    __global__ void rms(float* out, const __nv_bfloat16* in) {
        float v = __bfloat162float(in[threadIdx.x]);
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);
        cg::thread_block block = cg::this_thread_block();
        out[threadIdx.x] = v + block.thread_rank();
    }

    void project(cublasHandle_t handle, const float* a, float* c) {
        const float one = 1.f;
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, 4, a, 4, &one, c, 4);
    }
"""
# cooperative_groups::reduce: HIP 7.13 added it (ROCm 7.2, HIP 6.3 and Debian's hipcc 5.2 lack it).
REDUCE = """
    #include <cooperative_groups/reduce.h>
    __global__ void total(float* out) {
        auto tile = cg::tiled_partition<32>(cg::this_thread_block());
        float sum = cg::reduce(tile, out[threadIdx.x], cg::plus<float>());
        int most = cg::reduce(tile, (int)threadIdx.x, cg::greater<int>());
        out[blockIdx.x] = sum + most;
    }
"""
# __reduce_add_sync: in HIP 7 (HIP 6.3's headers lacked it). HIP wants a 64-bit mask (ROC106 says so).
REDUCE_SYNC = """
    __global__ void count(unsigned* out) {
        out[0] = __reduce_add_sync(0xffffffffffffffffull, threadIdx.x);
    }
"""
# nvcuda::wmma in a shape rocWMMA has on gfx942: translated to rocWMMA (scanner.translate.wmma), whose headers ship
WMMA = """
    #include <mma.h>
    using namespace nvcuda;
    __global__ void gemm(const half* a, const half* b, float* c, int ld) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        wmma::load_matrix_sync(fa, a, ld);
        wmma::load_matrix_sync(fb, b, ld);
        wmma::mma_sync(acc, fa, fb, acc);
        for (int i = 0; i < acc.num_elements / 2; i++) {  // elementwise, through the elements' storage
            float2 pair = reinterpret_cast<float2 *>(acc.x)[i];
            reinterpret_cast<float2 *>(acc.x)[i] = make_float2(2.0f * pair.x, 2.0f * pair.y);
        }
        wmma::store_matrix_sync(c, acc, ld, wmma::mem_row_major);
    }
"""
ROCM_7_14 = TargetProfile(("gfx942",), (7, 14))


def _scan(root: Path, files: dict[str, str], **options) -> dict:
    for rel, text in files.items():
        (root / rel).write_text(textwrap.dedent(text))
    return {
        r.path: r.compile
        for r in scan(root, ScanOptions(compile_check=True, hip_compiler="clang", **options))
        if r.compile is not None
    }


def test_current_hip_builds_for_gfx942_where_debians_hipcc_cannot(tmp_path):
    check = _scan(tmp_path, {"k.cu": MODERN})["k.cu"]
    assert check["status"] == "compiles", check
    assert check["target"] == "gfx942" and check["note"] == ""
    assert check["compiler"].startswith("clang 19") and "HIP 7.2.0 (ROCm 7.2) headers" in check["compiler"]
    assert check["causes"] == {}


@pytest.mark.needs_tool("hip-clang-22")
def test_the_issues_fixture_with_cooperative_groups_reduce_compiles_whole_for_gfx942_on_rocm_7_14(tmp_path):
    # __shfl_xor_sync, cooperative_groups::reduce, a hipBLAS call and bf16 types, for a profile of ROCm 7.14
    check = _scan(tmp_path, {"k.cu": MODERN + REDUCE}, target=ROCM_7_14)["k.cu"]
    assert check["status"] == "compiles", check
    assert check["target"] == "gfx942" and check["set_aside"] == 0 and check["diagnostics"] == []
    assert check["compiler"].startswith("clang 22") and "HIP 7.14.0 (ROCm 7.14) headers" in check["compiler"]
    assert check["note"] == ""


@pytest.mark.needs_tool("hip-clang-22")
def test_a_wmma_kernel_translated_to_rocwmma_compiles_for_gfx942(tmp_path):
    check = _scan(tmp_path, {"k.cu": WMMA}, target=ROCM_7_14)["k.cu"]
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == []
    assert "rocWMMA 1.6.0" in check["compiler"]


def test_cooperative_groups_reduce_fails_for_rocm_7_2_which_lacks_it(tmp_path):
    check = _scan(tmp_path, {"k.cu": MODERN + REDUCE})["k.cu"]  # the default profile: ROCm 7.2
    assert check["status"] == "fails", check
    assert "HIP 7.2.0" in check["compiler"]
    # not the code's error nor the environment's: ROCm 7.2 lacks it, 7.13 has it (the header, the names, and what
    # clang could not parse on those lines)
    assert {d["kind"] for d in check["diagnostics"]} == {"newer-rocm"}, check["diagnostics"]
    assert set(check["causes"]) == {"rocm"} and check["causes"]["rocm"] >= 3
    assert "'hip/cooperative_groups/hip_reduce.h' is not in HIP 7.2.0: ROCm 7.13 added it" in str(check)
    assert "ROCm 7.13 or later builds it" in check["note"] and check["stubbed"] == []


@pytest.mark.needs_tool("hip-clang-22")
def test_a_misused_collective_is_the_codes_error(tmp_path):
    wrong = REDUCE.replace("cg::plus<float>()", "42")  # not callable: an error in the code, not a gap
    check = _scan(tmp_path, {"k.cu": MODERN + wrong}, target=ROCM_7_14)["k.cu"]
    assert check["status"] == "fails", check
    assert "toolchain-gap" not in {d["kind"] for d in check["diagnostics"]}


def test_the_warp_reduce_functions_of_hip_7_build(tmp_path):
    check = _scan(tmp_path, {"k.cu": MODERN + REDUCE_SYNC})["k.cu"]
    assert check["status"] == "compiles", check
    assert check["diagnostics"] == [] and check["causes"] == {}


def test_a_translation_error_still_fails_and_says_it_is_the_translations(tmp_path):
    broken = MODERN.replace("cublasSgemm(", "cublasSgemmEx_nonexistent(")
    check = _scan(tmp_path, {"k.cu": broken})["k.cu"]
    assert check["status"] == "fails" and check["causes"].get("translation", 0) >= 1, check


def test_inline_ptx_fails_where_the_device_code_is_assembled(tmp_path):
    source = """
        __global__ void lane(unsigned* out) {
            unsigned id;  // the SM's id: no sure HIP counterpart, so the translation keeps the PTX
            asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
            out[threadIdx.x] = id;
        }
    """
    check = _scan(tmp_path, {"k.cu": source})["k.cu"]
    assert check["status"] == "fails" and check["counts"] == {"inline-asm": 1} and check["causes"] == {"source": 1}


def test_a_target_clang_cannot_build_falls_back_and_says_so():
    toolchain = resolve(("gfx9999",), "c++17", 120)
    assert toolchain.kind == "clang" and toolchain.arch == "gfx90a"
    assert toolchain.note.startswith("gfx9999: not buildable with clang")


def test_describe_names_the_toolchain_and_its_rocm(tmp_path):
    described = describe(ScanOptions(compile_check=True, hip_compiler="clang"))
    assert described["available"] and described["toolchain"] == "clang" and described["target"] == "gfx942"


def test_the_headers_unpack_once_with_their_licences_and_pins(tmp_path):
    headers = bundled(cache=tmp_path)
    assert all((hip.include / "hip" / "hip_runtime.h").is_file() for hip in headers.hip_sets)
    assert (headers.include / "hipblas" / "hipblas.h").is_file() and (headers.include / "hipcub").is_dir()
    licences = sorted(p.name for p in (headers.root / "licenses").iterdir())
    assert len(licences) == 10  # HIP's and clr's (shared by both HIP sets), the seven libraries', rocThrust's NOTICES
    assert (headers.include / "rocwmma" / "rocwmma.hpp").is_file()
    assert (headers.include / "thrust" / "device_vector.h").is_file()
    assert "#define ROCTHRUST_VERSION_MINOR 3" in (headers.include / "thrust" / "rocthrust_version.hpp").read_text()
    assert headers.versions["rocthrust"] == "3.3.0"
    assert all(len(source["commit"]) == 40 for source in headers.sources)
    assert [s.label for s in headers.hip_sets] == ["7.2.0", "7.14.0"]
    older, newer = headers.hip_sets
    assert (newer.include / "hip" / "amd_detail" / "amd_hip_cooperative_groups_reduce.h").is_file()
    assert not (older.include / "hip" / "amd_detail" / "amd_hip_cooperative_groups_reduce.h").exists()
    assert "#define HIP_VERSION_MINOR 14" in (newer.include / "hip" / "hip_version.h").read_text()
    again = bundled.__wrapped__(cache=tmp_path)  # a second worker: the finished tree is reused
    assert again.root == headers.root and len(list(tmp_path.iterdir())) == 1


def test_a_hostile_archive_member_cannot_leave_the_cache(tmp_path):
    from scanner.compile.headers import HeadersMissing

    archive = tmp_path / "evil.tar.xz"
    evil = tmp_path / "evil.txt"
    evil.write_text("x")
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(evil, arcname="../../escaped.txt")
    with pytest.raises(HeadersMissing):
        bundled.__wrapped__(archive, cache=tmp_path / "cache")
    assert not (tmp_path / "escaped.txt").exists()
    assert not [p for p in (tmp_path / "cache").iterdir()]  # no half tree left behind
