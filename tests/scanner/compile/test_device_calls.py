"""What the translator writes for CUDA's integer min/max, system- and block-scope atomics and stream attributes
(scanner.translate.devicecalls, scanner.translate.names) builds for gfx942 with both bundled HIPs. Skipped without
clang on a developer's machine; CI installs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.target import TargetProfile
from tests.tools import needs

FIXTURE = Path(__file__).parents[1] / "fixtures" / "translate" / "device_calls.cu"


def _check(root: Path, **options) -> dict:
    shutil.copy(FIXTURE, root / "calls.cu")
    results = scan(root, ScanOptions(compile_check=True, hip_compiler="clang", translate=True, **options))
    return next(r.compile for r in results if r.path == "calls.cu")


@needs("hip-clang")
def test_the_translation_builds_with_hip_7_2(tmp_path):
    check = _check(tmp_path)
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == []


@pytest.mark.needs_tool("hip-clang-22")
def test_the_translation_builds_for_gfx942_with_hip_7_14(tmp_path):
    check = _check(tmp_path, target=TargetProfile(("gfx942",), (7, 14)))
    assert check["status"] == "compiles", check
    assert check["stubbed"] == [] and check["diagnostics"] == [] and check["target"] == "gfx942"
