"""A name that matches a rule but is not a use: the cases a fixture cannot hold (a fixture is analysed at the top of
its checkout, so it can be neither vendored code nor a file beside another)."""

from __future__ import annotations

from scanner.model import Severity
from tests.scanner.helpers import analyze_path, write_tree

_HANDLES_ONLY = """\
#pragma once
struct cudnnContext;
typedef struct cudnnContext *cudnnHandle_t;
typedef struct cublasContext *cublasHandle_t;
namespace vendored_nn {
void conv_forward(cudnnHandle_t /*unused*/, const float *x, float *y);
void gemm(cublasHandle_t handle, const float *a, const float *b, float *c);
}
"""

_CALLS = """\
#include <cublas_v2.h>
void make(cublasHandle_t *handle) { cublasCreate(handle); }
"""


def test_a_vendored_signature_naming_library_handles_is_not_reported(tmp_path):
    root = write_tree(tmp_path, {"third_party/vnn/include/vnn.h": _HANDLES_ONLY})
    result = analyze_path(root / "third_party/vnn/include/vnn.h", root, codes=["ROC131", "ROC132"])
    assert result.findings == []


def test_the_same_signature_in_the_project_is_info(tmp_path):
    root = write_tree(tmp_path, {"src/nn/backend.h": _HANDLES_ONLY})
    found = analyze_path(root / "src/nn/backend.h", root, codes=["ROC131", "ROC132"]).findings
    assert sorted((f.rule, f.severity) for f in found) == [("ROC131", Severity.INFO), ("ROC132", Severity.INFO)]
    assert all("only names the library's types" in f.message for f in found)


def test_vendored_code_that_includes_and_calls_the_library_is_still_reported(tmp_path):
    root = write_tree(tmp_path, {"third_party/vnn/src/blas.cu": _CALLS})
    found = analyze_path(root / "third_party/vnn/src/blas.cu", root, codes=["ROC132"]).findings
    assert [f.severity for f in found] == [Severity.LOW]
    assert "only names" not in found[0].message


_DATA_TYPE_COPY = """\
#pragma once
#include <cstdint>
namespace nvinfer1 {
enum class DataType : int32_t { kFLOAT = 0, kHALF = 1, kINT8 = 2 };
}
"""

_REAL_TENSORRT = """\
#pragma once
#include "NvInferRuntimeBase.h"
namespace nvinfer1 {
class IRuntime;
IRuntime *createInferRuntime(class ILogger &logger);
}
"""

_USES_DATA_TYPE = """\
#include "trt_common/NvInferRuntime.h"
inline int element_bytes(nvinfer1::DataType t) { return t == nvinfer1::DataType::kFLOAT ? 4 : 2; }
"""


def test_a_project_header_named_like_tensorrt_holding_only_its_data_types_is_not_tensorrt(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "csrc/include/trt_common/NvInferRuntime.h": _DATA_TYPE_COPY,
            "csrc/kernels/gemm/convert.h": _USES_DATA_TYPE,
        },
    )
    for path in ("csrc/kernels/gemm/convert.h", "csrc/include/trt_common/NvInferRuntime.h"):
        assert analyze_path(root / path, root, codes=["ROC130"]).findings == [], path


def test_a_vendored_tensorrt_header_is_still_tensorrt(tmp_path):
    root = write_tree(
        tmp_path,
        {"csrc/include/trt_common/NvInferRuntime.h": _REAL_TENSORRT, "csrc/kernels/convert.h": _USES_DATA_TYPE},
    )
    found = analyze_path(root / "csrc/kernels/convert.h", root, codes=["ROC130"]).findings
    assert [(f.rule, f.line, f.severity) for f in found] == [("ROC130", 1, Severity.CRITICAL)]


def test_a_tensorrt_header_that_is_not_in_the_repository_is_tensorrt(tmp_path):
    root = write_tree(tmp_path, {"csrc/kernels/convert.h": _USES_DATA_TYPE})
    found = analyze_path(root / "csrc/kernels/convert.h", root, codes=["ROC130"]).findings
    assert [(f.rule, f.line) for f in found] == [("ROC130", 1)]
