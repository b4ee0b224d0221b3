"""Headers of a vendored copy (`third_party/cutlass`) that nothing of the repository's own includes are compiled
by nobody (scanner.build.vendored): their findings are low at most, while the copy's headers the project does
include keep their rating."""

from __future__ import annotations

from scanner import ScanOptions, build, scan
from tests.scanner.helpers import write_tree

WARP_HEADER = "#pragma once\n#define TILE_WARP_SIZE 32\n__device__ int lane() { return threadIdx.x % 32; }\n"

CMAKE = """
cmake_minimum_required(VERSION 3.21)
project(kernels LANGUAGES CXX CUDA)
add_library(kernels STATIC src/gemm.cu)
target_include_directories(kernels PRIVATE third_party/tilelib/include)
"""


def _tree(tmp_path, extra: dict[str, str] | None = None):
    files = {
        "CMakeLists.txt": CMAKE,
        "src/gemm.cu": '#include "tilelib/gemm.h"\n__global__ void k(int* x) { x[0] = 1; }\n',
        "third_party/tilelib/LICENSE.txt": "BSD\n",
        "third_party/tilelib/include/tilelib/gemm.h": '#pragma once\n#include "tilelib/warp.h"\n',
        "third_party/tilelib/include/tilelib/warp.h": WARP_HEADER,
        "third_party/tilelib/include/tilelib/conv/conv.h": WARP_HEADER,
        "third_party/tilelib/include/tilelib/conv/conv_impl.h": '#include "tilelib/conv/conv.h"\n',
    }
    files.update(extra or {})
    return write_tree(tmp_path, files)


def _model(root):
    return build.read(str(root), [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()])


def test_a_vendored_header_nothing_of_ours_includes_is_compiled_by_nobody(tmp_path):
    model = _model(_tree(tmp_path))
    assert model.of("third_party/tilelib/include/tilelib/warp.h").verdict() == "compiled"  # through gemm.h
    # conv.h is included only by another header of the copy that nothing of ours includes
    assert model.of("third_party/tilelib/include/tilelib/conv/conv.h").verdict() == "none"
    assert model.of("third_party/tilelib/include/tilelib/conv/conv_impl.h").verdict() == "none"


def test_an_unevaluated_build_file_does_not_make_an_unreached_vendored_header_unknown(tmp_path):
    # a build file the reader cannot evaluate makes "no build compiles it" unsayable for the project's own
    # headers; the vendored header nothing includes stays compiled by nobody
    root = _tree(
        tmp_path, {"tools/Makefile": "KVER := $(shell uname -r)\nall:\n\tgcc -o t t.c\n", "include/api.h": "int f();\n"}
    )
    model = _model(root)
    assert model.notes
    assert model.of("include/api.h").verdict() == "unknown"
    assert model.of("third_party/tilelib/include/tilelib/conv/conv.h").verdict() == "none"


def test_a_vendored_header_the_project_s_own_header_includes_stays_unknown(tmp_path):
    # the project's own public header (installed for its users) includes the copy's conv.h: users compile it
    root = _tree(tmp_path, {"include/kernels/api.h": '#include "tilelib/conv/conv.h"\n'})
    assert _model(root).of("third_party/tilelib/include/tilelib/conv/conv.h").verdict() == "unknown"


def test_a_copy_the_build_installs_is_the_project_s_api(tmp_path):
    installs = CMAKE + "install(DIRECTORY third_party/tilelib/include/ DESTINATION include)\n"
    root = _tree(tmp_path, {"CMakeLists.txt": installs})
    assert _model(root).of("third_party/tilelib/include/tilelib/conv/conv.h").verdict() == "unknown"


def test_a_licensed_folder_with_compiled_sources_is_the_project_s_own(tmp_path):
    # python/ carries a copy of the licence for its package, and the build compiles its sources
    cmake = CMAKE + "add_library(bind SHARED python/bind.cu)\n"
    root = _tree(
        tmp_path,
        {
            "CMakeLists.txt": cmake,
            "python/LICENSE": "BSD\n",
            "python/bind.cu": "int b;\n",
            "python/extra.h": "int e;\n",
        },
    )
    model = _model(root)
    assert "python/extra.h" not in model.unreached
    assert model.of("python/extra.h").verdict() == "unknown"


def test_findings_in_an_unreached_vendored_header_are_low_and_say_why(tmp_path):
    root = _tree(tmp_path)
    found = {r.path: [f for f in r.findings if f.rule in ("ROC101", "ROC104")] for r in scan(str(root), ScanOptions())}
    unreached = found["third_party/tilelib/include/tilelib/conv/conv.h"]
    reached = found["third_party/tilelib/include/tilelib/warp.h"]
    assert unreached and all(f.severity.value in ("low", "info") for f in unreached)
    assert any("No build of this repository compiles this file" in f.message for f in unreached)
    assert reached and {f.severity.value for f in reached} >= {"high"}
