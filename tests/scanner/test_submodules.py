"""Submodules in the scanner (scanner.submodules): `.gitmodules` read strictly, checked-out submodules read as headers
only (or scanned with `[scan] submodules = "scan"`), missing ones named in the parse reason of the files that
needed them."""

from __future__ import annotations

import pytest

from scanner import ConfigError, ScanOptions, plan, scan
from scanner.submodules import MAX_ENTRIES, parse, path_problem, url_problem

VENDOR_H = """#pragma once
namespace vendorlib { template <int N> struct Tile { float v[N]; }; }
__device__ inline float vendor_sum(float x) { return x + __shfl_xor_sync(0xffffffff, x, 16); }
"""
KERNEL = """#include <vendorlib/tile.h>
#include <gonelib/api.h>
__global__ void k(float *x) { vendorlib::Tile<4> t; x[threadIdx.x] = t.v[0] + vendor_sum(1.0f); }
"""


def _tree(tmp_path, config: str = ""):
    root = tmp_path / "repo"
    (root / "third_party/vendorlib/include/vendorlib").mkdir(parents=True)
    (root / "third_party/gonelib").mkdir(parents=True)  # listed, not checked out (empty)
    (root / "src").mkdir()
    (root / ".gitmodules").write_text(
        '[submodule "vendorlib"]\n\tpath = third_party/vendorlib\n\turl = https://example.com/vendorlib.git\n'
        '[submodule "gonelib"]\n\tpath = third_party/gonelib\n\turl = ../gonelib.git\n'
    )
    (root / "third_party/vendorlib/include/vendorlib/tile.h").write_text(VENDOR_H)
    (root / "src/k.cu").write_text(KERNEL)
    if config:
        (root / ".rocport.toml").write_text(config)
    return root


def test_a_checked_out_submodule_is_read_as_headers_and_never_reported(tmp_path):
    results = {r.path: r for r in scan(_tree(tmp_path))}
    assert set(results) == {"src/k.cu"}
    health = results["src/k.cu"].health
    assert health.stubbed_headers == ["gonelib/api.h"]  # the vendor header was found in the submodule
    assert health.fallback_reason == (
        "submodule third_party/gonelib was not fetched: not checked out (git submodule update --init)"
    )


def test_scan_mode_scans_the_submodule_as_the_projects_own_code(tmp_path):
    options, jobs = plan(_tree(tmp_path, '[scan]\nsubmodules = "scan"\n'))
    assert options.submodules == "scan"
    assert {job.rel for job in jobs} == {"src/k.cu", "third_party/vendorlib/include/vendorlib/tile.h"}


def test_a_bad_submodules_setting_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="scan.submodules"):
        plan(_tree(tmp_path, '[scan]\nsubmodules = "all"\n'))


def test_the_portals_missing_submodules_are_named_as_given(tmp_path):
    options, _ = plan(_tree(tmp_path), ScanOptions(submodules_missing=(("third_party/gonelib", "refused: host"),)))
    assert options.submodules_missing == (("third_party/gonelib", "refused: host"),)


@pytest.mark.parametrize(
    "path,problem",
    [
        ("../x", "leaves the repository"),
        ("a/../../x", "leaves the repository"),
        ("/etc", "is absolute"),
        ("C:/x", "is absolute"),
        (".git/hooks", ".git folder"),
        ("x/.GIT", ".git folder"),
        (".", ".git folder"),
        ("a\nb", "control character"),
        ("-rf", "starts with '-'"),
        ("third_party/cutlass", ""),
    ],
)
def test_paths_must_stay_inside_the_tree(path, problem):
    assert (problem in path_problem(path)) if problem else path_problem(path) == ""


@pytest.mark.parametrize(
    "url,problem",
    [
        ("ext::sh -c touch% /tmp/pwned", "remote helper"),
        ("fd::17", "remote helper"),
        ("--upload-pack=touch /tmp/pwned", "starts with '-'"),
        ("https://example.com/a b", "space"),
        ("", "no URL"),
        ("https://github.com/NVIDIA/cutlass.git", ""),
        ("../cutlass.git", ""),
    ],
)
def test_urls_that_would_run_something_are_refused(url, problem):
    assert (problem in url_problem(url)) if problem else url_problem(url) == ""


def test_gitmodules_is_read_strictly_and_bounded():
    many = "".join(f'[submodule "s{n}"]\n\tpath = deps/s{n}\n\turl = https://h/s{n}.git\n' for n in range(500))
    entries = parse(many)
    assert len(entries) == MAX_ENTRIES + 1 and "more than" in entries[-1].problem
    tricky = parse(
        '[submodule "a"]\n\tpath = "quoted/path" ; comment\n\turl = https://h/a.git\n\tpath = ../later\n'
        "[include]\n\tpath = /etc/passwd\n"
        '[submodule "b"]\n\turl = https://h/b.git\n'  # no path: not a submodule
    )
    assert [(e.path, e.url, e.problem) for e in tricky] == [("quoted/path", "https://h/a.git", "")]


def test_a_missing_submodule_is_named_through_the_include_directory_the_build_gives(tmp_path):
    """`#include <cute/tensor.hpp>` spells neither the submodule's path nor its name: the CMake include directory
    inside `third_party/cutlass` says which submodule would have served it."""
    root = tmp_path / "repo"
    (root / "third_party/cutlass").mkdir(parents=True)  # listed, not checked out
    (root / "src").mkdir()
    (root / ".gitmodules").write_text(
        '[submodule "cutlass"]\n\tpath = third_party/cutlass\n\turl = https://github.com/NVIDIA/cutlass.git\n'
    )
    (root / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(tiles LANGUAGES CXX CUDA)\n"
        "add_library(tiles src/tile.cu)\ntarget_include_directories(tiles PRIVATE third_party/cutlass/include)\n"
    )
    (root / "src/tile.cu").write_text(
        "#include <cute/tensor.hpp>\n#include <cuda_fp16.h>\n__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n"
    )
    (root / "src/plain.cu").write_text("#include <cute/tensor.hpp>\n__global__ void k(float *x) { x[0] = 1.0f; }\n")
    results = {r.path: r for r in scan(root)}
    reason = results["src/tile.cu"].health.fallback_reason
    assert "submodule third_party/cutlass was not fetched: not checked out" in reason
    # No build puts the submodule on this file's include path: nothing says which submodule it would need.
    assert "submodule" not in results["src/plain.cu"].health.fallback_reason


def test_the_text_and_json_summaries_list_the_submodules_not_read(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    root, repo = _tree(tmp_path), Path(__file__).resolve().parents[2]
    text = subprocess.run(
        [sys.executable, "-m", "scanner", "scan", str(root), "--fail-on", "never"],
        capture_output=True,
        text=True,
        cwd=repo,
    )
    assert "submodule third_party/gonelib not read: not checked out" in text.stdout
    report = subprocess.run(
        [sys.executable, "-m", "scanner", "scan", str(root), "--format", "json", "--fail-on", "never"],
        capture_output=True,
        text=True,
        cwd=repo,
    )
    assert json.loads(report.stdout)["summary"]["submodules_missing"] == [
        {"path": "third_party/gonelib", "why": "not checked out (git submodule update --init)"}
    ]
