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
    assert set(result.health.stubbed_headers) >= {
        "cuda_runtime.h",
        "project/missing_helpers.h",
        "thrust/device_vector.h",
    }
    assert [f.rule for f in result.findings] == ["ROC101"]


def test_a_real_project_header_is_parsed_not_stubbed(tmp_path):
    (tmp_path / "defs.h").write_text("#define LANES 32\n")
    result = analyze_text(
        tmp_path, '#include "defs.h"\n__global__ void k(int *o) { o[0] = threadIdx.x % LANES; }\n', codes=["ROC101"]
    )
    assert result.health.mode == ParseMode.AST
    assert result.health.stubbed_headers == []
    assert [f.line for f in result.findings] == [2]


def test_headers_included_by_project_headers_are_all_stubbed_before_the_first_parse(tmp_path):
    """Clang stops at the first missing header (a fatal error), so finding them by reparsing costs one parse per
    header, and a deep project ran out of rounds: the include graph is walked first instead."""
    (tmp_path / "outer.h").write_text('#include <inner/deep.h>\n#include "middle.h"\n#define LANES 32\n')
    (tmp_path / "middle.h").write_text("".join(f"#include <missing{n}.h>\n" for n in range(12)))
    result = analyze_text(
        tmp_path, '#include "outer.h"\n__global__ void k(int *o) { o[0] = threadIdx.x % LANES; }\n', codes=["ROC101"]
    )
    assert {"inner/deep.h", "missing0.h", "missing11.h"} <= set(result.health.stubbed_headers)
    assert result.health.reparse_rounds == 0
    assert result.health.mode == ParseMode.AST_STUBBED
    assert [f.line for f in result.findings] == [2]


def test_a_missing_system_header_and_its_names_cost_the_main_file_nothing(tmp_path):
    """llm.c's shape: a project header includes <glob.h>, <dirent.h>, <sys/stat.h> and uses their names; stubbed
    empty, those names are declared by the prelude, and the main file keeps its AST."""
    (tmp_path / "llmc").mkdir()
    (tmp_path / "llmc" / "loader.h").write_text(
        "#include <glob.h>\n#include <dirent.h>\n#include <sys/stat.h>\n#include <stdio.h>\n#include <math.h>\n"
        "static int shards(const char *p) { glob_t g; glob(p, 0, 0, &g); globfree(&g);\n"
        "  struct stat st; if (stat(p, &st) != 0) mkdir(p, 0700); DIR *d = opendir(p); closedir(d);\n"
        '  FILE *f = fopen(p, "rb"); fseek(f, 0, SEEK_END); if (feof(f) || ferror(f)) return (int)M_PI;\n'
        "  return (int)g.gl_pathc + isprint('a') + strncmp(p, \"x\", 1); }\n"
    )
    result = analyze_text(
        tmp_path, '#include "llmc/loader.h"\n__global__ void k(int *o) { o[0] = threadIdx.x % 32; }\n', codes=["ROC101"]
    )
    assert result.health.mode == ParseMode.AST_STUBBED, result.health
    assert "glob.h" in result.health.stubbed_headers and result.health.error_count == 0
    assert [f.line for f in result.findings] == [2]


def test_a_project_header_found_by_name_under_another_folder_is_parsed_not_stubbed(tmp_path):
    """`#include <kernels.cuh>` that the build finds through -Icsrc: the header's folder joins the search path."""
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "kernels.cuh").write_text("#define LANES 32\nenum Mode { FP4, NF4 };\n")
    (tmp_path / "src").mkdir()
    result = analyze_text(
        tmp_path,
        "#include <kernels.cuh>\n__global__ void k(int *o) { o[0] = threadIdx.x % LANES + NF4; }\n",
        name="src/ops.cu",
        codes=["ROC101"],
    )
    assert "kernels.cuh" not in result.health.stubbed_headers
    assert result.health.error_count == 0 and [f.line for f in result.findings] == [2]


def test_a_fatal_error_two_headers_deep_names_the_header_and_the_include_chain(tmp_path):
    from scanner.parsing.clang_unit import Parser, ParseSettings

    (tmp_path / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "b.h").write_text("#define HDR <only_seen_by_clang.h>\n#include HDR\n")  # no walk can see it
    main = tmp_path / "main.cu"
    main.write_text('#include "a.h"\n__global__ void k() {}\n')
    unit = Parser(ParseSettings(max_reparse_rounds=0)).parse(str(main), main.read_text(), "cuda", (), str(tmp_path))
    assert unit.mode == ParseMode.TOKENS
    assert unit.fallback_reason == (
        "a fatal error stopped the parse: in b.h line 2: 'only_seen_by_clang.h' file not "
        "found (included from main.cu -> a.h)"
    )
    # With its rounds, the parser stubs what clang found and the file is read whole.
    unit = Parser().parse(str(main), main.read_text(), "cuda", (), str(tmp_path))
    assert unit.mode == ParseMode.AST_STUBBED and unit.rounds == 1


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


def test_oversized_files_are_error_results(tmp_path):
    (tmp_path / "huge.cu").write_text("int x;\n" * 1000)
    results = {r.path: r for r in scan(tmp_path, ScanOptions(max_file_bytes=2000))}
    assert "cap" in results["huge.cu"].error
    assert results["huge.cu"].health.mode == ParseMode.ERROR


def test_a_latin1_byte_in_a_comment_costs_nothing_and_the_guess_is_reported(tmp_path):
    source = "// (c) caf\xe9 s\xe0rl\n__global__ void k(int *o) { o[threadIdx.x % 32] = warpSize; }\n"
    (tmp_path / "latin1.cu").write_bytes(source.encode("latin-1"))
    (tmp_path / "utf8.cu").write_text(source, encoding="utf-8")
    results = {r.path: r for r in scan(tmp_path, ScanOptions())}
    latin1, utf8 = results["latin1.cu"], results["utf8.cu"]
    assert latin1.health.mode in (ParseMode.AST, ParseMode.AST_STUBBED) and not latin1.error
    assert latin1.health.encoding_guess.startswith("latin-1") and "0xe9" in latin1.health.encoding_guess
    assert utf8.health.encoding_guess == ""
    assert [(f.rule, f.line) for f in latin1.findings] == [(f.rule, f.line) for f in utf8.findings]
    assert any(f.rule == "ROC101" for f in latin1.findings)


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
    text = (
        "void f(float **p, int n) {\n  cudaMallocManaged(p, n);\n  cudnnHandle_t h;\n  cudnnCreate(&h);\n"
        "  cudaStream_t s = nullptr;\n  cudaStreamCreate(&s);\n}\n"
    )
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
    text = (
        "#include <mylib/config.h>\nMYLIB_NAMESPACE_BEGIN\n"
        + body
        + "__global__ void k(int *o) { o[threadIdx.x % 32] = warpSize; }\nMYLIB_NAMESPACE_END\n"
    )
    result = analyze_text(tmp_path, text, codes=["ROC101"])
    assert result.health.mode == ParseMode.AST_STUBBED
    assert {"MYLIB_NAMESPACE_BEGIN=", "MYLIB_DEVICE="} <= set(result.health.defines)
    assert [f.line for f in result.findings] == [33]


def test_an_include_name_longer_than_the_file_system_allows_is_stubbed_not_a_crash(tmp_path):
    # Found by atheris: a path component over 255 bytes made Path.is_file() raise ENAMETOOLONG out of the parse
    # (and the compile check's include graph would have done the same).
    long_name = "commo" + "\u00ff" * 150 + "n.cuh"  # 310 bytes in UTF-8
    source = f'#include "{long_name}"\n#include <cuda_runtime.h>\n__global__ void k(int* p) {{ p[0] = 1; }}\n'
    result = analyze_text(tmp_path, source, "k.cu")
    # clang cannot open the stub of such a name either: the file falls back to tokens, and says so
    assert not result.error and result.health.mode in (ParseMode.AST_STUBBED, ParseMode.TOKENS)
    assert long_name in result.health.stubbed_headers
    assert [r for r in scan(tmp_path, ScanOptions(compile_check=True)) if r.error] == []


# MinkowskiEngine's shape (a tune project of round 3): a hash map keyed by thrust::pair, with thrust's headers
# missing as on a scanner machine without the CUDA toolkit.
THRUST_PAIR_MAP = """
#include <thrust/pair.h>
template <typename Key, typename Element> struct slot {
  using value_type = thrust::pair<Key, Element>;
  __device__ value_type make(Key k, Element e) const { return thrust::make_pair(k, e); }
};
__global__ void k(int *x) { x[threadIdx.x % 32] = slot<int, int>().make(1, 2).second; }
"""


def test_thrust_pairs_keep_the_tree_without_thrusts_headers(tmp_path):
    result = analyze_text(tmp_path, THRUST_PAIR_MAP, codes=["ROC101"])
    assert result.health.error_count == 0, result.health.first_errors
    assert result.health.mode == ParseMode.AST_STUBBED
    assert [(f.rule, f.line) for f in result.findings] == [("ROC101", 7)]
