"""Kernel-code idioms the translator now carries to HIP, compiled for gfx942 (fixtures/translate/kernel_idioms):
braced launch dimensions, a header of PTX macros (ldmatrix with its shape after the count, cp.async, mma.sync), a
portability header's `constexpr auto cudaX = hipX;` lines, cuda_fp8.h's API, cuBLAS's half GEMMs, the
extensible launch (cudaLaunchKernelEx), a guarded cp.async and cache-hinted global stores. Skipped without clang on
a developer's machine; CI installs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.target import TargetProfile
from tests.tools import needs

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate" / "kernel_idioms"
UNITS = (
    "stencil_launch.cu",
    "tile_mma.cu",
    "uses_compat.cu",
    "fp8_scale.cu",
    "half_gemm.cu",
    "extensible_launch.cu",
    "guarded_copy.cu",
)


def _check(root: Path, **options) -> dict:
    for path in FIXTURES.iterdir():
        shutil.copy(path, root / path.name)
    results = scan(root, ScanOptions(compile_check=True, hip_compiler="clang", translate=True, **options))
    return {r.path: r.compile for r in results if r.path in UNITS}


def _assert_builds(checks: dict) -> None:
    assert sorted(checks) == sorted(UNITS)
    for path, check in checks.items():
        assert check["status"] == "compiles", (path, check)
        assert check["stubbed"] == [] and check["diagnostics"] == [], (path, check)


@needs("hip-clang")
def test_the_idioms_build_with_hip_7_2(tmp_path):
    _assert_builds(_check(tmp_path))


@pytest.mark.needs_tool("hip-clang-22")
def test_the_idioms_build_for_gfx942_with_hip_7_14(tmp_path):
    _assert_builds(_check(tmp_path, target=TargetProfile(("gfx942",), (7, 14))))
