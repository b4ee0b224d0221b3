"""cuda_fp16.h's and cuda_bf16.h's types in host code shared with device code build once translated: `half h = 1.0f`,
arithmetic on `__half` and `__nv_bfloat16` on the host, `std::vector<half>`, the types reaching the kernel file through
the project's own header, and the conversions HIP lacks (tests/scanner/fixtures/translate/half_host). Skipped without clang-19/lld-19 on a
developer's machine; CI installs them."""

from __future__ import annotations

import shutil
from pathlib import Path

from scanner import ScanOptions, scan
from tests.tools import needs

pytestmark = needs("hip-clang")

FIXTURES = Path(__file__).parents[1] / "fixtures" / "translate" / "half_host"


def test_host_code_with_half_and_bf16_builds_once_translated(tmp_path):
    for name in ("common.h", "scale.cu"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    checks = {r.path: r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang"))}
    assert checks["scale.cu"]["status"] == "compiles", checks["scale.cu"]
    assert checks["scale.cu"]["diagnostics"] == [] and checks["scale.cu"]["stubbed"] == []
    assert checks["common.h"]["status"] == "compiles", checks["common.h"]


def test_the_conversions_hip_lacks_build_once_translated(tmp_path):
    shutil.copy(FIXTURES / "convert.cu", tmp_path / "convert.cu")
    check = next(r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang")))
    assert check["status"] == "compiles", check  # __double2half, __floats2bfloat162_rn: not in HIP's headers
