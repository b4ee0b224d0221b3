"""The rest of the repository (build files, containers, scripts, CI, Python, host setup): discovery, parsers and
their fallback, `#` suppressions, which rules count as having run, and the repository-level pass."""

from __future__ import annotations

import pytest

from scanner import ScanOptions, plan, repository, scan
from scanner.discovery import language_of
from scanner.model import ParseMode
from scanner.rules import catalogue, rules_run
from tests.scanner.helpers import analyze_text


@pytest.mark.parametrize(
    "name, rel_dir, language",
    [
        ("kernel.cu", "", "cuda"),
        ("x.h", "", "c++"),
        ("k.ptx", "", "ptx"),
        ("CMakeLists.txt", "", "cmake"),
        ("FindFoo.cmake", "cmake", "cmake"),
        ("Makefile", "", "make"),
        ("rules.mk", "", "make"),
        ("GNUmakefile", "", "make"),
        ("Dockerfile", "", "dockerfile"),
        ("Dockerfile.rocm", "", "dockerfile"),
        ("Dockerfile_amd", "", "dockerfile"),
        ("Dockerfile-rocm", "", "dockerfile"),
        ("dockerfile-lint.json", "", None),
        ("app.Dockerfile", "", "dockerfile"),
        ("Containerfile", "", "dockerfile"),
        ("run.sh", "", "shell"),
        ("env.bash", "", "shell"),
        ("ci.yml", ".github/workflows", "yaml"),
        (".gitlab-ci.yml", "", "yaml"),
        # Issue and discussion forms: text for reporters, nothing runs them.
        ("bug_report.yml", ".github/ISSUE_TEMPLATE", None),
        ("installation.yaml", ".github/ISSUE_TEMPLATE", None),
        ("ideas.yml", ".github/DISCUSSION_TEMPLATE", None),
        ("bug.yml", ".gitlab/issue_templates", None),
        ("template.yml", ".github/workflows", "yaml"),
        ("deploy.yaml", "k8s", "yaml"),
        ("environment.yml", "", "conda"),
        ("conda-env.yaml", "", "conda"),
        ("setup.py", "", "python"),
        ("serve.py", "", "python"),
        ("requirements.txt", "", "requirements"),
        ("requirements-dev.txt", "", "requirements"),
        ("base.txt", "requirements", "requirements"),
        ("notes.txt", "", None),
        ("pyproject.toml", "", "pyproject"),
        ("Cargo.toml", "", None),
        ("sysctl.conf", "etc", "sysctl"),
        ("90-gpu.conf", "etc/sysctl.d", "sysctl"),
        ("nginx.conf", "etc", None),
    ],
)
def test_discovery_knows_the_text_languages(name, rel_dir, language):
    assert language_of(name, rel_dir) == language


PLAIN_TORCH = """\
import os
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.cuda.set_device(0)
print(torch.cuda.get_device_name(0), torch.cuda.device_count(), torch.version.hip)
x = torch.randn(8192, 8192, device=device, dtype=torch.float16)
torch.cuda.synchronize()
with torch.cuda.amp.autocast():
    y = x @ x
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.backends.cudnn.enabled)
"""


def test_plain_torch_cuda_is_not_a_finding_of_any_rule(tmp_path):
    result = analyze_text(tmp_path, PLAIN_TORCH, name="train.py")
    assert result.health.mode == ParseMode.TEXT
    assert result.findings == []


def test_a_yaml_file_its_parser_rejects_is_analysed_by_lines_and_says_so(tmp_path):
    text = "services:\n  app:\n    runtime: nvidia\n    command: [nvidia-smi\n  bad: : :\n"
    result = analyze_text(tmp_path, text, name="docker-compose.yml")
    assert result.error == ""
    assert result.health.mode == ParseMode.TOKENS
    assert result.health.error_count == 1 and "not valid YAML" in result.health.first_errors[0]
    assert "analysed by lines" in result.health.fallback_reason
    assert {(f.rule, f.line) for f in result.findings} >= {("ROC226", 3), ("ROC231", 4)}


def test_python_that_ast_rejects_still_has_its_imports_checked(tmp_path):
    result = analyze_text(tmp_path, "import pycuda.autoinit\nprint 'python 2'\n", name="old.py")
    assert result.health.mode == ParseMode.TOKENS
    assert [(f.rule, f.line) for f in result.findings] == [("ROC243", 1)]


def test_binary_text_files_are_errors_and_non_utf8_ones_are_read_with_the_guess_said(tmp_path):
    (tmp_path / "Dockerfile").write_bytes(b"FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n# caf\xe9\n")
    (tmp_path / "run.sh").write_bytes(b"\0\0binary")
    results = {r.path: r for r in scan(tmp_path, ScanOptions())}
    docker = results["Dockerfile"]
    assert docker.health.mode == ParseMode.TEXT and not docker.error
    assert docker.health.encoding_guess.startswith("latin-1") and docker.findings
    assert results["run.sh"].health.mode == ParseMode.ERROR


def test_hash_comment_suppressions_work_in_text_files(tmp_path):
    text = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04  # rocport: ignore[ROC221] CUDA build stage, kept\n"
        "# rocport: ignore[container-nvidia-container-env] read by the NVIDIA job only\n"
        "ENV NVIDIA_VISIBLE_DEVICES=all\n"
        "ENV NVIDIA_DRIVER_CAPABILITIES=compute\n"
    )
    result = analyze_text(tmp_path, text, name="Dockerfile")
    by_line = {f.line: f for f in result.findings}
    assert by_line[1].suppressed and by_line[1].suppression_reason == "CUDA build stage, kept"
    assert by_line[3].suppressed and "NVIDIA job" in by_line[3].suppression_reason
    assert not by_line[4].suppressed


def test_rules_run_is_right_for_text_languages_and_the_repository():
    enabled = list(catalogue().values())
    dockerfile = rules_run("text", "dockerfile", enabled)
    assert {"ROC221", "ROC222", "ROC223"} <= dockerfile and "ROC101" not in dockerfile and "ROC261" not in dockerfile
    assert "ROC226" in rules_run("tokens", "yaml", enabled)  # lines fallback: the rule still ran
    assert rules_run("text", "repository", enabled) == frozenset({"ROC261"})
    cuda = rules_run("ast", "cuda", enabled)
    assert "ROC101" in cuda and not any(code.startswith("ROC2") for code in cuda)
    assert rules_run("error", "shell", enabled) == frozenset()


SETUP = "#!/bin/bash\nsudo amdgpu-install -y --usecase=rocm\nsudo sysctl -w vm.max_map_count=262144\n"


def test_scan_yields_the_repository_level_finding_last(tmp_path):
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "setup.sh").write_text(SETUP)
    (tmp_path / "k.cu").write_text("__global__ void k(int *o) { o[threadIdx.x] = 1; }\n")
    results = list(scan(tmp_path, ScanOptions()))
    assert [r.path for r in results] == ["deploy/setup.sh", "k.cu", "."]
    [finding] = results[-1].findings
    assert (finding.rule, finding.path, finding.line) == ("ROC261", "deploy/setup.sh", 2)
    assert finding.fingerprint and results[-1].language == "repository"


def test_numa_balancing_disabled_anywhere_means_no_repository_finding(tmp_path):
    (tmp_path / "setup.sh").write_text(SETUP)
    (tmp_path / "etc" / "sysctl.d").mkdir(parents=True)
    (tmp_path / "etc" / "sysctl.d" / "90-amd.conf").write_text("kernel.numa_balancing = 0\n")
    assert [r.path for r in scan(tmp_path, ScanOptions())] == ["etc/sysctl.d/90-amd.conf", "setup.sh"]


def test_finalize_is_what_the_portal_calls_after_its_own_pool_run(tmp_path):
    (tmp_path / "setup.sh").write_text(SETUP)
    options, jobs = plan(tmp_path, ScanOptions())
    extra = repository.finalize(tmp_path, options, jobs)  # no per-file results needed: cache-proof
    assert extra is not None and extra.path == "." and extra.findings[0].rule == "ROC261"
    assert repository.finalize(tmp_path, options.merged(disable=("ROC261",)), jobs) is None
    # The identity is the repository's: moving the setup elsewhere keeps the fingerprint.
    (tmp_path / "setup.sh").rename(tmp_path / "bootstrap.sh")
    options, jobs = plan(tmp_path, ScanOptions())
    assert repository.finalize(tmp_path, options, jobs).findings[0].fingerprint == extra.findings[0].fingerprint


def test_a_suppression_on_the_locating_line_suppresses_the_repository_finding(tmp_path):
    (tmp_path / "setup.sh").write_text(
        SETUP.replace("--usecase=rocm\n", "--usecase=rocm  # rocport: ignore[ROC261] NUMA handled by the image\n")
    )
    options, jobs = plan(tmp_path, ScanOptions())
    finding = repository.finalize(tmp_path, options, jobs).findings[0]
    assert finding.suppressed and finding.suppression_reason == "NUMA handled by the image"


def test_python_docstrings_are_documentation_not_commands(tmp_path):
    text = (
        '"""Tools.\n\nRun `nvidia-smi` and export CUDA_VISIBLE_DEVICES=0 first.\n"""\n\n\n'
        'def probe():\n    """Calls nvidia-smi."""\n    return ["nvidia-smi", "-L"]\n'
    )
    result = analyze_text(tmp_path, text, name="tools.py")
    assert [(f.rule, f.line) for f in result.findings] == [("ROC231", 9)]


def test_a_one_line_string_with_escaped_newlines_reports_on_its_own_line(tmp_path):
    text = 'x = 1\ncmd = "echo a\\nnvidia-smi\\n"\n'
    result = analyze_text(tmp_path, text, name="tools.py")
    assert [(f.rule, f.line) for f in result.findings] == [("ROC231", 2)]


def test_a_letter_outside_ascii_at_the_top_of_a_cmake_file_starts_no_command(tmp_path):
    """`é` is a letter to str.isalpha() but starts no CMake command: it crashed the parser (found by the fuzz
    suite once Latin-1 files were read instead of refused)."""
    (tmp_path / "CMakeLists.txt").write_bytes("caf\xe9 \xff\nenable_language(CUDA)\n".encode("latin-1"))
    result = next(r for r in scan(tmp_path, ScanOptions()) if r.path == "CMakeLists.txt")
    assert not result.error and result.health.encoding_guess.startswith("latin-1")
    assert any(f.line == 2 for f in result.findings)
