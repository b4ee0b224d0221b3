"""The compile check with both real toolchains (Debian's hipcc and libamdhip64-dev; Debian's clang-19, lld-19 and clang-tools-19
with the bundled ROCm headers; no GPU): translated fixtures that
build, fail on a 32-bit ballot, fail only when their inline PTX is assembled, need a stub; and a machine without
hipcc (a configured path that does not exist), where every file says "not checked" and why.

The fixture project is tests/scanner/compile/fixtures/project (its .rocport.toml sets the include directory and
the gfx90a target). Tests that need hipcc are skipped without it; CI installs it (scripts/ensure-hipcc.sh).
"""

from __future__ import annotations

import json
import tempfile
from io import StringIO
from pathlib import Path

import pytest

from scanner import ScanOptions, scan
from scanner.compile import describe
from scanner.compile.toolchain import child_env, resolve
from scanner.report.json_report import JsonReport
from scanner.report.summary import Summary
from tests.scanner.helpers import compile_path
from tests.tools import needs, require

PROJECT = Path(__file__).parent / "fixtures" / "project"
needs_hipcc = needs("hipcc")


@pytest.fixture(scope="module", params=["hipcc", "clang"])
def scanned(request, tmp_path_factory):
    """The fixture project scanned once per toolchain with the check on, two workers: (results by path, what the
    run left in its temporary directory). Both toolchains must give the same answers on it."""
    require("hipcc" if request.param == "hipcc" else "hip-clang")
    scratch = tmp_path_factory.mktemp("scratch")
    saved, tempfile.tempdir = tempfile.tempdir, str(scratch)
    try:
        options = ScanOptions(compile_check=True, jobs=2, hip_compiler=request.param)
        results = {r.path: r for r in scan(PROJECT, options)}
    finally:
        tempfile.tempdir = saved
    return results, list(scratch.iterdir())


@pytest.fixture(scope="module")
def results(scanned):
    return scanned[0]


def _compile_findings(result):
    return [(f.rule, f.line) for f in result.findings if f.rule.startswith("ROC9")]


@needs_hipcc
def test_a_translation_that_builds_compiles_with_no_finding(results):
    result = results["src/builds.cu"]
    check = result.compile
    assert check["status"] == "compiles", check
    assert check["target"] == "gfx90a" and "HIP" in check["compiler"] and check["unit"] == "src/builds.cu"
    assert check["stubbed"] == [] and check["diagnostics"] == [] and check["cacheable"]
    assert _compile_findings(result) == []
    # its header is checked inside it, and builds too
    assert results["include/vector_math.cuh"].compile["status"] == "compiles"
    assert results["include/vector_math.cuh"].compile["unit"] == "src/builds.cu"


@needs_hipcc
def test_a_32bit_ballot_fails_with_a_finding_at_the_cuda_line(results):
    result = results["src/ballot32.cu"]
    check = result.compile
    assert check["status"] == "fails"
    assert check["counts"] == {"type-mismatch": 1}
    [diagnostic] = check["diagnostics"]
    assert "64-bit wavefront mask stored in 32 bits" in diagnostic["message"]
    # The translation inserted `#include <hip/hip_runtime.h>` above: the HIP line is further down, the finding
    # is at the CUDA line that holds the ballot.
    assert diagnostic["line"] == 4 and diagnostic["hip_line"] > 4
    assert _compile_findings(result) == [("ROC903", 4)]
    finding = next(f for f in result.findings if f.rule == "ROC903")
    assert "__ballot" in finding.snippet and finding.column == finding.snippet.index("__ballot") + 3
    assert finding.risk.value == "build-break" and finding.fingerprint


@needs_hipcc
def test_inline_ptx_fails_when_assembled_and_is_reported_in_the_header(results):
    header = results["include/lanes.cuh"]
    assert header.compile["status"] == "fails" and header.compile["unit"] == "src/uses_lanes.cu"
    assert _compile_findings(header) == [("ROC904", 6)]
    assert header.compile["diagnostics"][0]["included_from"] == "src/uses_lanes.cu:3"
    source = results["src/uses_lanes.cu"]
    assert source.compile["status"] == "fails"
    assert source.compile["reason"] == "errors in files it includes: include/lanes.cuh"
    assert _compile_findings(source) == []  # reported once, where it is


@needs_hipcc
def test_inline_ptx_passes_a_syntax_only_compilation():
    """Why the check compiles with -c: the same translated unit passes -fsyntax-only."""
    toolchain = resolve("", ("gfx90a",))
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "ptx.hip"
        source.write_text(
            (PROJECT / "include" / "lanes.cuh").read_text()
            + "__global__ void k(unsigned *o) { o[threadIdx.x] = lane_id(); }\n"
        )
        from scanner.compile.toolchain import run

        syntax = run(
            toolchain.command(str(source), str(Path(tmp) / "x.o"), ["-include", "hip/hip_runtime.h", "-fsyntax-only"]),
            tmp,
            toolchain.env,
            60,
        )
        compiled = run(
            toolchain.command(str(source), str(Path(tmp) / "x.o"), ["-include", "hip/hip_runtime.h"]),
            tmp,
            toolchain.env,
            60,
        )
    assert syntax.returncode == 0, syntax.stderr
    assert compiled.returncode != 0 and "invalid instruction" in compiled.stderr


@needs_hipcc
def test_a_header_this_machine_lacks_is_stubbed_and_named(results):
    result = results["src/vendor_user.cu"]
    check = result.compile
    assert check["status"] == "compiles-with-stubs"
    assert check["stubbed"] == ["acme_vendor/acme.h"]
    assert check["set_aside"] == 1  # acme_register: what the stub would have declared
    assert [d["kind"] for d in check["diagnostics"]] == ["set-aside"]
    assert _compile_findings(result) == []


@needs_hipcc
def test_files_without_cuda_and_c_files_are_not_compiled(results):
    assert results["src/host_tool.cpp"].compile["status"] == "not-checked"
    assert "no CUDA" in results["src/host_tool.cpp"].compile["reason"]
    assert results["src/legacy.c"].compile["status"] == "not-checked"
    assert "C file" in results["src/legacy.c"].compile["reason"]


def test_without_hipcc_every_file_says_not_checked_and_why(tmp_path):
    missing = tmp_path / "no-such-dir" / "hipcc"
    results = list(scan(PROJECT, ScanOptions(compile_check=True, hipcc=str(missing))))
    checked = [r for r in results if r.compile is not None]
    assert {r.path for r in checked} >= {"src/builds.cu", "src/ballot32.cu", "include/lanes.cuh"}
    for result in checked:
        assert result.compile["status"] == "not-checked"
    reasons = {r.compile["reason"] for r in checked if r.language == "cuda"}
    assert reasons == {
        f"{missing} is not an executable file; install the Debian packages hipcc and "
        "libamdhip64-dev (scripts/ensure-hipcc.sh) or configure its path"
    }
    # the scan itself is whole: the other rules ran, nothing of the check's
    ballot = next(r for r in results if r.path == "src/ballot32.cu")
    assert any(f.rule == "ROC107" for f in ballot.findings)
    assert not any(f.rule.startswith("ROC9") for r in results for f in r.findings)
    assert describe(ScanOptions(compile_check=True, hipcc=str(missing)))["available"] is False


@needs_hipcc
def test_the_json_report_and_summary_carry_the_status(results):
    out = StringIO()
    report, summary = JsonReport(out), Summary()
    report.begin(str(PROJECT), ScanOptions())
    for result in results.values():
        report.add(result)
        summary.add(result)
    report.end(summary)
    data = json.loads(out.getvalue())
    by_path = {f["path"]: f for f in data["files"]}
    assert by_path["src/builds.cu"]["compile"]["status"] == "compiles"
    assert data["summary"]["compile"] == {
        "target": "gfx90a",
        "files": {"compiles": 2, "compiles-with-stubs": 1, "fails": 3, "not-checked": 2},
    }


@needs("hip-clang")
def test_a_hostile_file_name_never_reaches_a_shell(tmp_path):
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    names = ["$(touch PWNED_A).cu", "a;touch PWNED_B;.cu", "`touch PWNED_C`.cu", "b c'd\".cu"]
    for name in names:
        (root / "src" / name).write_text("__global__ void k(float *x) { x[threadIdx.x] = 1.f; }\n")
    results = {r.path: r for r in scan(root, ScanOptions(compile_check=True))}
    for name in names:
        assert results[f"src/{name}"].compile["status"] == "compiles", results[f"src/{name}"].compile
    for where in (root, root / "src", Path.cwd(), Path(tempfile.gettempdir())):
        assert not list(where.glob("PWNED_*")), where


@needs_hipcc
def test_a_check_that_runs_out_of_time_is_not_checked_and_not_cached():
    result = compile_path(PROJECT / "src" / "ballot32.cu", PROJECT, timeout=0.01)
    assert result.compile["status"] == "not-checked"
    assert result.compile["reason"].startswith("timed out after 0.01s")
    assert result.compile["cacheable"] is False
    assert [f.rule for f in result.findings] == ["ROC107"]  # the rest of the analysis is kept


@needs_hipcc
def test_a_target_this_hipcc_cannot_build_for_falls_back_to_gfx90a_and_says_so():
    toolchain = resolve("", ("gfx9999",))
    assert toolchain.arch == "gfx90a"
    assert toolchain.note.startswith("gfx9999: not buildable with this hipcc") and "gfx90a" in toolchain.note
    assert f"--offload-arch={toolchain.arch}" in toolchain.argv


@needs_hipcc
def test_the_pool_leaves_no_temporary_tree_behind(scanned):
    assert scanned[1] == []


def test_the_compiler_never_sees_nvidia_settings():
    env = child_env(
        {
            "PATH": "/usr/bin",
            "CUDA_PATH": "/usr/local/cuda",
            "CUDA_HOME": "/usr/local/cuda",
            "HIP_PLATFORM": "nvidia",
            "HIP_COMPILER": "nvcc",
            "HIPCC_COMPILE_FLAGS_APPEND": "-x cu",
        }
    )
    assert env == {"PATH": "/usr/bin", "HIP_PLATFORM": "amd", "LC_ALL": "C", "LANG": "C"}


def test_the_command_line_switches_the_check_on_and_reports_it(tmp_path, capsys):
    from scanner.cli import main

    missing = str(tmp_path / "hipcc")
    assert main(["scan", str(PROJECT), "--compile-check", "--hipcc", missing, "--fail-on", "never"]) == 0
    text = capsys.readouterr().out
    assert "compile check (no hipcc): not-checked 8" in text
    assert (
        main(["scan", str(PROJECT), "--compile-check", "--hipcc", missing, "--format", "json", "--fail-on", "never"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    statuses = {f["path"]: f["compile"]["status"] for f in data["files"] if "compile" in f}
    assert statuses["src/builds.cu"] == "not-checked" and "translation" in data["files"][0]
    assert main(["scan", str(PROJECT), "--compile-check", "--offload-arch", "sm_80"]) == 2


@needs_hipcc
def test_a_bug_in_the_check_costs_the_check_not_the_files_analysis():
    from scanner.compile import CompileChecker, CompileSettings
    from scanner.engine import Analyzer, FileJob
    from scanner.rules import catalogue
    from scanner.target import TargetProfile
    from scanner.translate import TranslateOptions, Translator
    from tests.scanner.helpers import parser

    class Broken(CompileChecker):  # a stand-in for a bug in the check, nothing else is replaced
        def check(self, job, original, translated):
            raise RuntimeError("boom")

    translator = Translator(TranslateOptions(backend="builtin"))
    checker = Broken(CompileSettings(arch="gfx90a"), lambda rel, text, path: translator.translate(rel, text).text)
    path = PROJECT / "src" / "ballot32.cu"
    job = FileJob(str(path), "src/ballot32.cu", "cuda", compile_unit="src/ballot32.cu")
    try:
        result = Analyzer(
            parser(), list(catalogue().values()), TargetProfile(), 2_000_000, translator, checker
        ).analyze(job)
    finally:
        checker.close()
    assert result.error == "" and [f.rule for f in result.findings] == ["ROC107"]
    assert result.compile["status"] == "not-checked" and "RuntimeError('boom')" in result.compile["reason"]
    assert result.compile["cacheable"] is False
