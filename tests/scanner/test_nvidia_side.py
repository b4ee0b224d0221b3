"""Outside C, C++ and CUDA: what is the NVIDIA side of a ROCm path the repository already has (a note, saying
which), and what is still migration work (its severity kept)."""

from __future__ import annotations

from scanner import ScanOptions, scan
from tests.scanner.helpers import write_tree

NV_WORKFLOW = """name: nv-tests
on: [push]
jobs:
  unit:
    runs-on: [self-hosted, nvidia, a100]
    container:
      image: nvidia/cuda:12.4.1-devel-ubuntu22.04
    steps:
      - run: pip install torch --index-url https://download.pytorch.org/whl/cu124
"""
AMD_WORKFLOW = """name: amd-tests
on: [push]
jobs:
  unit:
    runs-on: [self-hosted, amd, mi300x]
    steps:
      - run: python -m pytest
"""
BUILDER = """import os


class OpBuilder:
    def extra_ldflags(self):
        if self.is_rocm_pytorch():
            return ["-lrocrand"]
        else:
            return ["-lcurand"]

    def always(self):
        return ["-lcublas"]
"""


def _found(root) -> dict[tuple[str, int], tuple[str, str]]:
    return {(r.path, f.line): (f.severity.value, f.message) for r in scan(str(root), ScanOptions()) for f in r.findings}


def test_ci_jobs_and_images_beside_the_repositorys_rocm_ci_and_container_are_notes(tmp_path):
    files = {
        ".github/workflows/nv-tests.yml": NV_WORKFLOW,
        "docker/Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
    }
    alone = _found(write_tree(tmp_path / "alone", files))
    assert {alone[(".github/workflows/nv-tests.yml", n)][0] for n in (5, 7, 9)} - {"info"}
    assert alone[("docker/Dockerfile", 1)][0] != "info"

    files |= {".github/workflows/amd-tests.yml": AMD_WORKFLOW, "docker/rocm/Dockerfile": "FROM rocm/pytorch:latest\n"}
    ported = _found(write_tree(tmp_path / "ported", files))
    for line in (5, 7, 9):
        severity, message = ported[(".github/workflows/nv-tests.yml", line)]
        assert severity == "info" and "AMD GPU CI job (.github/workflows/amd-tests.yml)" in message
    severity, message = ported[("docker/Dockerfile", 1)]
    assert severity == "info" and "ROCm container (docker/rocm/Dockerfile)" in message


def test_a_dockerfile_beside_the_projects_own_amd_dockerfile_is_a_note(tmp_path):
    """AutoGPTQ ships `Dockerfile` on nvidia/cuda and `Dockerfile_amd` on rocm/dev-ubuntu: the first is the NVIDIA
    variant on purpose, once the second is read as a Dockerfile."""
    files = {
        "Dockerfile": "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n",
        "Dockerfile_amd": "FROM rocm/dev-ubuntu-22.04:5.7\n",
    }
    severity, message = _found(write_tree(tmp_path, files))[("Dockerfile", 1)]
    assert severity == "info" and "ROCm container (Dockerfile_amd)" in message


def test_a_python_branch_rocm_never_takes_is_a_note_and_the_rest_keeps_its_severity(tmp_path):
    found = _found(write_tree(tmp_path, {"op_builder/builder.py": BUILDER}))
    severity, message = found[("op_builder/builder.py", 9)]
    assert severity == "info" and "other branch of `if self.is_rocm_pytorch()`, line 6" in message
    assert found[("op_builder/builder.py", 12)][0] != "info"


def test_an_nvidia_probe_in_a_script_that_handles_rocm_too_is_a_note(tmp_path):
    probe = 'if [ "$VENDOR" = amd ]; then\n  hipcc --version\nelse\n  nvcc --version\nfi\n'
    found = _found(write_tree(tmp_path / "both", {"ci/check.sh": probe}))
    assert found[("ci/check.sh", 4)][0] == "info" and "`hipcc` on line 2" in found[("ci/check.sh", 4)][1]
    alone = _found(write_tree(tmp_path / "alone", {"ci/check.sh": "nvcc --version\n"}))
    assert alone[("ci/check.sh", 1)][0] != "info"


def test_code_in_another_vendors_backend_is_a_note_whatever_the_rule(tmp_path):
    kernel = "__device__ int lanes(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n"
    found = _found(write_tree(tmp_path, {"csrc/xpu/includes/shim.h": kernel, "csrc/cuda/includes/shim.h": kernel}))
    severity, message = found[("csrc/xpu/includes/shim.h", 1)]
    assert severity == "info" and "another vendor's backend (`csrc/xpu/`)" in message
    assert found[("csrc/cuda/includes/shim.h", 1)][0] != "info"


def test_a_rocm_tool_elsewhere_in_the_script_does_not_make_the_probe_a_side(tmp_path):
    script = "GPUS=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)\necho $GPUS\namd-smi list\n"
    found = _found(write_tree(tmp_path, {"tools/gpus.sh": script}))
    assert found[("tools/gpus.sh", 1)][0] != "info"


def test_a_python_probe_in_the_other_branch_of_a_rocm_probe_is_the_nvidia_side(tmp_path):
    probe = (
        "import shutil\nimport subprocess\n\n\n"
        "def gpu_names():\n"
        '    if shutil.which("rocm-smi"):\n'
        '        return subprocess.check_output(["rocm-smi", "--showproductname"])\n'
        '    return subprocess.check_output(["nvidia-smi", "-L"])\n'
    )
    elsewhere = (
        "import subprocess\n\n\ndef amd():\n"
        '    return subprocess.check_output(["rocm-smi", "--showproductname"])\n\n\n'
        "def nvidia():\n"
        '    return subprocess.check_output(["nvidia-smi", "-L"])\n'
    )
    found = _found(write_tree(tmp_path / "both", {"gpus.py": probe}))
    lone = _found(write_tree(tmp_path / "lone", {"gpus.py": elsewhere}))
    nvidia = [v for (path, line), v in found.items() if line == 8]
    assert nvidia and all(severity == "info" and "rocm-smi" in message for severity, message in nvidia)
    assert all(severity != "info" or "ROCm too" not in message for (p, line), (severity, message) in lone.items())


BACKENDS = """cmake_minimum_required(VERSION 3.22)
project(quant LANGUAGES CXX)
set(COMPUTE_BACKEND "cpu" CACHE STRING "cpu, cuda or hip")
if(${COMPUTE_BACKEND} STREQUAL "cuda")
  set(BUILD_CUDA ON)
elseif(${COMPUTE_BACKEND} STREQUAL "hip")
  set(BUILD_HIP ON)
endif()
if(BUILD_CUDA)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  string(APPEND CMAKE_CUDA_FLAGS " --use_fast_math")
elseif(BUILD_HIP)
  enable_language(HIP)
endif()
"""


def test_a_cmake_branch_for_cuda_beside_one_for_hip_is_the_nvidia_side(tmp_path):
    found = _found(write_tree(tmp_path / "both", {"CMakeLists.txt": BACKENDS}))
    cuda_lines = {line: v for (path, line), v in found.items() if 10 <= line <= 12}
    assert cuda_lines and all(
        severity == "info" and "CUDA-only branch `if(BUILD_CUDA), line 9`" in message
        for severity, message in cuda_lines.values()
    )
    cuda_only = BACKENDS.replace("elseif(BUILD_HIP)\n  enable_language(HIP)\n", "")
    alone = _found(write_tree(tmp_path / "alone", {"CMakeLists.txt": cuda_only.replace("hip", "none")}))
    assert {severity for (path, line), (severity, _) in alone.items() if 10 <= line <= 12} - {"info"}


# A PyTorch extension project that already builds for ROCm: its setup.py tests `torch.version.hip` /
# `IS_HIP_EXTENSION`, and a ROCm PyTorch hipifies every source of the CUDAExtension.
HIP_AWARE_SETUP = """import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

try:
    from torch.utils.cpp_extension import IS_HIP_EXTENSION
except ImportError:
    IS_HIP_EXTENSION = False

libraries = [] if IS_HIP_EXTENSION else ["cuda", "nvrtc"]
setup(
    name="moe_ops",
    ext_modules=[CUDAExtension(name, ["csrc/jit.cpp"], libraries=libraries) for name in ["moe_ops._C"]],
    cmdclass={"build_ext": BuildExtension},
)
"""
CUDA_ONLY_SETUP = HIP_AWARE_SETUP.replace("[] if IS_HIP_EXTENSION else ", "").replace(
    "try:\n    from torch.utils.cpp_extension import IS_HIP_EXTENSION\nexcept ImportError:\n    IS_HIP_EXTENSION = False\n",
    "",
)
JIT_SOURCE = """#include <string>
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hiprtc.h>
#else
#include <cuda.h>
#include <nvrtc.h>
#endif

std::string compile(const char *code, const std::string &arch) {
#if !defined(__HIP_PLATFORM_AMD__)
  std::string option = "--gpu-architecture=compute_" + arch;
#else
  std::string option = "--offload-arch=" + arch;
#endif
  const char *options[] = {option.c_str()};
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, code, nullptr, 0, nullptr, nullptr);
  nvrtcCompileProgram(prog, 1, options);
  size_t size;
  nvrtcGetPTXSize(prog, &size);
  std::string image(size, '\\0');
  nvrtcGetPTX(prog, &image[0]);
  size_t nvvm;
  nvrtcGetNVVMSize(prog, &nvvm);
  return image;
}

void launch(CUfunction fn, void **args, cudaStream_t stream) {
  cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, stream, args, nullptr);
}
"""


def _by_rule(root) -> dict[tuple[str, int], str]:
    return {
        (f.rule, f.line): f.severity.value
        for r in scan(str(root), ScanOptions(enable=("ROC122", "ROC161")))
        for f in r.findings
        if f.path == "csrc/jit.cpp"
    }


def test_names_pytorchs_hipify_renames_are_low_where_the_project_builds_for_rocm_through_it(tmp_path):
    """tutel: NVRTC and driver names outside the file's HIP branches, which a ROCm PyTorch's hipify renames."""
    found = _by_rule(write_tree(tmp_path, {"setup.py": HIP_AWARE_SETUP, "csrc/jit.cpp": JIT_SOURCE}))
    for line in (17, 18, 20, 22):
        assert found[("ROC122", line)] == "low", line
    assert found[("ROC161", 28)] == "low" and found[("ROC161", 29)] == "low"
    assert found[("ROC122", 24)] == "medium"  # nvrtcGetNVVMSize: hipRTC has no counterpart to rename to


def test_the_same_names_keep_their_severity_in_a_cuda_only_extension(tmp_path):
    found = _by_rule(write_tree(tmp_path, {"setup.py": CUDA_ONLY_SETUP, "csrc/jit.cpp": JIT_SOURCE}))
    assert {found[("ROC122", n)] for n in (17, 18, 20, 22, 24)} == {"medium"}
    # Driver names hipify renames one to one are low anywhere (ROC161's own rating), not for the hipified build.
    assert found[("ROC161", 28)] == "low" and found[("ROC161", 29)] == "low"


CUDA_WHEEL_ENV = """#!/bin/bash
case ${1} in
  cu121)
    export CUDA_HOME=/usr/local/cuda-12.1
    export PATH=${CUDA_HOME}/bin:${PATH}
    ;;
esac
"""
NERF_SETUP = """import glob

import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

sources = [path for path in glob.glob("csrc/*.cu") if "hip" not in path]  # not the hipified copies
define_macros = []
if torch.version.hip:
    define_macros += [("USE_ROCM", None)]
setup(name="raymarch", ext_modules=[CUDAExtension("raymarch._C", sources, define_macros=define_macros)],
      cmdclass={"build_ext": BuildExtension})
"""


def test_cuda_wheel_ci_of_a_project_whose_setup_py_builds_for_rocm_is_the_nvidia_side(tmp_path):
    """nerfacc: `.github/workflows/cuda/Linux-env.sh` sets CUDA_HOME for the CUDA wheel matrix; its setup.py tests
    `torch.version.hip`, so a ROCm build never runs the script."""
    files = {"setup.py": NERF_SETUP, "csrc/march.cu": "__global__ void k() {}\n"}
    files |= {".github/workflows/cuda/Linux-env.sh": CUDA_WHEEL_ENV, "scripts/env.sh": CUDA_WHEEL_ENV}
    found = _found(write_tree(tmp_path / "rocm", files))
    severity, message = found[(".github/workflows/cuda/Linux-env.sh", 4)]
    assert severity == "info" and "through PyTorch's hipify (setup.py (`torch.version.hip`))" in message
    assert found[("scripts/env.sh", 4)][0] == "medium"  # not CI: a developer may source it on a ROCm machine

    files["setup.py"] = NERF_SETUP.replace('if torch.version.hip:\n    define_macros += [("USE_ROCM", None)]\n', "")
    found = _found(write_tree(tmp_path / "cuda", files))
    severity, message = found[(".github/workflows/cuda/Linux-env.sh", 4)]
    assert severity == "low" and "CI or packaging" in message and "hipify" not in message


def _severities(root) -> dict[tuple[str, int, str], str]:
    return {(r.path, f.line, f.rule): f.severity.value for r in scan(str(root), ScanOptions()) for f in r.findings}


def test_a_cuda_requirements_file_beside_the_projects_rocm_one_is_the_nvidia_side(tmp_path):
    cuda = "mpi4py\ncupy-cuda12x\ncuda-bindings>=12,<13\npytest\n"
    rocm = "mpi4py\ncupy\nhip-python>=7,<8\npytest\n"
    split = _severities(
        write_tree(tmp_path / "split", {"py/requirements_cu12.txt": cuda, "py/requirements_rocm7.txt": rocm})
    )
    assert split[("py/requirements_cu12.txt", 2, "ROC241")] == "info"
    assert split[("py/requirements_cu12.txt", 3, "ROC241")] == "info"
    # Alone, or a file not named for CUDA beside a ROCm one (the default install): still migration work.
    alone = _severities(write_tree(tmp_path / "alone", {"py/requirements_cu12.txt": cuda}))
    assert alone[("py/requirements_cu12.txt", 2, "ROC241")] == "high"
    base = _severities(write_tree(tmp_path / "base", {"requirements.txt": cuda, "requirements-rocm.txt": rocm}))
    assert base[("requirements.txt", 2, "ROC241")] == "high"
    # A ROCm file in another directory says nothing of this one.
    apart = _severities(
        write_tree(tmp_path / "apart", {"a/requirements-cuda.txt": cuda, "b/requirements-rocm.txt": rocm})
    )
    assert apart[("a/requirements-cuda.txt", 2, "ROC241")] == "high"


def test_the_cuda_branch_of_a_platform_switch_is_the_nvidia_side_only_where_rocm_is_tested_too(tmp_path):
    both = 'set -e\nif [ "$PLATFORM" = "cuda" ]; then\n  nvidia-smi -pm 1\nelif [ "$PLATFORM" = "rocm" ]; then\n  amd-smi list\nfi\n'
    alone = 'set -e\nif [ "$PLATFORM" = "cuda" ]; then\n  nvidia-smi -pm 1\nfi\n'
    assert (
        _severities(write_tree(tmp_path / "both", {"deploy/setup.sh": both}))[("deploy/setup.sh", 3, "ROC231")]
        == "info"
    )
    assert (
        _severities(write_tree(tmp_path / "alone", {"deploy/setup.sh": alone}))[("deploy/setup.sh", 3, "ROC231")]
        == "medium"
    )
