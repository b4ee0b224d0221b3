"""Shared name sets and helpers of the CUDA API rules (ROC150-ROC163). Not a rule module.

Every name of HIPIFY's table has at most one *owner* among the name-based API rules, so a name is reported
once, by the most specific rule (`owner()`):

    excluded (another family's rule covers it) > ROC153 texture/surface reference > ROC150 no HIP equivalent
    > ROC152 removed in CUDA > ROC151 deprecated in CUDA > ROC162 graph/capture > ROC163 unified-memory hint
    > ROC161 driver API

ROC150 wins over ROC151/ROC152 because "there is nothing to port to" matters more than "CUDA retired it"
(its message notes the CUDA deprecation/removal). ROC161 reports a line only for driver names nobody more
specific owns.
"""

from __future__ import annotations

import functools
import posixpath
import re

from scanner import nametable
from scanner.analysis.ast import Node
from scanner.analysis.context import Context
from scanner.model import Severity
from scanner.parsing.tokens import Token
from scanner.rules.libraries._judgement import cuda_code_only, judged

# -- families other rules own ----------------------------------------------------------------------
# cuDNN (ROC131), cuBLASLt (ROC138), NVRTC (ROC122), CUB (ROC135).
_OTHER_FAMILY_PREFIXES = (
    "cudnn",
    "CUDNN",
    "cublasLt",
    "CUBLASLT",
    "nvrtc",
    "NVRTC",
    "cub::",
    "CUB_",
    "Cub",
    "_CUB_",
    "__CUB",
)
# bf16/fp8 types and conversions: HIP has them as __hip_bfloat16/162 (amd_hip_bf16.h) and __hip_fp8_*
# (amd_hip_fp8.h), which HIPIFY 6.3's table does not map, so "no HIP equivalent" would be wrong.
_LOW_PRECISION = re.compile(r"^(__)?nv_(bfloat|fp8|cvt_|saturation)|^__NV_(E4M3|E5M2|SATFINITE|NOSAT)$")
# Names HIPIFY 6.3 lists as unsupported that current HIP has (hipMemoryTypeUnregistered since ROCm 6.0).
# cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER: ROC132 reports every use, and says when HIP has no equivalent, so
# ROC150 leaves them alone (ROC151/ROC152 still add that CUDA deprecated or removed a name).
_MATH_LIBRARY_PREFIXES = (
    "cublas",
    "CUBLAS",
    "cufft",
    "CUFFT",
    "curand",
    "CURAND",
    "cusparse",
    "CUSPARSE",
    "cusolver",
    "CUSOLVER",
)
_HIP_HAS_NOW = frozenset({"cudaMemoryTypeUnregistered"})
# A table name is only matched when it cannot plausibly be a user identifier: CUDA-prefixed or a `_t` typedef.
_CUDA_LOOKING = ("cu", "CU", "nv", "NV", "__nv", "__NV")

# -- ROC153: the texture/surface reference API -----------------------------------------------------
TEXREF_NAMES_RE = re.compile(
    r"^(cuda(Bind|Unbind)(Texture|Surface)\w*|cudaGet(Texture|Surface)(Reference|AlignmentOffset)|"
    r"cuTexRef\w+|cuSurfRef\w+|cuModuleGet(Tex|Surf)Ref|textureReference|surfaceReference|CUtexref\w*|"
    r"CUsurfref\w*|texture|surface)$"
)
TEXREF_TEMPLATES = frozenset({"texture", "surface"})

# -- ROC162: graphs and stream capture ---------------------------------------------------------------
_CAPTURE_RE = re.compile(r"^cu(da)?(Stream\w*Capture\w*|ThreadExchangeStreamCaptureMode)$")

# -- ROC163: unified-memory hints -------------------------------------------------------------------
UNIFIED_HINT_CALLS = frozenset(
    {
        "cudaMemAdvise",
        "cudaMemAdvise_v2",
        "cudaMemPrefetchAsync",
        "cudaMemPrefetchAsync_v2",
        "cudaMemRangeGetAttribute",
        "cudaMemRangeGetAttributes",
        "cuMemAdvise",
        "cuMemAdvise_v2",
        "cuMemPrefetchAsync",
        "cuMemPrefetchAsync_v2",
        "cuMemRangeGetAttribute",
        "cuMemRangeGetAttributes",
    }
)

# -- ROC161: the driver API ----------------------------------------------------------------------------
_NOT_CALLABLE_KINDS = frozenset(
    {"numeric_literal", "type", "define", "complex", "device_function", "device_type", "device_library"}
)
DRIVER_HANDLE_TYPES = frozenset(
    {
        "CUcontext",
        "CUmodule",
        "CUfunction",
        "CUdeviceptr",
        "CUlinkState",
        "CUlibrary",
        "CUkernel",
        "CUtexObject",
        "CUsurfObject",
    }
)


def table():
    return nametable.load()


def _other_family(name: str, entry) -> bool:
    return (
        name.startswith(_OTHER_FAMILY_PREFIXES)
        or entry.kind == "device_function"
        or bool(_LOW_PRECISION.match(name))
        or name in _HIP_HAS_NOW
    )


def _cuda_looking(name: str) -> bool:
    return name.startswith(_CUDA_LOOKING) or name.endswith("_t")


def no_hip_equivalent(entry) -> bool:
    """Unsupported in HIP: nothing in hip* (a roc* library may still have it: status roc_only)."""
    return entry.unsupported or entry.status == "roc_only"


def _is_graph(entry) -> bool:
    """Graph and capture *calls*; handle types and enumerators are left alone."""
    if entry.kind in _NOT_CALLABLE_KINDS or entry.cuda.endswith("_t"):
        return False
    return entry.kind == "graph" or bool(_CAPTURE_RE.match(entry.cuda))


def _is_driver(entry) -> bool:
    name = entry.cuda
    if entry.api != "CUDA Driver API":
        return False
    if name in DRIVER_HANDLE_TYPES:
        return True
    return bool(re.match(r"^cu[A-Z]", name)) and entry.kind not in _NOT_CALLABLE_KINDS


@functools.cache
def owners() -> dict[str, str]:
    """name -> the code of the one API rule that reports it."""
    out: dict[str, str] = {}
    for entry in table().entries:
        name = entry.cuda
        if entry.is_header or not nametable.is_identifier(name) or name in out:
            continue
        if TEXREF_NAMES_RE.match(name):
            out[name] = "ROC153"
            continue
        if _other_family(name, entry) or not _cuda_looking(name):
            continue
        if no_hip_equivalent(entry):
            if not name.startswith(_MATH_LIBRARY_PREFIXES):
                out[name] = "ROC150"
        elif entry.cuda_removed:
            out[name] = "ROC152"
        elif entry.cuda_deprecated:
            out[name] = "ROC151"
        elif _is_graph(entry):
            out[name] = "ROC162"
        elif name in UNIFIED_HINT_CALLS:
            out[name] = "ROC163"
        elif _is_driver(entry):
            out[name] = "ROC161"
    for name in UNIFIED_HINT_CALLS:  # _v2 spellings HIPIFY may list as unsupported stay with ROC150
        out.setdefault(name, "ROC163")
    return out


def names_owned_by(code: str) -> frozenset[str]:
    return frozenset(name for name, owner in owners().items() if owner == code)


# -- token helpers ---------------------------------------------------------------------------------------
def call_tokens(ctx: Context, tok: Token, limit: int = 200) -> list[Token]:
    """The tokens of `name(...)` after the name, up to the closing parenthesis ([] if not a call)."""
    i = ctx.view.index(tok)
    code = ctx.view.code
    if i < 0 or i + 1 >= len(code) or code[i + 1].text != "(":
        return []
    out, depth = [], 0
    for t in code[i + 1 : i + 1 + limit]:
        out.append(t)
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                break
    return out


# -- declarations, not uses -------------------------------------------------------------------------------
# A vendored copy of NVIDIA's headers, or a loader that opens the driver itself (CUEW, the samples' dynlink).
_VENDORED_HEADER = re.compile(
    r"^(?:cuda|cudaGL|cudaEGL|cudaVDPAU|cudaD3D\d*|cudaProfiler|cudaTypedefs|cuda_runtime"
    r"|cuda_runtime_api|driver_types|driver_functions|texture_types|surface_types"
    r"|library_types)\.h$"
)
# `tcuInit *_cuInit;`, `static CUresult (*cuInit)(...)`: a loader's table of entry points.
_POINTER_DECLARATION = re.compile(r"\*\s*_?cu[A-Z]\w*\s*(?:;|\)\s*\()")
_PROTOTYPE = re.compile(r"\bCUDAAPI\s+\*?\s*cu[A-Z]\w*\s*\(|\bCUDARTAPI\s+cuda[A-Z]\w*\s*\(")
_POINTER_TYPEDEF = re.compile(
    r"\btypedef\s+\w+\s*\(\s*(?:CUDAAPI\s*|CUDARTAPI\s*)?\*\s*\w*cu[A-Z]\w*\s*\)"
    r"|\btypedef\s+CUresult\s+CUDAAPI\s+\w*cu[A-Z]\w*\s*\("
)
_OPENS_DRIVER = re.compile(r"\b(?:dlsym|GetProcAddress|cuGetProcAddress\w*|cudaGetDriverEntryPoint\w*)\s*\(")
# Enough of them to be NVIDIA's API written out, not a project calling it.
_MANY = 5


def declaration_only(ctx) -> str:
    """Why this finding's line declares the CUDA API rather than uses it ("" for a use): a vendored copy of
    cuda.h, a dynamic loader's table of function pointers, a typedef of one, a name listed for dlsym."""
    whole = ctx.memo.get("api_declarations")
    if whole is None:
        whole = ctx.memo["api_declarations"] = _declaring_file(ctx)
    if whole:
        return whole
    line = ctx.line
    text = ctx.line_text(line).strip()
    if text.startswith("typedef"):
        return "It declares a type for a driver entry point (a typedef), not a use: port the code that calls it."
    tok = ctx.token
    if tok is None:
        return ""
    before, after = ctx.view.neighbour(tok, -1), ctx.view.neighbour(tok, 1)
    if before is not None and before.text == "*" and after is not None and after.text in (")", ";", "=", ","):
        return (
            f"It declares `{tok.text}` as a function pointer (a loader's table), not a call: port the code that "
            "loads and calls it."
        )
    before2 = ctx.view.neighbour(tok, -2)
    if (
        before is not None
        and before.text == "("
        and after is not None
        and after.text == ")"
        and before2 is not None
        and before2.kind == "identifier"
        and before2.text.isupper()
    ):
        return (
            f"`{before2.text}({tok.text})` lists the entry point for a loader, not a call: port the code that calls it."
        )
    if any(t.kind == "literal" and t.text.strip('"') == tok.text for t in _line_literals(ctx, line)):
        return f"The line names `{tok.text}` for a symbol lookup (dlsym/GetProcAddress), not a call."
    return ""


def _declaring_file(ctx: Context) -> str:
    base = posixpath.basename(ctx.path)
    if _VENDORED_HEADER.match(base):
        return (
            f"{base} is a vendored copy of NVIDIA's header: it declares the API, it does not use it (info); "
            "port the code that calls it."
        )
    text = ctx.text
    declarations = (
        len(_PROTOTYPE.findall(text)) + len(_POINTER_TYPEDEF.findall(text)) + len(_POINTER_DECLARATION.findall(text))
    )
    if declarations < _MANY or declarations < _calls(ctx):
        return ""
    if _OPENS_DRIVER.search(text):
        return (
            f"{base} loads the CUDA driver at run time (dlopen/dlsym and a table of entry points): on ROCm the "
            "whole loader goes, not each name (info); port the code that calls through it."
        )
    return (
        f"{base} declares NVIDIA's driver API (a vendored copy of cuda.h, or a loader's typedefs and function "
        "pointers): declarations, not uses (info); port the code that calls them."
    )


def _calls(ctx: Context) -> int:
    """Calls of a cu*/cuda* name in code (`cuInit(0)`), not declarations (`CUDAAPI cuInit(`, `(*cuInit)(`)."""
    code = ctx.view.code
    count = 0
    for i, tok in enumerate(code[:-1]):
        if (
            tok.kind == "identifier"
            and tok.text.startswith("cu")
            and code[i + 1].text == "("
            and (i == 0 or code[i - 1].text not in ("CUDAAPI", "CUDARTAPI", "*", "::"))
        ):
            count += 1
    return count


def _line_literals(ctx, line: int) -> list[Token]:
    return [t for t in ctx.view.tokens if t.line == line and t.kind == "literal"] if line in _literal_lines(ctx) else []


def _literal_lines(ctx: Context) -> frozenset[int]:
    lines = ctx.memo.get("api_literal_lines")
    if lines is None:
        lines = ctx.memo["api_literal_lines"] = frozenset(
            t.line for t in ctx.view.tokens if t.kind == "literal" and t.text.startswith('"cu')
        )
    return lines


def api_rule_check(check):
    """A name-based API rule's check: silent in other vendors' backends, and at info where the line only
    declares the API (`declaration_only`), with the reason added to the message."""

    def judged_check(ctx) -> None:
        why = declaration_only(ctx)
        if not why:
            check(ctx)
            return
        before = len(ctx.reports)
        with judged(ctx, Severity.INFO):
            check(ctx)
        for report in ctx.reports[before:]:
            report.message = f"{report.message} {why}"

    return cuda_code_only(judged_check)


# -- AST helpers -----------------------------------------------------------------------------------------
_QUALIFIERS = re.compile(r"\b(const|volatile|struct|enum|class)\b|[*&]|\w+::")


def base_type(node: Node | None) -> str:
    """The node's type name without qualifiers, namespaces, pointers and references."""
    if node is None:
        return ""
    return _QUALIFIERS.sub("", node.type_name).strip()


def is_int_literal(node: Node | None) -> bool:
    if node is None:
        return False
    node = node.strip()
    return node.kind_name == "INTEGER_LITERAL" or (
        node.kind_name == "UNARY_OPERATOR"
        and node.operator == "-"
        and len(node.children) == 1
        and node.children[0].strip().kind_name == "INTEGER_LITERAL"
    )


def climb(node: Node) -> Node:
    """The outermost expression that is `node` under implicit casts and parentheses."""
    while (
        node.parent is not None
        and node.parent.kind_name in ("UNEXPOSED_EXPR", "PAREN_EXPR")
        and len(node.parent.children) == 1
    ):
        node = node.parent
    return node
