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


_FRONTEND_CONTEXT = """
    #pragma once
    #include "../graph_frontend_shim.h"
    #include "../cudnn_frontend_utils.h"
    namespace cudnn_frontend::detail {
    class Context {
        DataType_t io_data_type = DataType_t::NOT_SET;
        int32_t target_sm_version = -1;
       public:
        Context& set_io_data_type(DataType_t const type) { io_data_type = type; return *this; }
    };
    }  // namespace cudnn_frontend::detail
"""
_FRONTEND_UTILS = """
    #pragma once
    #include <cudnn.h>
    namespace cudnn_frontend {
    enum class DataType_t { NOT_SET, FLOAT, HALF };
    inline cudnnDataType_t to_backend(DataType_t t) { return t == DataType_t::HALF ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT; }
    }
"""


def test_the_projects_own_cudnn_named_header_and_namespace_are_not_cudnn(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "include/cudnn_frontend/context.h": _FRONTEND_CONTEXT,
            "include/cudnn_frontend_utils.h": _FRONTEND_UTILS,
            "include/graph_frontend_shim.h": "#pragma once\n",
        },
    )
    assert analyze_path(root / "include/cudnn_frontend/context.h", root, codes=["ROC131"]).findings == []
    # The header itself includes cuDNN and calls it: reported there, once.
    found = analyze_path(root / "include/cudnn_frontend_utils.h", root, codes=["ROC131"]).findings
    assert [(f.rule, f.line) for f in found] == [("ROC131", 3)]


def test_a_cudnn_header_not_in_the_repository_or_a_copy_of_cudnns_is_cudnn(tmp_path):
    copy = "#pragma once\ncudnnStatus_t CUDNNWINAPI cudnnCreate(cudnnHandle_t *handle);\n"
    user = '#include "cudnn_utils.h"\n#include "third_party/cudnn_frontend.h"\nvoid f() {}\n'
    root = write_tree(
        tmp_path,
        {"src/ops.cc": user, "src/cudnn_utils.h": copy, "src/third_party/cudnn_frontend.h": "#pragma once\n"},
    )
    found = analyze_path(root / "src/ops.cc", root, codes=["ROC131"]).findings
    assert [(f.rule, f.line, f.severity) for f in found] == [("ROC131", 1, Severity.HIGH)]
    assert "2" in found[0].message  # the vendored frontend's include counts too
    root = write_tree(tmp_path / "alone", {"src/ops.cc": '#include "cudnn_frontend.h"\nvoid f() {}\n'})
    found = analyze_path(root / "src/ops.cc", root, codes=["ROC131"]).findings
    assert [(f.rule, f.line) for f in found] == [("ROC131", 1)]


_PTX = ".version 8.1\n.target sm_86\n.address_size 64\n.visible .entry square_kernel(.param .u64 p) { ret; }\n"


def test_a_ptx_listing_nothing_loads_is_low(tmp_path):
    root = write_tree(
        tmp_path,
        {
            "lecture_01/square_kernel.ptx": _PTX,
            "lecture_01/pytorch_square.py": "import torch\nprint(torch.square(torch.tensor([1.0, 2.0])))\n",
            "lecture_01/load_inline.py": "from torch.utils.cpp_extension import load_inline\n",
            # Another lecture loads an embedded image: it does not reach this file.
            "lecture_29/add_kernel.c": "CUresult load(CUmodule* m) { return cuModuleLoadData(m, CUBIN); }\n",
        },
    )
    found = analyze_path(root / "lecture_01/square_kernel.ptx", root, codes=["ROC121"], language="ptx").findings
    assert [(f.rule, f.line, f.severity) for f in found] == [("ROC121", 1, Severity.LOW)]


def test_a_ptx_file_the_project_names_or_loads_modules_beside_stays_high(tmp_path):
    for loader in (
        'int main() { CUmodule m; cuModuleLoad(&m, "kernels/square_kernel.ptx"); }\n',
        "import glob, cupy\nmods = [cupy.RawModule(path=p) for p in glob.glob('kernels/*.ptx')]\n",
    ):
        root = write_tree(tmp_path / str(len(loader)), {"kernels/square_kernel.ptx": _PTX, "host/run.cc": loader})
        found = analyze_path(root / "kernels/square_kernel.ptx", root, codes=["ROC121"], language="ptx").findings
        assert [(f.rule, f.severity) for f in found] == [("ROC121", Severity.HIGH)], loader
