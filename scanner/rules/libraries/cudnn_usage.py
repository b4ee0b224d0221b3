"""cuDNN used.

What it finds:
    Includes of `cudnn.h` (and the split `cudnn_*.h` headers, `cudnn_frontend.h`) and lines that call or
    name the cuDNN API (`cudnnCreate`, `cudnnTensorDescriptor_t`, `cudnnConvolutionForward`,
    `cudnn_frontend::`).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    cuDNN does not exist on ROCm. Its counterpart, MIOpen, covers convolutions, pooling, normalisation,
    activations, softmax and RNNs, but it is not a rename: tensor and convolution descriptors are set up
    differently, convolution algorithms must be found with `miopenFindConvolution*Algorithm` (which also
    fixes the workspace size) before `miopenConvolution*` is called, some layouts and data types are missing,
    and the cuDNN v8/v9 graph (backend/frontend) API maps only partly to MIOpen's.

Example:
    cudnnConvolutionForward(handle, &alpha, xDesc, x, wDesc, w, convDesc, algo, ws, wsSize, &beta, yDesc, y);

Use instead:
    MIOpen (`#include <miopen/miopen.h>`): `miopenCreate`, `miopenCreateTensorDescriptor`,
    `miopenFindConvolutionForwardAlgorithm` then `miopenConvolutionForward`. In PyTorch extensions prefer
    the framework's ops, which dispatch to MIOpen on ROCm.

References:
    https://rocm.docs.amd.com/projects/MIOpen/en/latest/
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/tables/CUDNN_API_supported_by_MIOPEN.html
    https://docs.nvidia.com/deeplearning/cudnn/latest/api/overview.html
"""

import re

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

# Handle, stream and error plumbing: a plain rename.
_BOOKKEEPING = re.compile(r"^cudnn(Create|Destroy|SetStream|GetStream|GetErrorString|GetVersion)$")


def _use(ctx, tok) -> str:
    name = tok.text
    if name == "cudnn_frontend":
        return "the cuDNN frontend graph API has no ROCm port: rewrite with MIOpen (or its Find/Fusion API)."
    entry = ctx.names.get(name)
    if entry is not None and entry.roc.startswith("miopen"):
        if name.endswith("_t") or _BOOKKEEPING.search(name):
            return f"cuDNN `{name}` → MIOpen `{entry.roc}`."
        return (
            f"cuDNN `{name}` → MIOpen `{entry.roc}`, but not as a rename: check descriptors, algorithm "
            "search and workspace sizing."
        )
    if entry is None or entry.unsupported or entry.status == "roc_unsupported":
        return f"cuDNN `{name}` has no direct MIOpen counterpart: rework this step with MIOpen."
    return (
        f"cuDNN `{name}`: port to MIOpen (HIPIFY's table gives no one-to-one MIOpen call; descriptors, "
        "algorithm search and workspace sizing differ)."
    )


RULE = library_rule(
    name="libraries-cudnn-usage",
    formerly=("cudnn-usage",),
    summary="cuDNN use (port to MIOpen: a different API, not a rename)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    headers=[
        Header(
            r"cudnn_frontend\w*\.h(pp)?|cudnn_frontend/.+",
            "<{header}> (cuDNN frontend) has no ROCm port: rewrite with MIOpen.",
        ),
        Header(
            r"cudnn(_\w+)?\.h(pp)?",
            "<{header}> (cuDNN) is not on ROCm: port to MIOpen (<miopen/miopen.h>); "
            "the API differs (descriptors, algorithm search, workspace).",
        ),
    ],
    uses=[
        Use("cudnn", _use, r"cudnn[A-Z]\w*", known_only=True),
        Use("cudnn_frontend", _use, scope=True),
    ],
    fold=True,
    cuda_only=True,
)
