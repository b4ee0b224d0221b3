"""cuDNN used.

What it finds:
    Includes of `cudnn.h` (and the split `cudnn_*.h` headers, `cudnn_frontend.h`) and lines that call or
    name the cuDNN API (`cudnnCreate`, `cudnnTensorDescriptor_t`, `cudnnConvolutionForward`,
    `cudnn_frontend::`).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line). A quoted include of a
    cuDNN-named header that is the repository's own file (`"../cudnn_frontend_shim.h"`, `"cudnn_utils.h"`, not in
    a third-party folder nor a copy of cuDNN's declarations) is not cuDNN: that header is reported on its own
    uses; nor is the namespace `cudnn_frontend` where the file declares it (the project is cuDNN's frontend).

    cuDNN reached through the project's own loader is a run-time failure, not a build break (medium, risk
    runtime-failure): a file that opens the library itself (`dlopen("libcudnn.so.9")`, `LoadLibrary` of
    `cudnn64_9.dll`) and looks its entry points up with `dlsym`, or code calling them through such a table
    (`api->cudnnCreate(&handle)`), builds without cuDNN and fails only when the loader runs. An include of
    one of cuDNN's own headers (`cudnn.h`, `cudnn_ops.h`, ...) still needs cuDNN to compile: a build break.

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

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Judgement, Use, library_rule, opened_at_run_time
from scanner.rules.libraries._own_headers import own_header

# cuDNN's own headers (v7 to v9): a file that includes one needs cuDNN to compile, whatever it loads at run time.
_CUDNN_HEADER = re.compile(
    r"cudnn(?:_version|_backend|_graph|_(?:ops|cnn|adv)(?:_infer|_train|_v\d+)?|_frontend\w*)?\.h(?:pp)?"
)
# The library's file name in a string: `"libcudnn.so.9"`, `"libcudnn_ops.so"`, `"cudnn64_8.dll"`.
_CUDNN_LIBRARY = re.compile(r"[\"'/](?:lib)?cudnn(?:\w*\.so[.\d]*|\w*\.dylib|64_\d+\.dll|\w*\.dll)\b")

# cuDNN's own header declares its API so; a copy of it in the repository is still cuDNN.
_CUDNN_DECLARATIONS = re.compile(r"\bCUDNNWINAPI\b")

# Handle, stream and error plumbing: a plain rename.
_BOOKKEEPING = re.compile(r"^cudnn(Create|Destroy|SetStream|GetStream|GetErrorString|GetVersion)$")


def _use(ctx, tok) -> str:
    name = tok.text
    if name == "cudnn_frontend":
        if _own_namespace(ctx, tok):
            return ""
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


def _own_namespace(ctx, tok) -> bool:
    """`namespace cudnn_frontend::detail {` declares the namespace, and in a file that opens it, its qualified
    names are the file's own: the project is (a part of) cuDNN's frontend, and its cuDNN calls report themselves."""
    before = ctx.view.neighbour(tok, -1)
    if before is not None and before.text == "namespace":
        return True
    memo = ctx.memo
    opens = memo.get("roc131_own_namespace")
    if opens is None:
        code = ctx.view.code
        opens = memo["roc131_own_namespace"] = any(
            t.text == "cudnn_frontend" and i and code[i - 1].text == "namespace" for i, t in enumerate(code)
        )
    return opens


def _own(ctx, header: str) -> bool:
    """A quoted include of the project's own cuDNN-named header (`"../cudnn_frontend_shim.h"`,
    `"cudnn_utils.h"`): not cuDNN's, which declares its API with `CUDNNWINAPI`."""
    return ctx.include is not None and not ctx.include.angled and own_header(ctx, header, _CUDNN_DECLARATIONS)


def _frontend_message(ctx: Context, header: str) -> str:
    if _own(ctx, header):
        return ""
    return f"<{header}> (cuDNN frontend) has no ROCm port: rewrite with MIOpen."


def _header_message(ctx: Context, header: str) -> str:
    if _own(ctx, header):
        return ""
    if _CUDNN_HEADER.fullmatch(header.rsplit("/", 1)[-1]):
        return (
            f"<{header}> (cuDNN) is not on ROCm: port to MIOpen (<miopen/miopen.h>); "
            "the API differs (descriptors, algorithm search, workspace)."
        )
    return f"<{header}> declares cuDNN's API for the project: port what uses it to MIOpen (<miopen/miopen.h>)."


def _loaded_at_run_time(ctx: Context) -> Judgement:
    """A use that reaches cuDNN through the project's own loader (`dlopen("libcudnn.so.9")`, then `dlsym`, or a
    table of entry points called as `api->cudnnCreate(...)`) needs no cuDNN to build: on ROCm it fails when the
    loader runs. An include of cuDNN's own header still needs cuDNN to compile: that stays a build break."""
    if ctx.event == "include":
        if _CUDNN_HEADER.fullmatch(ctx.include.header.rsplit("/", 1)[-1]):
            return None
        opened = opened_at_run_time(ctx, _CUDNN_LIBRARY)
        return _runtime(f"`{opened[0]}` is loaded with `{opened[1]}` (line {opened[2]})") if opened else None
    tok = ctx.token
    before = ctx.view.neighbour(tok, -1)
    if before is not None and before.text in ("->", "."):
        return _runtime(f"`{tok.text}` is called through the project's own table of entry points")
    opened = opened_at_run_time(ctx, _CUDNN_LIBRARY)
    return _runtime(f"`{opened[0]}` is loaded with `{opened[1]}` (line {opened[2]})") if opened else None


def _runtime(how: str) -> Judgement:
    return (
        Severity.MEDIUM,
        Risk.RUNTIME_FAILURE,
        f"Here {how}: the build does not need cuDNN, but ROCm has no libcudnn, so this path fails when the "
        "loader runs (a run-time failure, not a build break).",
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
            _frontend_message,
        ),
        Header(r"cudnn(_\w+)?\.h(pp)?", _header_message),
    ],
    uses=[
        Use("cudnn", _use, r"cudnn[A-Z]\w*", known_only=True),
        Use("cudnn_frontend", _use, scope=True),
    ],
    judge=_loaded_at_run_time,
    fold=True,
    cuda_only=True,
)
