"""Build files and images for platforms that cannot host the profile's GPU: their findings are info (scanner.analysis
.port_notes). Cases a fixture cannot hold: the file's name or directory decides."""

from __future__ import annotations

from scanner.model import Severity
from tests.scanner.helpers import analyze_path, write_tree

_IMAGE = "FROM nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV NVIDIA_VISIBLE_DEVICES=all\n"
_TOOLCHAIN = """\
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR {processor})
set(CMAKE_CUDA_ARCHITECTURES 72 87)
"""


def severities(root, rel, codes):
    return {f.severity for f in analyze_path(root / rel, root, codes=codes).findings}


def test_a_dockerfile_named_for_jetson_is_info(tmp_path):
    root = write_tree(tmp_path, {"docker/Dockerfile.jetson": _IMAGE, "docker/Dockerfile": _IMAGE})
    assert severities(root, "docker/Dockerfile.jetson", ["ROC221", "ROC222"]) == {Severity.INFO}
    assert Severity.HIGH in severities(root, "docker/Dockerfile", ["ROC221", "ROC222"])


def test_a_from_resolved_through_an_arg_default_is_judged_by_its_image(tmp_path):
    text = "ARG BASE=nvcr.io/nvidia/l4t-base:r36.2.0\nFROM ${BASE}\nENV NVIDIA_VISIBLE_DEVICES=all\n"
    root = write_tree(tmp_path, {"Dockerfile": text})
    assert severities(root, "Dockerfile", ["ROC222"]) == {Severity.INFO}


def test_an_aarch64_toolchain_file_is_info_and_an_x86_64_one_is_not(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "cmake/aarch64.cmake": _TOOLCHAIN.format(processor="aarch64"),
            "cmake/x86_64.cmake": _TOOLCHAIN.format(processor="x86_64"),
        },
    )
    assert severities(root, "cmake/aarch64.cmake", ["ROC204"]) == {Severity.INFO}
    assert Severity.INFO not in severities(root, "cmake/x86_64.cmake", ["ROC204"])


def test_a_cmakelists_that_sets_the_processor_is_not_a_toolchain_file(tmp_path):
    root = write_tree(tmp_path, {"CMakeLists.txt": _TOOLCHAIN.format(processor="aarch64")})
    assert Severity.INFO not in severities(root, "CMakeLists.txt", ["ROC204"])


_CI_ENV = "export CUDA_HOME=/usr/local/cuda-11.6\nexport PATH=${CUDA_HOME}/bin:$PATH\n"


def test_a_shell_script_named_for_windows_is_info_and_its_linux_sibling_is_not(tmp_path):
    # pytorch_scatter's CI keeps one environment script per CUDA version and runner OS.
    root = write_tree(
        tmp_path,
        {".github/workflows/cuda/cu116-Windows-env.sh": _CI_ENV, ".github/workflows/cuda/cu116-Linux-env.sh": _CI_ENV},
    )
    assert severities(root, ".github/workflows/cuda/cu116-Windows-env.sh", ["ROC214"]) == {Severity.INFO}
    assert Severity.INFO not in severities(root, ".github/workflows/cuda/cu116-Linux-env.sh", ["ROC214"])
    # a word of the path, not any part of one: `windowsill` names no platform
    root = write_tree(tmp_path / "other", {"scripts/windowsill-env.sh": _CI_ENV})
    assert Severity.INFO not in severities(root, "scripts/windowsill-env.sh", ["ROC214"])


_ENVIRONMENT = "name: dev\nchannels: [conda-forge]\ndependencies:\n  - cuda-nvcc\n  - nccl\n  - numpy\n"


def test_an_environment_named_for_aarch64_is_info_and_its_x86_64_twin_is_not(tmp_path):
    files = {
        "conda/environments/all_cuda-129_arch-aarch64.yaml": _ENVIRONMENT,
        "conda/environments/all_cuda-129_arch-x86_64.yaml": _ENVIRONMENT,
    }
    root = write_tree(tmp_path, files)
    arm = severities(root, "conda/environments/all_cuda-129_arch-aarch64.yaml", ["ROC223", "ROC241"])
    assert arm == {Severity.INFO}
    assert Severity.INFO not in severities(root, "conda/environments/all_cuda-129_arch-x86_64.yaml", ["ROC241"])


_WORKFLOW = """name: gpu-tests
on: [push]
jobs:
  test-arm:
    runs-on: [linux-arm64-gpu-a100]
    steps:
      - run: nvidia-smi -L | grep -c GPU
  test-x86:
    runs-on: [self-hosted, linux, x64, a100]
    steps:
      - run: nvidia-smi -L | grep -c GPU
"""


def test_a_github_job_whose_runners_are_arm_is_info_and_the_x86_64_one_is_not(tmp_path):
    root = write_tree(tmp_path, {".github/workflows/gpu.yml": _WORKFLOW})
    found = {f.line: f.severity for f in analyze_path(root / ".github/workflows/gpu.yml", root).findings}
    assert found[5] == Severity.INFO and found[7] == Severity.INFO
    assert found[9] != Severity.INFO and found[11] != Severity.INFO
