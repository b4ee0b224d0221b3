"""A kernel template given to cudaFuncSetAttribute with several template arguments builds once translated: the
cast HIP's `const void*` overload needs wraps the whole template-id. Skipped without clang-19/lld-19 on a
developer's machine; CI installs them."""

from __future__ import annotations

import textwrap

from scanner import ScanOptions, scan
from tests.tools import needs

pytestmark = needs("hip-clang")

PROGRAM = """
    #include <cuda_runtime.h>
    template <int TILE_H, int K> __global__ void butterfly(float* x) { x[threadIdx.x] *= TILE_H * K; }

    template <int TILE_H> void launch(float* x) {
        cudaFuncSetAttribute(&butterfly<TILE_H, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
        butterfly<TILE_H, 1><<<1, 32, 65536>>>(x);
    }

    template void launch<16>(float*);
"""


def test_the_template_id_is_cast_whole(tmp_path):
    (tmp_path / "k.cu").write_text(textwrap.dedent(PROGRAM))
    check = next(r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang")))
    assert check["status"] == "compiles", check


def test_a_launch_with_spaced_chevrons_builds(tmp_path):
    source = "template <int C> __global__ void render(float* x) { x[threadIdx.x] = C; }\n"
    source += "void f(float* x) { render<3> << <1, 32 >> > (x); }\n"
    (tmp_path / "k.cu").write_text(source)
    check = next(r.compile for r in scan(tmp_path, ScanOptions(compile_check=True, hip_compiler="clang")))
    assert check["status"] == "compiles", check
