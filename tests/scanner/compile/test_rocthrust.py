"""A translated Thrust program builds against rocThrust's headers, which ship with the scanner (rocThrust 3.3.0 of
ROCm 6.3, scripts/vendor_rocm_headers.py): its `thrust/` includes are kept, `thrust::cuda::par.on(stream)` and
`thrust/system/cuda/execution_policy.h` become rocThrust's HIP twins. Skipped without clang on a developer's machine;
CI installs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.compile.headers import bundled
from scanner.target import TargetProfile
from tests.tools import needs

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "thrust_saxpy.cu"


def _check(root: Path, **options) -> dict:
    shutil.copy(FIXTURE, root / "saxpy.cu")
    results = scan(root, ScanOptions(compile_check=True, hip_compiler="clang", translate=True, **options))
    return next(r.compile for r in results if r.path == "saxpy.cu")


def test_rocthrust_is_bundled_with_its_licence_and_pin():
    headers = bundled()
    assert (headers.include / "thrust" / "system" / "hip" / "execution_policy.h").is_file()
    assert (headers.root / "licenses" / "rocThrust-LICENSE").is_file()
    assert any(s["repository"] == "ROCm/rocThrust" for s in headers.sources)


@needs("hip-clang")
def test_a_translated_thrust_program_builds_with_hip_7_2(tmp_path):
    check = _check(tmp_path)
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == []
    assert "rocThrust 3.3.0" in check["compiler"]


@pytest.mark.needs_tool("hip-clang-22")
def test_a_translated_thrust_program_builds_for_gfx942_with_hip_7_14(tmp_path):
    check = _check(tmp_path, target=TargetProfile(("gfx942",), (7, 14)))
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == [] and check["target"] == "gfx942"
    assert "HIP 7.14.0" in check["compiler"]
