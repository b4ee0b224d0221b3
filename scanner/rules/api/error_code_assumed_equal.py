"""CUDA error codes handled as raw numbers.

What it finds:
    `cudaError_t`/`CUresult` values treated as plain numbers: an integer cast to the error type
    (`(cudaError_t)2`, `static_cast<cudaError_t>(code)`), an error compared with a non-zero literal
    (`if (err == 2)`, `err >= 700`), numeric `case 700:` labels in a switch over an error, and a CUDA error
    converted to `hipError_t` (or back) by a cast or a declaration instead of a mapping. Printing an error with
    `%d`, comparing with 0, and an error used as the exit status (`exit(err)`, `return err;` from main) stay
    quiet: an exit status is not compared with CUDA's codes (a shell sees its low 8 bits, tested for zero), and
    zero is success on both platforms. A CUDA call cast to the error type it already returns (a check macro's
    `static_cast<cudaError_t>(call)`, in a template too, where clang leaves the call unresolved), or a variable
    last assigned such a call (`auto error_code = cudaFuncSetAttribute(kernel<T>, ...);`), stays quiet.

Why it breaks on ROCm:
    hipify renames `cudaErrorIllegalAddress` to `hipErrorIllegalAddress`, but it cannot translate the
    number 700. `hipError_t` follows CUDA's numbering for many codes, yet the numbering is not guaranteed to
    match: HIP lacks many CUDA codes (the number then never occurs), adds its own (`hipErrorRuntimeMemory`
    =1052), and reports some conditions with a different code than CUDA. Numeric checks therefore silently
    take the wrong branch.

Example:
    cudaError_t err = cudaGetLastError();
    if (err == 700) recover();              // meant cudaErrorIllegalAddress
    return (cudaError_t)code;

Use instead:
    Compare with named codes (`err == cudaErrorIllegalAddress`), keep values in `cudaError_t` end to end,
    and convert between CUDA and HIP errors with an explicit mapping (or
    `hipCUDAErrorTohipError` on the NVIDIA platform).

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/error_handling.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/global_defines_enums_structs_files/global_enum_and_defines.html
    https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html

Known problems:
    An error copied into a plain `int` first (`int code = err; if (code == 2)`) is not followed. When HIP's
    headers are not available, a CUDA error stored into `hipError_t` is recognised only in the forms
    `hipError_t e = cudaX(...)` and `(hipError_t)cudaX(...)`. Calls are
    taken to return an error when they are CUDA runtime/driver functions of HIPIFY's table (other than
    `*GetErrorString`/`*GetErrorName`).
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import base_type, is_int_literal
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import cuda_code_only

_ERROR_TYPES = frozenset({"cudaError_t", "cudaError", "cudaError_enum", "CUresult"})
_HIP_ERROR = frozenset({"hipError_t", "hipError"})
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">="})
_NOT_ERROR_CALLS = re.compile(r"(GetErrorString|GetErrorName)$")
_CALLABLE_API = frozenset({"CUDA RT API", "CUDA Driver API"})
_KNOWN = {
    1: "cudaErrorInvalidValue",
    2: "cudaErrorMemoryAllocation",
    3: "cudaErrorInitializationError",
    9: "cudaErrorInvalidConfiguration",
    98: "cudaErrorInvalidDeviceFunction",
    100: "cudaErrorNoDevice",
    101: "cudaErrorInvalidDevice",
    209: "cudaErrorNoKernelImageForDevice",
    400: "cudaErrorInvalidResourceHandle",
    600: "cudaErrorNotReady",
    700: "cudaErrorIllegalAddress",
    701: "cudaErrorLaunchOutOfResources",
    702: "cudaErrorLaunchTimeout",
    710: "cudaErrorAssert",
    719: "cudaErrorLaunchFailure",
    801: "cudaErrorNotSupported",
    999: "cudaErrorUnknown",
}
_ADVICE = "hipError_t numbering is not guaranteed to match and hipify cannot translate numbers"


def _error_kind(ctx, expr) -> str:
    """'cuda' for a CUDA error value, 'hip' for a hipError_t value, '' otherwise."""
    if expr is None:
        return ""
    node = expr.strip()
    for candidate in (expr, node):
        kind = base_type(candidate)
        if kind in _ERROR_TYPES:
            return "cuda"
        if kind in _HIP_ERROR:
            return "hip"
    if node.kind_name == "CALL_EXPR" and node.name.startswith("cu") and not _NOT_ERROR_CALLS.search(node.name):
        entry = ctx.names.get(node.name)
        if entry is not None and entry.api in _CALLABLE_API and entry.kind not in ("type", "numeric_literal"):
            return "cuda"
    return ""


def _literal(expr) -> int | None:
    return expr.strip().int_value() if is_int_literal(expr) else None


def _named(value: int) -> str:
    name = _KNOWN.get(value)
    return f" (use `{name}`)" if name else " (use the named code)"


def check(ctx: Context) -> None:
    if ctx.platform_guarded:
        return
    event = ctx.event
    if event == "identifier":
        _hip_error_tokens(ctx)
        return
    node = ctx.node
    if event == "binary_op":
        _binary(ctx, node)
    elif event == "cast":
        _cast(ctx, node)
    elif event == "case":
        _case(ctx, node)
    elif event == "var_decl":
        _declaration(ctx, node)


def _binary(ctx, node) -> None:
    lhs, rhs = ctx.operands()
    if lhs is None:
        return
    op = node.operator
    if op in _COMPARE:
        for value_side, other in ((lhs, rhs), (rhs, lhs)):
            value = _literal(other)
            if value not in (None, 0) and _error_kind(ctx, value_side) == "cuda":
                _report(
                    ctx, node, f"`{node.text}` compares a CUDA error with the number {value}{_named(value)}; {_ADVICE}."
                )
                return
    elif op == "=":
        kinds = (_error_kind(ctx, lhs), _error_kind(ctx, rhs))
        if kinds in (("hip", "cuda"), ("cuda", "hip")):
            _report(
                ctx,
                node,
                f"`{node.text}` assigns a {kinds[1].upper()} error to a {kinds[0].upper()} error "
                f"without conversion; {_ADVICE}.",
            )


def _cast(ctx, node) -> None:
    target = base_type(node)
    if target not in _ERROR_TYPES and target not in _HIP_ERROR:
        return
    operand = next((c for c in reversed(node.children) if c.kind_name not in ("TYPE_REF", "TEMPLATE_REF")), None)
    if operand is None:
        return
    source = _error_kind(ctx, operand)
    if target in _HIP_ERROR:
        if source == "cuda":
            _report(ctx, node, f"`{node.text}` reinterprets a CUDA error as hipError_t; {_ADVICE}: map the codes.")
        return
    if source:
        if source == "hip":
            _report(ctx, node, f"`{node.text}` reinterprets a hipError_t as a CUDA error; {_ADVICE}: map the codes.")
        return
    spelled = (operand.strip().text or _macro_argument(node.text)).strip()
    if _cuda_call_text(ctx, spelled) or _assigned_a_cuda_call(ctx, spelled, node.line):
        return  # a CUDA call clang left unresolved (a dependent call in a template): already its own error type
    inner = operand.strip()
    if inner.kind_name == "DECL_REF_EXPR" and ctx.names.get(inner.name) is not None:
        return  # a named enumerator: hipify translates it
    value = _literal(operand)
    if value == 0:
        return  # success is 0 on both platforms
    shown = f"the number {value}{_named(value)}" if value is not None else "an integer"
    _report(ctx, node, f"`{node.text}` makes a CUDA error from {shown}; {_ADVICE}.")


def _cuda_call_text(ctx, text: str) -> bool:
    """`text` is one call of a CUDA runtime or driver function (`cudaMemcpy(dst, src, n, kind)`), which returns a
    CUDA error: clang leaves such a call unresolved inside a template when an argument depends on a parameter."""
    text = text.strip()
    while text.startswith("(") and _closing(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    found = re.match(r"(?:::)?(cu\w+)\s*\(", text)
    if not found or _closing(text, found.end() - 1) != len(text) - 1 or _NOT_ERROR_CALLS.search(found.group(1)):
        return False
    entry = ctx.names.get(found.group(1))
    return entry is not None and entry.api in _CALLABLE_API and entry.kind not in ("type", "numeric_literal")


def _assigned_a_cuda_call(ctx, name: str, line: int) -> bool:
    """`name` is a variable whose last assignment before `line`, in the enclosing function, is a CUDA runtime or
    driver call (`auto error_code = cudaFuncSetAttribute(kernel<T>, ...);` in a template: `auto` of a dependent
    call, which clang leaves without a type)."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return False
    function = ctx.function_at(line)
    first = function.start_line if function is not None else 1
    code = [t for t in ctx.view.code if first <= t.line < line]
    last = None
    for i, tok in enumerate(code[:-2]):
        if tok.text == name and code[i + 1].text == "=" and (i == 0 or code[i - 1].text not in (".", "->", "::")):
            callee = code[i + 2].text
            opens = i + 3 < len(code) and code[i + 3].text in ("(", "<")
            last = opens and _cuda_call_text(ctx, f"{callee}()")
    return bool(last)


def _macro_argument(text: str) -> str:
    """The one argument of a function-like macro call (`CHECK(cudaFree(p))`: `cudaFree(p)`), "" otherwise: a cast a
    check macro writes around its argument has the call's text only there."""
    found = re.match(r"[A-Za-z_]\w*\s*\(", text.strip())
    text = text.strip()
    if not found or _closing(text, found.end() - 1) != len(text) - 1:
        return ""
    argument = text[found.end() : -1]
    depth = 0
    for char in argument:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            return ""
    return argument


def _closing(text: str, at: int) -> int:
    """The index of the parenthesis closing the one at `at`, -1 when none."""
    depth = 0
    for i in range(at, len(text)):
        depth += text[i] == "("
        depth -= text[i] == ")"
        if depth == 0:
            return i
    return -1


def _case(ctx, node) -> None:
    if not node.children or not is_int_literal(node.children[0]):
        return
    value = _literal(node.children[0])
    if not value:
        return
    switch = next((a for a in node.ancestors() if a.kind_name == "SWITCH_STMT"), None)
    if switch is None or not switch.children or _error_kind(ctx, switch.children[0]) != "cuda":
        return
    _report(ctx, node, f"`case {value}:` in a switch over a CUDA error{_named(value)}; {_ADVICE}.")


def _declaration(ctx, node) -> None:
    declared = base_type(node)
    if declared not in _HIP_ERROR and not node.text.lstrip().startswith(("hipError_t ", "hipError_t\t")):
        if declared in _ERROR_TYPES:
            init = _initializer(node)
            if init is not None and _error_kind(ctx, init) == "hip":
                _report(
                    ctx,
                    node,
                    f"`{node.name}` ({declared}) is initialised from a hipError_t without conversion; {_ADVICE}.",
                )
        return
    init = _initializer(node)
    if (
        init is not None
        and init.kind_name not in ("CSTYLE_CAST_EXPR", "CXX_STATIC_CAST_EXPR")
        and _error_kind(ctx, init) == "cuda"
    ):
        _report(
            ctx, node, f"`{node.name}` (hipError_t) is initialised from a CUDA error without conversion; {_ADVICE}."
        )


def _initializer(node):
    for child in node.children:
        if child.kind_name not in ("TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF"):
            return child
    return None


def _hip_error_tokens(ctx) -> None:
    """`hipError_t h = cudaX(...)` / `(hipError_t)cudaX(...)` by tokens: with HIP's headers stubbed, clang
    drops such declarations and casts from the AST."""
    tok = ctx.token
    following = [ctx.view.neighbour(tok, k) for k in (1, 2, 3, 4)]
    if any(t is None for t in following):
        return
    texts = [t.text for t in following]
    if texts[1] == "=" and texts[3] == "(":
        callee = following[2]  # hipError_t h = cudaX(
    elif texts[0] == ")" and texts[2] == "(":
        before = ctx.view.neighbour(tok, -1)
        if before is None or before.text != "(":
            return
        callee = following[1]  # (hipError_t)cudaX(
    else:
        return
    entry = ctx.names.get(callee.text)
    if entry is None or entry.api not in _CALLABLE_API or _NOT_ERROR_CALLS.search(callee.text):
        return
    _report(
        ctx,
        tok,
        f"a hipError_t is taken from `{callee.text}` (a CUDA error) without conversion; {_ADVICE}: map the codes.",
    )


def _report(ctx, at, message: str) -> None:
    if not ctx.reported_on(at.line):
        ctx.report(message, at=at)


RULE = Rule(
    name="api-error-code-assumed-equal",
    formerly=("error-code-assumed-equal",),
    summary="cudaError_t/CUresult handled as raw numbers (hipError_t numbering differs)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("binary_op", "cast", "case", "var_decl", "identifier"),
    names=frozenset({"hipError_t"}),
    requires=("cuda*", "cu*", "CU*", "hipError_t", "hip*"),
    check=cuda_code_only(check),
)
