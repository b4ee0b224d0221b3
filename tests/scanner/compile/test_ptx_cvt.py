"""Single-instruction PTX conversions (tests/scanner/fixtures/translate/ptx/cvt.cu) build for gfx942 once translated:
the C++ scanner.translate.ptx writes for them compiles in host and device code, with HIP 7.2 and HIP 7.14. Before,
each failed as an `invalid input constraint 'f' in asm`. Skipped without clang-19/lld-19 on a developer's machine;
CI installs them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.target import TargetProfile
from tests.tools import needs

pytestmark = needs("hip-clang")

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "ptx" / "cvt.cu"


@pytest.mark.parametrize("rocm", ["7.2", "7.14"])
def test_the_cvt_statements_build_once_translated(tmp_path, rocm):
    shutil.copy(FIXTURE, tmp_path / "cvt.cu")
    options = ScanOptions(compile_check=True, hip_compiler="clang", target=TargetProfile.parse(["gfx942"], rocm))
    check = next(r.compile for r in scan(tmp_path, options))
    assert check["status"] == "compiles", check
    assert check["diagnostics"] == []


@pytest.mark.parametrize("rocm", ["7.2", "7.14"])
def test_the_async_copies_build_once_translated(tmp_path, rocm):
    shutil.copy(FIXTURE.parent / "cp_async.cu", tmp_path / "cp_async.cu")
    options = ScanOptions(compile_check=True, hip_compiler="clang", target=TargetProfile.parse(["gfx942"], rocm))
    check = next(r.compile for r in scan(tmp_path, options))
    assert check["status"] == "compiles", check
    assert check["diagnostics"] == []


@pytest.mark.parametrize("rocm", ["7.2", "7.14"])
def test_the_emulated_ldmatrix_and_mma_build_once_translated(tmp_path, rocm):
    """fixtures/translate/ptx/mma.cu: cvta.to.shared, ldmatrix (x1, x2.trans, x4) and mma.sync of every emulated
    shape and type (scanner.translate.ptx_warp); before, the first `invalid input constraint 'l' in asm`."""
    shutil.copy(FIXTURE.parent / "mma.cu", tmp_path / "mma.cu")
    options = ScanOptions(compile_check=True, hip_compiler="clang", target=TargetProfile.parse(["gfx942"], rocm))
    check = next(r.compile for r in scan(tmp_path, options))
    assert check["status"] == "compiles", check
    assert check["diagnostics"] == []
