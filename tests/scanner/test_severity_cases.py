"""Severities the written policy (scanner.rules.severity_policy) gives shapes that real CUDA projects showed rated
as something worse than what happens: a library the project loads itself, a diagnostic that fails gracefully, an
include directory a compiler ignores when absent; and one rated better than it is (nvcc flags set per source)."""

from __future__ import annotations

import pytest

from scanner.model import Risk, Severity
from tests.scanner.helpers import RULE_FIXTURES, analyze_path, write_tree
from tests.scanner.test_severity_fidelity import findings, write


# -- a) cuDNN through the project's own loader: a run-time failure, not a build break -------------------------
def test_cudnn_opened_with_dlopen_is_a_medium_runtime_failure():
    [finding] = findings(RULE_FIXTURES / "ROC131_cudnn_usage_dlopen.cpp", ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.MEDIUM, Risk.RUNTIME_FAILURE)
    assert "`libcudnn.so.9` is loaded with `dlopen`" in finding.message and "run-time failure" in finding.message


def test_cudnn_included_directly_stays_a_high_build_break():
    [finding] = findings(RULE_FIXTURES / "ROC131_cudnn_usage.cu", ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.HIGH, Risk.BUILD_BREAK)


def test_a_loader_that_also_includes_cudnn_h_still_needs_cudnn_to_build(tmp_path):
    text = (
        "#include <dlfcn.h>\n#include <cudnn.h>\n"
        'void* open_it() { return dlopen("libcudnn.so.8", RTLD_LAZY); }\n'
        "cudnnHandle_t handle;\n"
    )
    [finding] = findings(write(tmp_path, "loader.cpp", text), ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.HIGH, Risk.BUILD_BREAK)


def test_cudnn_called_through_a_table_of_entry_points_is_a_runtime_failure(tmp_path):
    text = (
        '#include "gpu/dnn_table.h"\n'
        "int make(void** out) {\n  const auto* api = dnn_table();\n  return api->cudnnCreate(out);\n}\n"
    )
    [finding] = findings(write(tmp_path, "conv.cpp", text), ["ROC131"])
    assert (finding.severity, finding.risk, finding.line) == (Severity.MEDIUM, Risk.RUNTIME_FAILURE, 4)


# -- b) diagnostics that fail gracefully: low, a gate or a hard failure keeps the rule's severity ---------------
def _severities(name: str, code: str) -> dict[int, Severity]:
    return {f.line: f.severity for f in findings(RULE_FIXTURES / name, [code])}


def test_nvidia_smi_in_python_with_a_fallback_is_low_and_a_gate_is_not():
    found = _severities("ROC231_nvidia_smi_fallback.py", "ROC231")
    # the list form caught as FileNotFoundError; `which() is None: return`; CalledProcessError with shell=True
    assert [found[n] for n in (10, 21, 23, 28)] == [Severity.LOW] * 4
    # CalledProcessError only (list form), a which() gate that exits, an except that re-raises
    assert [found[n] for n in (35, 41, 47)] == [Severity.MEDIUM] * 3


def test_nvidia_smi_in_shell_probed_or_with_a_fallback_value_is_low_and_a_gate_is_not():
    found = _severities("ROC231_nvidia_smi_fallback.sh", "ROC231")
    assert [found[n] for n in (4, 5, 7, 8, 16)] == [Severity.LOW] * 5
    assert found[10] == Severity.INFO  # a diagnostic inside the probed branch stays a diagnostic
    assert [found[n] for n in (18, 22, 23, 24)] == [Severity.MEDIUM] * 4


def test_a_cuda_only_import_with_a_fallback_is_low_and_a_hard_failure_stays_high():
    found = {f.line: f for f in findings(RULE_FIXTURES / "ROC243_cuda_only_import_fallback.py", ["ROC243"])}
    assert [found[n].severity for n in (6, 22)] == [Severity.LOW] * 2
    assert all("imported inside `try`" in found[n].message for n in (6, 22))
    # re-raised, sys.exit, an except that does not catch ImportError
    assert [found[n].severity for n in (27, 32, 37)] == [Severity.HIGH] * 3


def test_nvml_opened_with_dlopen_is_a_low_runtime_failure():
    [finding] = findings(RULE_FIXTURES / "ROC140_nvml_usage_dlopen.cc", ["ROC140"])
    assert (finding.severity, finding.risk) == (Severity.LOW, Risk.RUNTIME_FAILURE)


def test_nvml_included_beside_a_dlopen_still_breaks_the_build(tmp_path):
    text = '#include <dlfcn.h>\n#include <nvml.h>\nvoid* h = dlopen("libnvidia-ml.so.1", RTLD_LAZY);\nnvmlDevice_t d;\n'
    [finding] = findings(write(tmp_path, "mon.cc", text), ["ROC140"])
    assert (finding.severity, finding.risk) == (Severity.MEDIUM, Risk.BUILD_BREAK)


# -- c) the toolkit's location as a search path a compiler skips when absent: low ------------------------------
@pytest.mark.parametrize(
    "name, low, medium",
    [
        ("ROC214_cuda_toolkit_path_search_path.mk", (2, 3, 4, 5, 6), (8, 9, 10)),
        ("ROC214_cuda_toolkit_path_search_path.cmake", (3, 4, 5, 11), (6, 16)),
    ],
)
def test_cuda_toolkit_path_only_searched_is_low_and_a_linked_library_or_nvcc_is_not(name, low, medium):
    found = _severities(name, "ROC214")
    assert [found[n] for n in low] == [Severity.LOW] * len(low)
    assert [found[n] for n in medium] == [Severity.MEDIUM] * len(medium)


def test_cuda_home_in_a_python_build_script_keeps_its_severity():
    found = findings(RULE_FIXTURES / "ROC214_cuda_toolkit_path.py", ["ROC214"])
    assert found and all(f.severity == Severity.MEDIUM for f in found)


# -- d) nvcc flags set on source files reach the HIP build: high, unless kept to the NVIDIA side --------------
def test_nvcc_flags_set_per_source_file_are_high_and_nvidia_only_branches_are_not():
    found = findings(RULE_FIXTURES / "ROC205_nvcc_flags_per_source.cmake", ["ROC205"])
    by_severity = {line: {f.severity for f in found if f.line == line} for line in {f.line for f in found}}
    assert {n: by_severity[n] for n in (2, 4, 5)} == {n: {Severity.HIGH} for n in (2, 4, 5)}
    assert {n: by_severity[n] for n in (8, 14)} == {n: {Severity.MEDIUM} for n in (8, 14)}
    assert all("set on the source file" in f.message for f in found if f.severity == Severity.HIGH)


def test_nvcc_flags_of_the_cuda_language_stay_medium():
    found = findings(RULE_FIXTURES / "ROC205_nvcc_flags.cmake", ["ROC205"])
    # Line 19 scopes its flag with `$<$<COMPILE_LANGUAGE:CUDA>:...>`: sources built as HIP never get it.
    scoped = [f for f in found if f.line == 19]
    assert [f.severity for f in scoped] == [Severity.INFO] and "CUDA-language sources only" in scoped[0].message
    assert all(f.severity == Severity.MEDIUM for f in found if f.line != 19) and len(found) > len(scoped)


# -- cudaMemoryType numbers ROCm 6.0 and later share with CUDA ------------------------------------------------
def test_a_memory_type_compared_with_a_number_rocm_6_shares_is_low_there_and_high_on_rocm_5():
    from scanner.target import TargetProfile

    fixture = RULE_FIXTURES / "ROC159_memory_type_enum_numbering.cu"
    by_line = {f.line: f.severity for f in findings(fixture, ["ROC159"])}
    # `attr.type == 2`, `case 1:`, `kind != 3`: low; an array index and an integer cast keep the rule's medium.
    assert [by_line[n] for n in (10, 24, 32)] == [Severity.LOW] * 3
    assert [by_line[n] for n in (16, 31, 33)] == [Severity.MEDIUM] * 3
    old = {f.line: f.severity for f in findings(fixture, ["ROC159"], target=TargetProfile.parse(None, "5.7"))}
    assert [old[n] for n in (10, 24, 32)] == [Severity.HIGH] * 3


# -- f) the wrapper of a Blackwell CuTe DSL kernel: a ROCm port never loads either -------------------------------
KERNEL = """import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import cpasync, tcgen05


class TopKReduction:
    def __init__(self, k: int):
        self.k = k
        self.mma = tcgen05.MmaF16BF16Op
"""
HOPPER_KERNEL = KERNEL.replace("cpasync, tcgen05", "cpasync, warpgroup").replace("tcgen05.MmaF16BF16Op", "None")
WRAPPER = """from .topk_fwd import TopKReduction
from cuda.bindings import driver as cuda
import torch
import cutlass
import cutlass.cute as cute


class TopK:
    def __init__(self, k: int):
        self.kernel = TopKReduction(k)

    def compile(self, stream: cuda.CUstream):
        return cute.compile(self.kernel, stream=stream)
"""


@pytest.mark.parametrize("kernel, severity", [(KERNEL, Severity.LOW), (HOPPER_KERNEL, Severity.HIGH)])
def test_the_wrapper_of_a_blackwell_dsl_kernel_is_low_and_of_another_kernel_is_not(tmp_path, kernel, severity):
    root = write_tree(tmp_path, {"ops/top_k/topk_fwd.py": kernel, "ops/top_k/api.py": WRAPPER})
    [found] = analyze_path(root / "ops/top_k/api.py", root=root, codes=("ROC243",)).findings
    assert (found.line, found.severity) == (2, severity)
    assert ("`.topk_fwd`, the Blackwell kernel it imports" in found.message) == (severity == Severity.LOW)


# -- g) the CUDA language enabled for host-only sources: the fix is one word --------------------------------------
SAMPLE = """cmake_minimum_required(VERSION 3.18)
project(spmv_example LANGUAGES C CXX CUDA)
include(../cmake/sample_target.cmake)
add_sample(spmv_example spmv_example.cpp)
"""
HELPER = "function(add_sample NAME SOURCE)\n  add_executable(${NAME} ${SOURCE})\nendfunction()\n"
CUDA_HELPER = HELPER.replace(
    "endfunction", "  set_source_files_properties(${SOURCE} PROPERTIES LANGUAGE CUDA)\nendfunction"
)


@pytest.mark.parametrize(
    "helper, severity", [(HELPER, Severity.MEDIUM), (CUDA_HELPER, Severity.HIGH), (None, Severity.HIGH)]
)
def test_the_cuda_language_for_host_sources_is_medium_unless_an_include_compiles_cuda(tmp_path, helper, severity):
    files = {"samples/spmv/CMakeLists.txt": SAMPLE}
    if helper is not None:
        files["samples/cmake/sample_target.cmake"] = helper
    root = write_tree(tmp_path, files)
    [found] = analyze_path(root / "samples/spmv/CMakeLists.txt", root=root, codes=("ROC201",)).findings
    assert found.severity == severity
