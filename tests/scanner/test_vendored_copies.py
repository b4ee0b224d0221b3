"""A vendored copy of CUB or Thrust in a third-party folder (FasterTransformer's `3rdparty/cub/`, included only for
CUDA < 11.5) is replaced by hipCUB or rocThrust in a ROCm build: its own lines are info
(scanner.analysis.port_notes), while the project's code and other vendored code keep their severity. A CMake find
module's own probe of the library it found is the module's business, not a link of the project's."""

from __future__ import annotations

from scanner import ScanOptions, Severity, scan
from scanner.rules.libraries._judgement import vendored_counterpart
from tests.scanner.helpers import write_tree

SHUFFLE = """\
#pragma once
__device__ inline int shfl_up(int v, int offset) {
  int out;
  asm volatile("shfl.up.b32 %0, %1, %2, 0;" : "=r"(out) : "r"(v), "r"(offset));
  return out;
}
"""
MAIN = """\
#if (CUDART_VERSION >= 11050)
#include <cub/cub.cuh>
#else
#include "3rdparty/cub/warp/warp_scan_shfl.cuh"
#endif
#include "third_party/json/shfl.cuh"
#include "src/own_shfl.cuh"
__global__ void k(int* p) { p[0] = shfl_up(p[0], 1); }
"""


def _asm_severities(root) -> dict[str, tuple[Severity, str]]:
    return {
        f.path: (f.severity, f.message)
        for result in scan(root, ScanOptions())
        for f in result.findings
        if f.rule == "ROC120"
    }


def test_a_vendored_cub_copy_is_info_and_other_code_keeps_its_severity(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "main.cu": MAIN,
            "3rdparty/cub/warp/warp_scan_shfl.cuh": SHUFFLE,
            "third_party/json/shfl.cuh": SHUFFLE,
            "src/own_shfl.cuh": SHUFFLE,
        },
    )
    found = _asm_severities(root)
    severity, message = found["3rdparty/cub/warp/warp_scan_shfl.cuh"]
    assert severity == Severity.INFO and "vendored copy (`3rdparty/cub/`)" in message and "hipCUB" in message
    assert found["third_party/json/shfl.cuh"][0] == Severity.HIGH
    assert found["src/own_shfl.cuh"][0] == Severity.HIGH


def test_only_a_cub_or_thrust_folder_inside_a_third_party_folder_is_a_copy():
    assert vendored_counterpart("3rdparty/cub/grid/grid_queue.cuh") == ("3rdparty/cub", "hipCUB")
    assert vendored_counterpart("third_party/cccl/thrust/thrust/sort.h") == ("third_party/cccl/thrust", "rocThrust")
    assert vendored_counterpart("external/cub-1.8.0/cub/cub.cuh") == ("external/cub-1.8.0", "hipCUB")
    # The project's own folder named cub, a file named cub, and a third-party folder of something else: not a copy.
    assert vendored_counterpart("src/cub/block_scan.cuh") == ("", "")
    assert vendored_counterpart("third_party/cub.cuh") == ("", "")
    assert vendored_counterpart("third_party/cutlass/include/cute/tensor.hpp") == ("", "")


FIND_NCCL = """\
find_library(NCCL_LIBRARIES NAMES nccl)
try_run(NCCL_VERSION_MATCHED compile_result ${PROJECT_BINARY_DIR} ${file}
        RUN_OUTPUT_VARIABLE NCCL_VERSION_FROM_HEADER
        LINK_LIBRARIES ${NCCL_LIBRARIES})
"""


def test_a_find_modules_own_probe_of_the_library_it_found_is_not_a_link(tmp_path):
    """FindNCCL.cmake's version `try_run` links what the module found (FasterTransformer): the dependency is the
    find_package, reported where targets link the library; the same probe in a project's CMakeLists.txt is."""
    root = write_tree(tmp_path, {"cmake/Modules/FindNCCL.cmake": FIND_NCCL, "CMakeLists.txt": FIND_NCCL})
    lines = {(f.path, f.line) for result in scan(root, ScanOptions()) for f in result.findings if f.rule == "ROC206"}
    assert ("cmake/Modules/FindNCCL.cmake", 1) in lines and ("cmake/Modules/FindNCCL.cmake", 4) not in lines
    assert ("CMakeLists.txt", 4) in lines


FIND_NCCL_USER_PATH = """\
if(NCCL_LIBRARY)
  if(IS_DIRECTORY "${NCCL_LIBRARY}")
    message(FATAL_ERROR "NCCL_LIBRARY must be a file")
  else()
    set(_nccl_user_library "${NCCL_LIBRARY}")
  endif()
endif()
find_library(NCCL_LIBRARY NAMES nccl)
add_library(nccl::nccl UNKNOWN IMPORTED)
set_target_properties(nccl::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}")
"""


def test_a_find_modules_bookkeeping_of_a_library_path_is_not_a_link(tmp_path):
    """xgboost's FindNccl.cmake stores a user-given NCCL_LIBRARY (`set(_user "${NCCL_LIBRARY}")`) and tests it
    (`if(IS_DIRECTORY ...)`): neither links anything, and the user may point it at librccl. The module's
    find_library and its imported target's location stay; the same `set()` in a CMakeLists.txt stays too."""
    root = write_tree(tmp_path, {"cmake/FindNccl.cmake": FIND_NCCL_USER_PATH, "CMakeLists.txt": FIND_NCCL_USER_PATH})
    lines = {(f.path, f.line) for result in scan(root, ScanOptions()) for f in result.findings if f.rule == "ROC206"}
    module = {line for path, line in lines if path == "cmake/FindNccl.cmake"}
    assert module == {8, 10}
    assert ("CMakeLists.txt", 5) in lines
