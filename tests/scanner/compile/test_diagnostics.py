"""The compile check's pure parts: clang's output parsed and sorted, the line map, the include graph, the
[compile] section of .rocport.toml. The compiler output below is what hipcc 5.2 (clang 15) prints, copied from
real runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.compile import diagnostics, findings
from scanner.compile.check import CompileChecker, CompileSettings, _Unit
from scanner.compile.graph import attach, build, units
from scanner.compile.headers import BundledHeaders, HipSet
from scanner.compile.linemap import LineMap
from scanner.compile.toolchain import Toolchain
from scanner.config import ConfigError, ScanOptions, from_mapping
from scanner.engine import FileJob
from scanner.rules import catalogue, rules_run

TREE = {"src/a.hip", "include/common.cuh", "src/k.hip"}
LINES = {
    ("src/k.hip", 4): "  unsigned int mask = __ballot(in[threadIdx.x] > 0);",
    ("src/k.hip", 5): "  size_t n = 4; int m = n;",
}


def parse(output: str, stubbed: bool = False):
    return diagnostics.parse(output, lambda p: p in TREE, lambda p, n: LINES.get((p, n), ""), stubbed)


def test_a_device_error_reported_for_the_device_and_the_host_is_kept_once():
    output = (
        "src/a.hip:19:10: error: use of undeclared identifier '__shfl_down_sync'\n"
        "1 error generated when compiling for gfx90a.\n"
        "src/a.hip:19:10: error: use of undeclared identifier '__shfl_down_sync'\n"
        "1 error generated when compiling for host.\n"
    )
    [d] = parse(output)
    assert (d.kind, d.path, d.hip_line, d.column) == ("undeclared-cuda-name", "src/a.hip", 19, 10)


def test_an_error_in_a_header_remembers_the_include_line_that_led_to_it():
    output = (
        "In file included from src/a.hip:3:\ninclude/common.cuh:14:47: error: invalid output constraint '=f' in asm\n"
    )
    [d] = parse(output)
    assert (d.kind, d.path, d.included_from) == ("inline-asm", "include/common.cuh", "src/a.hip:3")


def test_a_note_saying_why_no_overload_matched_joins_the_message_and_decides_the_kind():
    host = (
        "src/a.hip:11:22: error: no matching function for call to 'host_only'\n"
        "src/a.hip:8:5: note: candidate function not viable: call to __host__ function from __global__ "
        "function\n"
    )
    types = (
        "src/a.hip:7:3: error: no matching function for call to '__shfl'\n"
        "/usr/include/hip/amd_detail/amd_warp_functions.h:70:5: note: candidate function not viable: no "
        "known conversion from 'Pair' to 'int' for 1st argument\n"
    )
    [d] = parse(host)
    assert d.kind == "other" and d.message.endswith(
        "(candidate function not viable: call to __host__ function from __global__ function)"
    )
    [d] = parse(types)
    assert d.kind == "type-mismatch" and "no known conversion" in d.message


def test_only_the_truncation_of_a_wave_mask_is_promoted_from_a_warning():
    output = (
        "src/k.hip:4:23: warning: implicit conversion loses integer precision: 'unsigned long long' to "
        "'unsigned int' [-Wshorten-64-to-32]\n"
        "src/k.hip:5:25: warning: implicit conversion loses integer precision: 'size_t' (aka 'unsigned "
        "long') to 'int' [-Wshorten-64-to-32]\n"
        "src/k.hip:5:1: warning: unused variable 'm' [-Wunused-variable]\n"
    )
    [d] = parse(output)
    assert (d.kind, d.hip_line) == ("type-mismatch", 4)
    assert d.message.startswith("a 64-bit wavefront mask stored in 32 bits")


def test_names_a_stubbed_header_would_declare_are_set_aside_but_cuda_names_are_not():
    output = (
        "src/a.hip:9:11: error: unknown type name 'hipblasHandle_t'\n"
        "src/a.hip:16:3: error: use of undeclared identifier 'nvtxRangePushA'\n"
    )
    assert [d.kind for d in parse(output, stubbed=True)] == ["set-aside", "undeclared-cuda-name"]
    assert [d.kind for d in parse(output, stubbed=False)] == ["other", "undeclared-cuda-name"]


def test_an_error_on_the_line_of_a_stubbed_name_follows_from_the_stub_and_is_set_aside_too():
    """A PyTorch extension without torch's headers: `complex_t` (from a stubbed header) undeclared makes the constexpr
    on its line not constant, and rocPRIM's `std::chrono` unparsed where torch would have brought <chrono>. Neither
    is the code's error; an error on another line still is."""
    header = "/cache/rocm-headers/include/rocprim/device/device_transform.hpp"
    output = (
        "src/a.hip:41:30: error: use of undeclared identifier 'complex_t'\n"
        "src/a.hip:41:20: error: constexpr variable 'kIsComplex' must be initialized by a constant expression\n"
        f"{header}:195:9: error: no member named 'chrono' in namespace 'std'\n"
        f"{header}:195:9: error: expected '(' for function-style cast or type construction\n"
        "src/a.hip:50:3: error: no matching function for call to 'load'\n"
    )
    kinds = [d.kind for d in parse(output, stubbed=True)]
    assert kinds == ["set-aside", "set-aside", "set-aside", "set-aside", "type-mismatch"]
    assert [d.kind for d in parse(output, stubbed=False)][:2] == ["other", "other"]  # nothing stubbed: the code's


def test_pytorchs_dispatch_key_and_the_types_a_stubbed_name_leaves_unknown_are_set_aside():
    """pyg-lib checked without torch: `TORCH_LIBRARY_IMPL(pyg, CUDA, m)` leaves `CUDA` (a dispatch key, no CUDA
    API) undeclared, and `const std::optional<at::Tensor>& out = std::nullopt` fails once `at` is gone and clang
    took the type for `int`. A type error on a line without a stubbed name is still the translation's."""
    output = (
        "src/a.hip:76:27: error: use of undeclared identifier 'CUDA'\n"
        "src/a.hip:22:25: error: use of undeclared identifier 'at'\n"
        "src/a.hip:22:44: error: no viable conversion from 'const nullopt_t' to 'const int'\n"
        "src/a.hip:30:3: error: use of undeclared identifier 'CUDA_R_16F'\n"
        "src/a.hip:31:9: error: no viable conversion from 'hipError_t' to 'cudaError_t'\n"
    )
    kinds = [d.kind for d in parse(output, stubbed=True)]
    assert kinds == ["set-aside", "set-aside", "set-aside", "undeclared-cuda-name", "type-mismatch"]


def test_uses_of_a_function_declared_with_a_stubbed_type_are_set_aside():
    """flash-fft-conv's kernels take torch's `complex_half_t`: stubbed, the template is invalid and every
    `hipFuncSetAttribute(reinterpret_cast<const void*>(&k<1>), ...)` fails to resolve it. A function whose
    declaration is whole still fails."""
    lines = {
        16: "__global__ void kernel_64(",
        17: "    const __half2 *__restrict__ x,",
        18: "    complex_half_t *tw,",
        19: "    int M)",
        30: "void other(int n);",
        31: "__global__ void fine(complex_half_t* p) {}",
    }
    output = (
        "src/a.hip:18:5: error: unknown type name 'complex_half_t'\n"
        "src/a.hip:681:20: error: reinterpret_cast cannot resolve overloaded function 'kernel_64' to type "
        "'const void *'\n"
        "src/a.hip:31:23: error: unknown type name 'complex_half_t'\n"
        "src/a.hip:700:3: error: no matching function for call to 'other'\n"
    )
    parsed = diagnostics.parse(output, lambda p: p in TREE, lambda p, n: lines.get(n, ""), True)
    assert [d.kind for d in parsed] == ["set-aside", "set-aside", "set-aside", "type-mismatch"]
    # declared in a header: lmdeploy's Logger::LogFatal takes fmt's format_string, fmt stubbed
    header = {
        54: "    [[noreturn]] void LogFatal(SourceLocation loc, fmt::format_string<Args...> fmt_str, Args&&... args)"
    }
    output = (
        "include/common.cuh:54:48: error: no member named 'format_string' in namespace 'fmt'\n"
        "src/a.hip:122:9: error: no matching member function for call to 'LogFatal'\n"
    )
    parsed = diagnostics.parse(
        output, lambda p: p in TREE, lambda p, n: header.get(n, "") if p != "src/a.hip" else "", True
    )
    assert [d.kind for d in parsed] == ["set-aside", "set-aside"]


def test_a_global_namespace_a_stubbed_header_declares_is_set_aside_with_its_line():
    """A benchmark fixture deriving from `::benchmark::Fixture` with google benchmark's header stubbed: the missing
    namespace and the base class it leaves undeclared follow from the stub; with nothing stubbed they are the
    code's."""
    output = (
        "bench/common.hpp:84:25: error: no member named 'benchmark' in the global namespace\n"
        "bench/common.hpp:84:36: error: expected class name\n"
    )
    tree = {"bench/common.hpp"}
    parsed = diagnostics.parse(output, lambda p: p in tree, lambda p, n: "", True)
    assert [d.kind for d in parsed] == ["set-aside", "set-aside"]
    parsed = diagnostics.parse(output, lambda p: p in tree, lambda p, n: "", False)
    assert [d.kind for d in parsed] == ["other", "other"]


def test_a_parse_error_further_down_a_statement_a_stub_began_is_set_aside():
    """pytorch_cluster's radius_cuda.h with torch stubbed: the declaration's later line fails to parse because its
    first line names torch; after a line that ends a statement, an error is the code's again."""
    lines = {
        5: "torch::Tensor radius_cuda(torch::Tensor x, torch::Tensor y,",
        6: "                          std::optional<torch::Tensor> ptr_x, double r,",
        7: "                          int64_t max_num_neighbors);",
        8: "int f(int a,",
        9: "      b c);",
    }
    output = (
        "src/a.hip:5:1: error: use of undeclared identifier 'torch'\n"
        "src/a.hip:7:27: error: unexpected type name 'int64_t': expected expression\n"
        "src/a.hip:9:9: error: expected ')'\n"
    )
    parsed = diagnostics.parse(output, lambda p: p in TREE, lambda p, n: lines.get(n, ""), True)
    assert [d.kind for d in parsed] == ["set-aside", "set-aside", "other"]


def test_the_message_of_an_error_outside_the_repository_is_withheld():
    output = (
        "In file included from src/a.hip:1:\n"
        "/etc/passwd:1:1: error: unknown type name 'root'\n"
        "<inline asm>:1:2: error: unknown directive\n"
        "clang: error: cannot find ROCm device library for gfx1100\n"
    )
    outside, asm, driver = parse(output)
    assert (outside.path, outside.message, outside.in_tree) == (
        "/etc/passwd",
        "an error in a file outside the repository",
        False,
    )
    assert (asm.kind, asm.message) == ("inline-asm", "unknown directive")
    assert (driver.kind, driver.path, driver.message) == ("other", "", "cannot find ROCm device library for gfx1100")


@pytest.mark.parametrize(
    "name, nvidia",
    [
        ("nccl.h", True),
        ("nvToolsExt.h", True),
        ("cuda/std/atomic", True),
        ("cub/cub.cuh", True),
        ("cudnn.h", True),
        ("thrust/sort.h", False),
        ("hipblas.h", False),
        ("acme_vendor/acme.h", False),
    ],
)
def test_nvidia_headers_are_told_from_headers_a_machine_may_lack(name, nvidia):
    assert diagnostics.is_nvidia_header(name) is nvidia


def test_the_line_map_follows_lines_the_translation_inserted():
    original = "// k\n__global__ void k() {\n  x();\n}\n"
    translated = '// k\n#include "hip/hip_runtime.h"\n__global__ void k() {\n  x();\n}\n'
    lines = LineMap(original, translated)
    assert [lines.original(n) for n in range(1, 6)] == [1, 2, 2, 3, 4]
    assert lines.original(99) == 4
    same = LineMap(original, original)
    assert [same.original(n) for n in range(1, 5)] == [1, 2, 3, 4]


def test_a_header_is_checked_inside_its_first_includer_and_a_fragment_alone_is_not(tmp_path):
    files = {
        "include/util.cuh": '#include "detail.inl"\n',
        "include/detail.inl": "",
        "include/orphan.cuh": "",
        "include/alone.inl": "",
        "src/b.cu": '#include "util.cuh"\n',
        "src/a.cpp": "#include <util.cuh>\n",
        "src/c.cu": '#include "../include/util.cuh"\n#include "/etc/passwd"\n#include "../../outside.h"\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    rels = sorted(files)
    graph = build(tmp_path, rels, (str(tmp_path / "include"),))
    assert graph.closure("src/b.cu") == ("include/detail.inl", "include/util.cuh")
    assert graph.edges["src/c.cu"] == ("include/util.cuh",)  # nothing outside the checkout
    chosen = units(graph, rels)
    assert chosen["include/util.cuh"] == "src/b.cu"  # .cu sources first, then path order
    assert chosen["include/detail.inl"] == "src/b.cu"
    assert chosen["include/orphan.cuh"] == "include/orphan.cuh"
    assert "include/alone.inl" not in chosen
    jobs = attach(tmp_path, [FileJob(str(tmp_path / r), r, "cuda") for r in rels], (str(tmp_path / "include"),))
    by_rel = {j.rel: j for j in jobs}
    assert by_rel["include/util.cuh"].compile_deps == ("include/detail.inl", "src/b.cu")


def test_the_compile_section_of_the_configuration_is_checked():
    options = from_mapping(
        {"compile": {"offload_arch": "gfx90a", "std": "gnu++20", "timeout_seconds": 30}}, ScanOptions()
    )
    assert (options.compile_arch, options.compile_std, options.compile_timeout_seconds) == ("gfx90a", "gnu++20", 30)
    for section, key in (
        ({"offload_arch": "sm_80"}, "compile.offload_arch"),
        ({"std": "c++17 -fplugin=x.so"}, "compile.std"),
        ({"timeout_seconds": 0}, "compile.timeout_seconds"),
    ):
        with pytest.raises(ConfigError, match=key):
            from_mapping({"compile": section}, ScanOptions())
    with pytest.raises(ConfigError, match="compile.args"):  # compiler flags are the operator's, not the repository's
        from_mapping({"compile": {"args": ["-fplugin=evil.so"]}}, ScanOptions())


def test_compile_rules_count_as_run_only_where_the_check_built_the_file():
    enabled = list(catalogue().values())
    compile_codes = {c for c, r in catalogue().items() if "compile" in r.on}
    assert compile_codes == {"ROC901", "ROC902", "ROC903", "ROC904", "ROC905"}
    assert not compile_codes & rules_run("ast", "cuda", enabled)
    assert compile_codes <= rules_run("ast", "cuda", enabled, compiled=True)
    assert not compile_codes & rules_run("text", "cmake", enabled, compiled=True)


def test_an_error_in_an_instantiated_hip_header_lands_on_the_line_that_asked_for_it():
    # clang 19 with HIP 6.3's headers: a 32-bit mask given to __shfl_xor_sync fails HIP's static_assert.
    header = "/cache/rocm-headers/include/hip/amd_detail/amd_warp_sync_functions.h"
    output = (
        "In file included from src/k.hip:1:\n"
        f"{header}:276:52: error: static assertion failed due to requirement 'sizeof(unsigned int) == 8': "
        "The mask must be a 64-bit integer. Implicitly promoting a smaller integer is almost always an error.\n"
        "src/k.hip:4:8: note: in instantiation of function template specialization "
        "'__shfl_xor_sync<unsigned int, float>' requested here\n"
        f"{header}:276:66: note: expression evaluates to '4 == 8'\n"
    )
    [found] = parse(output)
    assert (found.path, found.hip_line, found.column, found.in_tree) == ("src/k.hip", 4, 8, True)
    assert found.kind == "type-mismatch" and "64-bit" in found.message


def test_an_api_newer_than_the_bundled_headers_is_the_toolchains_gap_not_the_codes():
    # No such name today (HIP 7.2 and 7.14 are bundled, each for its own ROCm): a made-up one stands for an API of
    # a ROCm newer than the newest bundled HIP, which a profile of that ROCm may use.
    newer = frozenset({"__rocport_future_sync"})
    output = "src/k.hip:4:14: error: use of undeclared identifier '__rocport_future_sync'\n"
    found = diagnostics.parse(output, lambda p: p in TREE, lambda p, n: "", False, newer)
    assert [d.kind for d in found] == [diagnostics.TOOLCHAIN_GAP]
    checker = CompileChecker(CompileSettings(), translate=None)
    try:
        toolchain = Toolchain("clang++-22", "clang 22.1.8, HIP 7.14.0 (ROCm 7.14) headers", "gfx942", ())
        result = checker._result_for("src/k.hip", "src/k.hip", _Unit(found, []), toolchain)
    finally:
        checker.close()
    assert result.status == "compiles-with-stubs"  # checked, except for what the headers predate
    assert "predate" in result.note and result.causes == {"environment": 1}
    assert parse(output) and parse(output)[0].kind == "undeclared-cuda-name"  # without `newer`: the code's error


_HEADERS = BundledHeaders(Path("/h"), {"hipblas": "2.4.0", "libraries_rocm": "6.3.0"}, (), ())
_CLANG_19 = Toolchain(
    "clang++-19",
    f"clang 19.1.7, {_HEADERS.describe(HipSet((7, 2, 0), Path('/h/hip-7.2'), 19))}",  # as clang_hip.resolve says it
    "gfx942",
    (),
    kind="clang",
    hip=(7, 2, 0),
)
_CLANG_22 = Toolchain(
    "clang++-22",
    f"clang 22.1.8, {_HEADERS.describe(HipSet((7, 14, 0), Path('/h/hip-7.14'), 22))}",
    "gfx942",
    (),
    kind="clang",
    hip=(7, 14, 0),
)
_HIPCC = Toolchain("/usr/bin/hipcc", "HIP 5.2.21153, clang 15.0.6", "gfx90a", ())  # as toolchain._version says it


@pytest.mark.parametrize(
    ("toolchain", "named"),
    [
        (_CLANG_19, "clang 19 with HIP 7.2's headers (gfx942): "),
        (_CLANG_22, "clang 22 with HIP 7.14's headers (gfx942): "),
        (_HIPCC, "hipcc (gfx90a): "),
    ],
)
def test_a_compile_finding_names_the_toolchain_that_judged_it(toolchain, named):
    """Clang with the bundled HIP headers is the default toolchain: its findings must not say "hipcc"."""
    lines = ["#include <cuda_runtime.h>", "__global__ void k() { __stwt(0, 0); }"]
    found = diagnostics.Diagnostic("undeclared-cuda-name", "src/k.cu", 2, 23, "use of undeclared identifier '__stwt'")
    found.line = 2
    reports = findings.reports(
        [catalogue()["ROC902"]], "src/k.cu", {"target": toolchain.arch}, [found], lines, "\n".join(lines), [], toolchain
    )
    assert [
        r.message.removesuffix(" A CUDA name HIP does not declare: replace it by its HIP counterpart.") for r in reports
    ] == [f"{named}use of undeclared identifier '__stwt'."]
    assert toolchain.kind == "hipcc" or "hipcc" not in reports[0].message
