"""TensorRT used.

What it finds:
    Includes of the TensorRT headers (`NvInfer.h`, `NvInferRuntime.h`, `NvInferPlugin.h`, `NvOnnxParser.h`,
    ...) and code that names the `nvinfer1`, `nvonnxparser`, `nvuffparser` or `nvcaffeparser1` namespaces
    (engines, builders, plugins).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).
    A header named like TensorRT's that is the repository's own file (found beside the including file, in a
    directory above it or in an `include/` directory above it) is not TensorRT when it declares none of
    TensorRT's API (no `class I...`, no `createInfer...`, no include of another `Nv*` header): projects keep
    a copy of `nvinfer1::DataType` to build without TensorRT. Its `namespace nvinfer1 {` is a definition, and
    `nvinfer1::DataType` in a file that includes no real TensorRT header names that copy; neither is reported.

Why it breaks on ROCm:
    TensorRT is an NVIDIA-only inference runtime with no ROCm build and no API-compatible replacement.
    Engines, builder configuration, serialized plans and `IPluginV2`/`IPluginV3` plugins must be redone
    for another inference stack; custom plugin kernels need porting to HIP separately.

Example:
    nvinfer1::IBuilder *builder = nvinfer1::createInferBuilder(logger);

Use instead:
    MIGraphX (`migraphx::parse_onnx`, `program::compile` for a GPU target) or ONNX Runtime with the
    MIGraphX (or ROCm) execution provider; for serving, Triton Inference Server with an ONNX Runtime /
    MIGraphX backend. Custom layers become MIGraphX custom ops or ONNX Runtime custom ops in HIP.

References:
    https://rocm.docs.amd.com/projects/AMDMIGraphX/en/latest/
    https://onnxruntime.ai/docs/execution-providers/MIGraphX-ExecutionProvider.html
    https://docs.nvidia.com/deeplearning/tensorrt/latest/index.html
"""

import os
import posixpath
import re

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule
from scanner.sourcetext import read_capped

_HEADER = re.compile(r"Nv(Infer\w*|OnnxParser\w*|UffParser|CaffeParser)\.h")
# What a real TensorRT header declares and a project's data-type copy does not.
_API = re.compile(r"\bclass\s+I[A-Z]\w*|\bcreateInfer\w*|#\s*include\s*[<\"](?:\w+/)*Nv\w+\.h")
_USE = (
    "TensorRT (`{name}`) has no ROCm equivalent: rebuild this inference path on MIGraphX or ONNX Runtime "
    "with the MIGraphX execution provider."
)


def _header_message(ctx, header: str) -> str:
    if ctx.include is not None and not ctx.include.angled and _own_header(ctx, header):
        return ""
    return (
        f"<{header}> (TensorRT) has no ROCm equivalent: use MIGraphX or ONNX Runtime with the MIGraphX "
        "execution provider."
    )


def _namespace_message(ctx, tok) -> str:
    view = ctx.view
    before, after = view.neighbour(tok, -1), view.neighbour(tok, 1)
    if before is not None and before.text == "namespace" and after is not None and after.text == "{":
        return ""  # the namespace defined here: the project's own copy of its types
    name = view.neighbour(tok, 2)
    if after is not None and after.text == "::" and name is not None and name.text == "DataType":
        if not _real_tensorrt_included(ctx):
            return ""
    return _USE.format(name=tok.text)


def _real_tensorrt_included(ctx) -> bool:
    """The file includes a TensorRT-named header that is not the repository's own data-type copy."""
    memo = ctx.memo
    found = memo.get("roc130_real")
    if found is None:
        found = memo["roc130_real"] = any(
            _HEADER.fullmatch(posixpath.basename(inc.header)) and (inc.angled or not _own_header(ctx, inc.header))
            for inc in ctx.view.includes
        )
    return found


def _own_header(ctx, header: str) -> bool:
    """The quoted include resolves to a repository file, found beside the including file, in a directory above
    it or an `include/` directory above it, that declares none of TensorRT's API."""
    root = ctx.root
    if not root or header.startswith("/") or ".." in header.split("/"):
        return False
    directory = posixpath.dirname(ctx.path)
    while True:
        for base in (directory, posixpath.join(directory, "include")):
            path = os.path.join(root, base, header)
            if os.path.isfile(path) and not os.path.islink(path):
                return not _API.search(read_capped(path, 256 * 1024))
        if not directory:
            return False
        directory = posixpath.dirname(directory)


RULE = library_rule(
    name="libraries-tensorrt-usage",
    formerly=("tensorrt-usage",),
    summary="TensorRT use (no ROCm equivalent: MIGraphX or ONNX Runtime)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.CRITICAL,
    headers=[Header(_HEADER.pattern, lambda ctx, header: _header_message(ctx, header))],
    uses=[
        Use("nvinfer1", lambda ctx, tok: _namespace_message(ctx, tok)),
        Use("nvonnxparser", _USE),
        Use("nvuffparser", _USE),
        Use("nvcaffeparser1", _USE),
    ],
    fold=True,
    cuda_only=True,
)
