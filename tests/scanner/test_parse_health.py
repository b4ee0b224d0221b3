"""Parse health: every file says how it was understood, and bad input costs one file, never the scan."""

from __future__ import annotations

import os

from scanner import ScanOptions, scan
from scanner.model import ParseMode
from tests.scanner.helpers import analyze_text

KERNEL = """
#include <cuda_runtime.h>
#include "project/missing_helpers.h"
#include <thrust/device_vector.h>
__global__ void k(float *x) {
  int lane = threadIdx.x % 32;
  x[lane] = 0;
}
"""


def test_unknown_includes_are_stubbed_and_named(tmp_path):
    result = analyze_text(tmp_path, KERNEL, codes=["ROC101"])
    assert result.health.mode == ParseMode.AST_STUBBED
    assert set(result.health.stubbed_headers) >= {"cuda_runtime.h", "project/missing_helpers.h",
                                                 "thrust/device_vector.h"}
    assert [f.rule for f in result.findings] == ["ROC101"]


def test_a_real_project_header_is_parsed_not_stubbed(tmp_path):
    (tmp_path / "defs.h").write_text("#define LANES 32\n")
    result = analyze_text(tmp_path, '#include "defs.h"\n__global__ void k(int *o) { o[0] = threadIdx.x % LANES; }\n',
                          codes=["ROC101"])
    assert result.health.mode == ParseMode.AST
    assert result.health.stubbed_headers == []
    assert [f.line for f in result.findings] == [2]


def test_headers_included_by_project_headers_are_stubbed_by_reparsing(tmp_path):
    (tmp_path / "outer.h").write_text("#include <inner/deep.h>\n#define LANES 32\n")
    result = analyze_text(tmp_path, '#include "outer.h"\n__global__ void k(int *o) { o[0] = threadIdx.x % LANES; }\n',
                          codes=["ROC101"])
    assert "inner/deep.h" in result.health.stubbed_headers
    assert result.health.reparse_rounds >= 1
    assert [f.line for f in result.findings] == [2]


def test_a_syntax_error_still_gives_a_result_with_the_errors_counted(tmp_path):
    text = "__global__ void k(float *x) {\n  int lane = threadIdx.x % 32;\n  x[lane] = ;\n}\n"
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert result.error == ""
    assert result.health.error_count >= 1
    assert any(e.startswith("3:") for e in result.health.first_errors)
    assert [f.line for f in result.findings] == [2]


def test_garbage_falls_back_to_tokens_and_says_so(tmp_path):
    text = "\n".join(["}}} ]] ) __AMDGCN_WAVEFRONT_SIZE ((( ;; <<<"] * 40) + "\n"
    result = analyze_text(tmp_path, text, codes=["ROC109"])
    assert result.health.mode == ParseMode.TOKENS
    assert result.health.fallback_reason
    assert len(result.findings) == 40  # token rules still run


def test_binary_file_is_an_error_result(tmp_path):
    (tmp_path / "blob.cu").write_bytes(b"\x7fELF\x00\x00\x01binary")
    (tmp_path / "ok.cu").write_text("__global__ void k() {}\n")
    results = {r.path: r for r in scan(tmp_path, ScanOptions())}
    assert results["blob.cu"].health.mode == ParseMode.ERROR
    assert "binary" in results["blob.cu"].error
    assert results["ok.cu"].health.mode == ParseMode.AST


def test_non_utf8_and_oversized_files_are_error_results(tmp_path):
    (tmp_path / "latin1.cu").write_bytes("// caf\xe9\n".encode("latin-1"))
    (tmp_path / "huge.cu").write_text("int x;\n" * 1000)
    results = {r.path: r for r in scan(tmp_path, ScanOptions(max_file_bytes=2000))}
    assert "not UTF-8" in results["latin1.cu"].error
    assert "cap" in results["huge.cu"].error
    assert all(r.health.mode == ParseMode.ERROR for r in results.values())


def test_a_symlink_leaving_the_tree_is_reported_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.cu").write_text("__global__ void k() {}\n")
    root = tmp_path / "repo"
    root.mkdir()
    os.symlink(outside / "secret.cu", root / "escape.cu")
    (root / "real.cu").write_text("__global__ void k() {}\n")
    results = {r.path: r for r in scan(root, ScanOptions())}
    assert results["escape.cu"].health.mode == ParseMode.ERROR
    assert "leaving the scanned tree" in results["escape.cu"].error
    assert results["real.cu"].health.mode == ParseMode.AST


def test_inactive_preprocessor_branches_are_reported(tmp_path):
    text = "#if __CUDA_ARCH__ >= 800\nint fast;\n#else\nint slow;\n#endif\n#if 0\nint never;\n#endif\n"
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    skipped_lines = {line for start, end in result.health.skipped_ranges for line in range(start, end + 1)}
    assert 2 in skipped_lines and 7 in skipped_lines
    assert 4 not in skipped_lines


def test_prelude_resolves_cuda_calls_to_real_declarations(tmp_path):
    text = ("void f(float **p, int n) {\n  cudaMallocManaged(p, n);\n  cudnnHandle_t h;\n  cudnnCreate(&h);\n"
            "  cudaStream_t s = nullptr;\n  cudaStreamCreate(&s);\n}\n")
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert result.health.mode == ParseMode.AST
    assert result.health.error_count == 0, result.health.first_errors


def test_per_file_statistics_count_cuda_references_by_kind(tmp_path):
    text = "#include <cuda_runtime.h>\nvoid f(float **p) {\n  cudaMalloc(p, 4);\n  cudaFree(*p);\n}\n"
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert result.stats.cuda_refs["memory"] == 2
    assert result.stats.cuda_refs["include_cuda_main_header"] == 1
    assert result.stats.lines == 5


def test_namespace_and_attribute_macros_from_missing_headers_are_defined_empty_on_retry(tmp_path):
    body = "".join(f"MYLIB_DEVICE int f{i}(int x) {{ return x + {i}; }}\n" for i in range(30))
    text = ('#include <mylib/config.h>\nMYLIB_NAMESPACE_BEGIN\n' + body +
            "__global__ void k(int *o) { o[threadIdx.x % 32] = 1; }\nMYLIB_NAMESPACE_END\n")
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert result.health.mode == ParseMode.AST_STUBBED
    assert {"MYLIB_NAMESPACE_BEGIN=", "MYLIB_DEVICE="} <= set(result.health.defines)
    assert [f.line for f in result.findings] == [33]
