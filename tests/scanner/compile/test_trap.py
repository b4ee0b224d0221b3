"""A kernel that calls `__trap()` on an error (diff-gaussian-rasterization's auxiliary.h, llm.c) builds once
translated. Skipped without clang-19/lld-19 on a developer's machine; CI installs them."""

from __future__ import annotations

from scanner import ScanOptions, scan
from tests.tools import needs

pytestmark = needs("hip-clang")


def test_a_kernel_that_traps_builds(tmp_path):
    (tmp_path / "k.cu").write_text("__global__ void k(const int* bad) { if (bad[threadIdx.x]) __trap(); }\n")
    check = next(r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang")))
    assert check["status"] == "compiles", check
