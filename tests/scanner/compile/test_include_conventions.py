"""Headers the build model could not place on the include path, found where builds conventionally put them: an
ancestor folder of the including file, or that folder's `include/` (scanner.compile.graph.conventional_base), in the
include graph and in the compile check's search path, instead of stubbed."""

from __future__ import annotations

from pathlib import Path

from scanner import ScanOptions, scan
from scanner.compile.graph import build, conventional_base
from scanner.target import TargetProfile
from tests.tools import needs

FILES = {
    # a vendored project that includes its headers from its own root (its CMake adds that root by a variable)
    "third_party/tiles/src/core/shape.h": "#pragma once\nstruct Shape { int m, n; };\n",
    "third_party/tiles/src/kernels/scale.cu": (
        '#include "src/core/shape.h"\n'
        "__global__ void scale(float* p, Shape s) { p[threadIdx.x] *= s.m; }\n"
        "void run(float* p, Shape s) { scale<<<1, 32>>>(p, s); }\n"
    ),
    # a project whose public headers are under cpp/include/, included from cpp/bench/
    "cpp/include/lib/fill.hpp": "#pragma once\n__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }\n",
    "cpp/bench/fill_bench.cu": "#include <lib/fill.hpp>\n#include <vector>\nvoid go(int* p) { fill<<<1, 64>>>(p, 7); }\n",
}


def _write(root: Path) -> None:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_an_unresolved_header_is_found_under_an_ancestor_or_its_include_folder(tmp_path):
    _write(tmp_path)
    assert (
        conventional_base(tmp_path, "third_party/tiles/src/kernels/scale.cu", "src/core/shape.h") == "third_party/tiles"
    )
    assert conventional_base(tmp_path, "cpp/bench/fill_bench.cu", "lib/fill.hpp") == "cpp/include"
    assert conventional_base(tmp_path, "cpp/bench/fill_bench.cu", "vector") is None  # not a header name
    assert conventional_base(tmp_path, "cpp/bench/fill_bench.cu", "lib/missing.hpp") is None
    assert conventional_base(tmp_path, "cpp/bench/fill_bench.cu", "../../../outside.h") is None
    graph = build(tmp_path, sorted(FILES), ())
    assert graph.edges["third_party/tiles/src/kernels/scale.cu"] == ("third_party/tiles/src/core/shape.h",)
    assert graph.edges["cpp/bench/fill_bench.cu"] == ("cpp/include/lib/fill.hpp",)


def test_a_header_the_build_places_is_not_looked_for_elsewhere(tmp_path):
    _write(tmp_path)
    (tmp_path / "cpp/bench/lib").mkdir()
    (tmp_path / "cpp/bench/lib/fill.hpp").write_text("#pragma once\n")
    graph = build(tmp_path, sorted(FILES), (str(tmp_path / "cpp/bench"),))
    assert graph.edges["cpp/bench/fill_bench.cu"] == ("cpp/bench/lib/fill.hpp",)


@needs("hip-clang")
def test_the_check_compiles_with_those_headers_not_stubs(tmp_path):
    _write(tmp_path)
    options = ScanOptions(compile_check=True, hip_compiler="clang", translate=True, target=TargetProfile(("gfx942",)))
    results = {r.path: r.compile for r in scan(tmp_path, options) if r.path.endswith(".cu")}
    assert sorted(results) == ["cpp/bench/fill_bench.cu", "third_party/tiles/src/kernels/scale.cu"]
    for check in results.values():
        assert check["status"] == "compiles" and check["stubbed"] == [], check
