"""What the translator writes for CUDA's integer min/max, system- and block-scope atomics and stream attributes
(scanner.translate.devicecalls, scanner.translate.names), and OpenGL interop, builds for gfx942 with both bundled HIPs. Skipped without
clang on a developer's machine; CI installs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.target import TargetProfile
from tests.tools import needs

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate"
# device_calls.cu: the names above; gl_interop.cu: cuda_gl_interop.h -> hip/hip_gl_interop.h, with the map flags
# programs pass to cudaGraphicsGLRegisterBuffer
NAMES = ("device_calls.cu", "gl_interop.cu")


def _check(root: Path, **options) -> dict:
    for name in NAMES:
        shutil.copy(FIXTURES / name, root / name)
    results = scan(root, ScanOptions(compile_check=True, hip_compiler="clang", translate=True, **options))
    return {r.path: r.compile for r in results if r.path in NAMES}


@needs("hip-clang")
def test_the_translation_builds_with_hip_7_2(tmp_path):
    for check in _check(tmp_path).values():
        assert check["status"] == "compiles", check
        assert check["stubbed"] == [] and check["diagnostics"] == []


@pytest.mark.needs_tool("hip-clang-22")
def test_the_translation_builds_for_gfx942_with_hip_7_14(tmp_path):
    for check in _check(tmp_path, target=TargetProfile(("gfx942",), (7, 14))).values():
        assert check["status"] == "compiles", check
        assert check["stubbed"] == [] and check["diagnostics"] == [] and check["target"] == "gfx942"
