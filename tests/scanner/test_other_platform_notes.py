"""Build settings and CI jobs that a Linux x86-64 build with the profile's AMD GPU never reaches are info
(scanner.analysis.port_notes): a job only Windows or macOS runners run, a CMake branch only a CMake older than the
project's minimum takes, flags of a CMake file whose every target is another platform's."""

from __future__ import annotations

from scanner import ScanOptions, Severity, scan
from tests.scanner.helpers import write_tree


def _findings(root) -> dict[tuple[str, int, str], tuple[Severity, str]]:
    return {
        (f.path, f.line, f.rule): (f.severity, f.message)
        for result in scan(root, ScanOptions())
        for f in result.findings
    }


WORKFLOW = """\
name: build
on: [push]
jobs:
  msvc:
    runs-on: windows-2022
    steps:
      - run: echo "CUDA_PATH=C:\\\\CUDA\\\\v12.4" >> $env:GITHUB_ENV
  desktops:
    strategy:
      matrix:
        os: [windows-latest, macos-14]
    runs-on: ${{ matrix.os }}
    steps:
      - run: echo "CUDA_HOME=/opt/cuda" >> $GITHUB_ENV
  everywhere:
    strategy:
      matrix:
        os: [windows-latest, ubuntu-22.04]
    runs-on: ${{ matrix.os }}
    steps:
      - run: echo "CUDA_HOME=/opt/cuda" >> $GITHUB_ENV
  linux:
    runs-on: ubuntu-22.04
    steps:
      - run: echo "CUDA_HOME=/usr/local/cuda" >> $GITHUB_ENV
"""


def test_a_job_only_windows_or_macos_runners_run_is_another_platform(tmp_path):
    found = _findings(write_tree(tmp_path, {".github/workflows/ci.yml": WORKFLOW}))
    path = ".github/workflows/ci.yml"
    for line in (7, 14):
        severity, message = found[(path, line, "ROC214")]
        assert severity == Severity.INFO and "another platform (`runs-on: " in message
    # A matrix that also runs Linux, and a Linux job, are not another platform: they keep ROC214's rating of CI
    # automation (low, not info), without the other-platform note.
    for line in (21, 25):
        severity, message = found[(path, line, "ROC214")]
        assert severity == Severity.LOW and "another platform" not in message and "CI or packaging" in message


ROOT = """\
cmake_minimum_required(VERSION 3.22)
project(samples LANGUAGES CXX CUDA)
add_subdirectory(legacy)
add_subdirectory(viewer)
add_subdirectory(tool)
"""
LEGACY = """\
cmake_minimum_required(VERSION 3.10)
if(CMAKE_VERSION VERSION_LESS 3.17)
  set(CUDA_TOOLKIT_ROOT_DIR "$ENV{CUDA_HOME}")
endif()
if(CMAKE_VERSION VERSION_LESS 3.24)
  set(CUDAToolkit_ROOT "$ENV{CUDA_HOME}")
endif()
if(DEFINED ENV{CUDA_HOME})
  if(CMAKE_VERSION VERSION_LESS 3.18)
    set(CUDA_TOOLKIT_ROOT_DIR "$ENV{CUDA_HOME}")
  endif()
endif()
add_executable(legacy legacy.cu)
"""
VIEWER = """\
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -lineinfo")
set(CMAKE_CUDA_ARCHITECTURES 80 90)
if(WIN32)
  add_executable(viewer viewer.cu)
else()
  message(STATUS "the viewer needs Direct3D: skipped")
endif()
"""
TOOL = """\
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -lineinfo")
if(WIN32)
  add_executable(tray tray.cu)
endif()
add_executable(tool tool.cu)
"""


def _samples(tmp_path):
    kernel = "__global__ void k(float* x) { x[0] = 1.0f; }\n"
    return write_tree(
        tmp_path,
        {
            "CMakeLists.txt": ROOT,
            "legacy/CMakeLists.txt": LEGACY,
            "legacy/legacy.cu": kernel,
            "viewer/CMakeLists.txt": VIEWER,
            "viewer/viewer.cu": kernel,
            "tool/CMakeLists.txt": TOOL,
            "tool/tray.cu": kernel,
            "tool/tool.cu": kernel,
        },
    )


def test_a_branch_for_a_cmake_older_than_the_projects_minimum_is_dead(tmp_path):
    found = _findings(_samples(tmp_path))
    severity, message = found[("legacy/CMakeLists.txt", 3, "ROC214")]
    assert severity == Severity.INFO and "older than the project's `cmake_minimum_required`" in message
    # Inside a branch the model does not run (an environment variable it cannot see), still dead.
    assert found[("legacy/CMakeLists.txt", 10, "ROC214")][0] == Severity.INFO
    # 3.24 is newer than the root's 3.22: a CMake the project accepts takes this branch.
    assert found[("legacy/CMakeLists.txt", 6, "ROC214")][0] == Severity.MEDIUM


def test_flags_of_a_cmake_file_whose_targets_are_all_another_platforms_reach_nothing(tmp_path):
    found = _findings(_samples(tmp_path))
    for line, code in ((1, "ROC205"), (2, "ROC204")):
        severity, message = found[("viewer/CMakeLists.txt", line, code)]
        assert severity == Severity.INFO and "Every target this CMake file makes" in message
    # A Linux target beside the Windows one gets the flag.
    assert found[("tool/CMakeLists.txt", 1, "ROC205")][0] == Severity.MEDIUM
    # project() still enables CUDA at configure, whatever the targets.
    assert found[("CMakeLists.txt", 2, "ROC201")][0] == Severity.HIGH
