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

import bisect
import functools
import re

from scanner import nametable
from scanner.analysis.ast import Node
from scanner.parsing.tokens import Token

# -- families other rules own ----------------------------------------------------------------------
# cuDNN (ROC131), cuBLASLt (ROC138), NVRTC (ROC122), CUB (ROC135).
_OTHER_FAMILY_PREFIXES = ("cudnn", "CUDNN", "cublasLt", "CUBLASLT", "nvrtc", "NVRTC", "cub::", "CUB_", "Cub",
                          "_CUB_", "__CUB")
# bf16/fp8 types and conversions: HIP has them as __hip_bfloat16/162 (amd_hip_bf16.h) and __hip_fp8_*
# (amd_hip_fp8.h), which HIPIFY 6.3's table does not map, so "no HIP equivalent" would be wrong.
_LOW_PRECISION = re.compile(r"^(__)?nv_(bfloat|fp8|cvt_|saturation)|^__NV_(E4M3|E5M2|SATFINITE|NOSAT)$")
# Names HIPIFY 6.3 lists as unsupported that current HIP has (hipMemoryTypeUnregistered since ROCm 6.0).
# cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER: ROC132 reports every use, and says when HIP has no equivalent, so
# ROC150 leaves them alone (ROC151/ROC152 still add that CUDA deprecated or removed a name).
_MATH_LIBRARY_PREFIXES = ("cublas", "CUBLAS", "cufft", "CUFFT", "curand", "CURAND", "cusparse", "CUSPARSE",
                          "cusolver", "CUSOLVER")
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
UNIFIED_HINT_CALLS = frozenset({
    "cudaMemAdvise", "cudaMemAdvise_v2", "cudaMemPrefetchAsync", "cudaMemPrefetchAsync_v2",
    "cudaMemRangeGetAttribute", "cudaMemRangeGetAttributes", "cuMemAdvise", "cuMemAdvise_v2",
    "cuMemPrefetchAsync", "cuMemPrefetchAsync_v2", "cuMemRangeGetAttribute", "cuMemRangeGetAttributes",
})

# -- ROC161: the driver API ----------------------------------------------------------------------------
_NOT_CALLABLE_KINDS = frozenset({"numeric_literal", "type", "define", "complex", "device_function",
                                 "device_type", "device_library"})
DRIVER_HANDLE_TYPES = frozenset({"CUcontext", "CUmodule", "CUfunction", "CUdeviceptr", "CUlinkState",
                                 "CUlibrary", "CUkernel", "CUtexObject", "CUsurfObject"})


def table():
    return nametable.load()


def _other_family(name: str, entry) -> bool:
    return (name.startswith(_OTHER_FAMILY_PREFIXES) or entry.kind == "device_function"
            or bool(_LOW_PRECISION.match(name)) or name in _HIP_HAS_NOW)


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
def _code_index(ctx, tok: Token) -> int:
    code = ctx.facts.view.code
    offsets = _offsets(ctx.facts.view)
    i = bisect.bisect_left(offsets, tok.offset)
    return i if i < len(code) and code[i].offset == tok.offset else -1


def _offsets(view) -> list[int]:
    # Cached on the view object: one list per file, built on first use.
    cached = getattr(view, "_rocport_api_offsets", None)
    if cached is None or len(cached) != len(view.code):
        cached = [t.offset for t in view.code]
        try:
            view._rocport_api_offsets = cached
        except AttributeError:
            pass
    return cached


def neighbour(ctx, tok: Token, step: int) -> Token | None:
    """The code token `step` positions after (or before, if negative) `tok`."""
    i = _code_index(ctx, tok)
    if i < 0:
        return None
    j = i + step
    code = ctx.facts.view.code
    return code[j] if 0 <= j < len(code) else None


def call_tokens(ctx, tok: Token, limit: int = 200) -> list[Token]:
    """The tokens of `name(...)` after the name, up to the closing parenthesis ([] if not a call)."""
    i = _code_index(ctx, tok)
    code = ctx.facts.view.code
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


def already_reported(ctx, line: int, key: str = "") -> bool:
    """Whether this rule already reported `line` (with a message containing `key`, when given)."""
    for report in ctx.facts.reports:
        if report.rule is ctx.rule and report.line == line and (not key or key in report.message):
            return True
    return False


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
    return node.kind.name == "INTEGER_LITERAL" or (
        node.kind.name == "UNARY_OPERATOR" and node.operator == "-" and len(node.children) == 1
        and node.children[0].strip().kind.name == "INTEGER_LITERAL")


def climb(node: Node) -> Node:
    """The outermost expression that is `node` under implicit casts and parentheses."""
    while node.parent is not None and node.parent.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR") \
            and len(node.parent.children) == 1:
        node = node.parent
    return node
