"""Which preprocessor branches HIP-Clang compiles: the lines of a file that a ROCm build never sees.

A finding inside `#ifndef GGML_USE_HIP ... #endif`, `#if __CUDA_ARCH__ >= 800` or the CUDA side of
`#if BNB_HIP ... #else ... #endif` is about code the project's ROCm build leaves out: the port is already
there (or HIP takes another branch), so the finding must not claim the code breaks on ROCm.

Conditions are evaluated three-valued: a branch is dead only when its condition is known false under HIP-Clang.
What is known:
- HIP-Clang's own macros are defined (`__HIP__`, `__HIPCC__`, `__HIP_PLATFORM_AMD__`, `__clang__`), NVIDIA's are
  not (`__CUDA_ARCH__`, `CUDA_VERSION`, `CUDART_VERSION`, `__NVCC__`, `__CUDACC_VER_MAJOR__`,
  `__HIP_PLATFORM_NVIDIA__`): an undefined name is 0 in `#if`, as the standard says, so the CUDA-version side of
  `#if CUDART_VERSION >= 12000` is dead on ROCm; unless the project's HIP side defines the name itself
  (`#define CUDART_VERSION 12000` in its HIP header, scanner.port): its value there is then unknown;
- the project's own HIP switches (scanner.port: `USE_ROCM`, `GGML_USE_HIP`, `BNB_HIP`) are defined as 1;
- the project's macros derived from those (scanner.port_values: `#define NVLS_SUPPORTED 0` on the HIP side of a
  platform test, `#define P_USE_CUDA !defined(__HIP_PLATFORM_AMD__)`) have the value HIP-Clang gives them;
- `__has_include(<nvml.h>)` of an NVIDIA-only header is false.
Anything else (a project option, a version number, a function-like macro) is unknown, and a branch that
depends on it is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

HIP_DEFINED = {"__HIP__": 1, "__HIPCC__": 1, "__HIP_PLATFORM_AMD__": 1, "__HIP_PLATFORM_HCC__": 1, "__clang__": 1}
HIP_UNDEFINED = frozenset(
    {
        "__CUDA_ARCH__",
        "CUDA_VERSION",
        "CUDART_VERSION",
        "__CUDACC_VER__",
        "__NVCC__",
        "__CUDACC_VER_MAJOR__",
        "__CUDACC_VER_MINOR__",
        "__CUDACC_VER_BUILD__",
        "__CUDA_ARCH_LIST__",
        "__CUDA_ARCH_FEAT_SM90_ALL",
        "__NVCOMPILER",
        "__HIP_PLATFORM_NVIDIA__",
        "__HIP_PLATFORM_NVCC__",
        "__NVCC_DIAG_PRAGMA_SUPPORT__",
        "__CUDACC_RTC__",
        "CUDA_ARCH",
        "__CUDA_ARCH_SPECIFIC__",
        "__CUDA_ARCH_FAMILY_SPECIFIC__",
    }
)
# Headers a ROCm machine does not have (HIP names them differently or has no counterpart).
NVIDIA_ONLY_HEADERS = re.compile(
    r"^(?:nvml\.h|nvtx3?/.*|nvToolsExt\w*\.h|cupti\w*\.h|NvInfer\w*\.h|cuda\w*\.h|"
    r"cu(?:blas|fft|rand|sparse|solver|dnn|tensor)\w*\.h|nccl\.h|mma\.h|"
    r"cooperative_groups/.*|cub/.*|thrust/.*|cutlass/.*)$"
)


_CHAIN = frozenset({"elif", "elifdef", "elifndef", "else", "endif"})


@dataclass(frozen=True)
class DeadBranch:
    """Where a dead line's branch starts: the directive's line and its text (`#ifndef GGML_USE_HIP`)."""

    line: int
    directive: str


def dead_lines(
    directives,
    line_count: int,
    hip_macros: frozenset[str] = frozenset(),
    undefined: frozenset[str] = frozenset(),
    project_defined: frozenset[str] = frozenset(),
    values: tuple[tuple[str, int], ...] = (),
) -> dict[int, DeadBranch]:
    """Lines (1-based) HIP-Clang never compiles, each with the outermost dead branch that holds it. The
    directives' own lines count as inside the branches that enclose them. `undefined`: macros the project
    defines only where HIP never looks (scanner.port), undefined under HIP like NVIDIA's own. `project_defined`:
    NVIDIA names the project's HIP side defines itself (`CUDART_VERSION` in its HIP header): unknown, not 0,
    unless `undefined` says every definition is on a dead line. `values`: (macro, value) of the project's macros
    whose value under HIP-Clang is known (scanner.port_values)."""
    known = _Known(hip_macros, undefined, project_defined - undefined, dict(values))
    dead: dict[int, DeadBranch] = {}
    # One frame per open #if chain: [state of the current branch (True/False/None), a branch already taken
    # (True/None/False), the DeadBranch when the current branch is dead].
    stack: list[list] = []
    previous_end = 1

    def fill(start: int, end: int, frames: list[list]) -> None:
        frame = next((f for f in frames if f[0] is False), None)
        if frame is not None:
            for line in range(start, end + 1):
                dead[line] = frame[2]

    for d in directives:
        name = d.name
        fill(previous_end, d.line - 1, stack)
        # An #elif, #else or #endif belongs to its chain, not to the branch it closes.
        fill(d.line, d.end_line, stack[:-1] if name in _CHAIN else stack)
        previous_end = d.end_line + 1
        if name in ("if", "ifdef", "ifndef"):
            value = _condition(name, [t.text for t in d.tokens], known)
            stack.append([value, value, DeadBranch(d.line, _describe(d))])
        elif name in ("elif", "elifdef", "elifndef") and stack:
            frame = stack[-1]
            taken = frame[1]
            own: bool | None = False
            if taken is True:
                value = False
            else:
                kind = {"elif": "if", "elifdef": "ifdef", "elifndef": "ifndef"}[name]
                own = _condition(kind, [t.text for t in d.tokens], known)
                value = own if taken is False else (False if own is False else None)
            frame[0] = value
            # Some branch is taken once an earlier one is, or this one's own condition holds.
            frame[1] = True if (taken is True or own is True) else (False if taken is False and own is False else None)
            frame[2] = DeadBranch(d.line, _describe(d))
        elif name == "else" and stack:
            frame = stack[-1]
            taken = frame[1]
            frame[0] = False if taken is True else (True if taken is False else None)
            frame[1] = True
            frame[2] = DeadBranch(d.line, _describe(d))
        elif name == "endif" and stack:
            stack.pop()
    fill(previous_end, line_count, stack)
    return dead


def _describe(directive) -> str:
    text = directive.text
    return f"#{directive.name} {text}".strip() if len(text) <= 80 else f"#{directive.name} {text[:77]}..."


@dataclass(frozen=True)
class _Known:
    hip_macros: frozenset[str]
    undefined: frozenset[str]
    project_defined: frozenset[str] = frozenset()
    values: dict = field(default_factory=dict)


def value_of(
    tokens: list[str],
    hip_macros: frozenset[str] = frozenset(),
    undefined: frozenset[str] = frozenset(),
    values: tuple[tuple[str, int], ...] = (),
    unknown: frozenset[str] = frozenset(),
) -> int | None:
    """The value of a preprocessor expression (token texts) under HIP-Clang, None when unknown. `unknown`: names
    to read as unknown whatever is known of them (`__CUDA_ARCH__`, to ask whether the rest decides)."""
    known = _Known(hip_macros - unknown, undefined - unknown, unknown, {k: v for k, v in values if k not in unknown})
    try:
        value, rest = _Evaluator(tokens, known).parse()
    except (IndexError, ValueError, ZeroDivisionError, RecursionError):
        return None
    return None if rest else value


def _condition(kind: str, tokens: list[str], known: _Known) -> bool | None:
    if kind in ("ifdef", "ifndef"):
        defined = _defined(tokens[0], known) if tokens else None
        if defined is None:
            return None
        return defined if kind == "ifdef" else not defined
    try:
        value, rest = _Evaluator(tokens, known).parse()
    except (IndexError, ValueError, ZeroDivisionError, RecursionError):
        return None
    if value is None:
        return None
    return bool(value)


def _defined(name: str, known: _Known) -> bool | None:
    if name in HIP_DEFINED or name in known.hip_macros:
        return True
    if name in known.values:
        return True
    if name in known.project_defined:
        return None
    if name in HIP_UNDEFINED or name in known.undefined:
        return False
    return None


_INT = re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")
_BINARY = [
    ("||",),
    ("&&",),
    ("|",),
    ("^",),
    ("&",),
    ("==", "!="),
    ("<", ">", "<=", ">="),
    ("<<", ">>"),
    ("+", "-"),
    ("*", "/", "%"),
]


class _Evaluator:
    """A preprocessor expression over token texts; values are ints, or None when unknown. `a || b` is known
    true when either side is, `a && b` known false when either side is."""

    def __init__(self, tokens: list[str], known: _Known):
        self.tokens = tokens
        self.at = 0
        self.known = known

    def parse(self):
        value = self._ternary()
        return value, self.tokens[self.at :]

    def _peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def _take(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _ternary(self):
        condition = self._binary(0)
        if self._peek() != "?":
            return condition
        self._take()
        yes = self._ternary()
        if self._peek() == ":":
            self._take()
        no = self._ternary()
        if condition is None:
            return yes if yes == no else None
        return yes if condition else no

    def _binary(self, level: int):
        if level == len(_BINARY):
            return self._unary()
        value = self._binary(level + 1)
        while self._peek() in _BINARY[level]:
            operator = self._take()
            other = self._binary(level + 1)
            value = _apply(operator, value, other)
        return value

    def _unary(self):
        token = self._take()
        if token == "!":
            value = self._unary()
            return None if value is None else int(not value)
        if token == "-":
            value = self._unary()
            return None if value is None else -value
        if token == "~":
            value = self._unary()
            return None if value is None else ~value
        if token == "+":
            return self._unary()
        if token == "(":
            value = self._ternary()
            if self._peek() == ")":
                self._take()
            return value
        if token == "defined":
            parenthesised = self._peek() == "("
            if parenthesised:
                self._take()
            name = self._take()
            if parenthesised and self._peek() == ")":
                self._take()
            defined = _defined(name, self.known)
            return None if defined is None else int(defined)
        if token in ("__has_include", "__has_include_next"):
            return self._has_include()
        match = _INT.match(token)
        if match:
            digits = match.group(1)
            if digits[:2].lower() == "0x":
                return int(digits, 16)
            return int(digits, 8) if digits.startswith("0") else int(digits)
        if token.startswith("'"):
            return None
        if re.match(r"^[A-Za-z_]\w*$", token):
            if self._peek() == "(":  # a function-like macro: its value is unknown
                self._skip_group()
                return None
            if token in HIP_DEFINED or token in self.known.hip_macros:
                return 1
            if token in self.known.values:
                return self.known.values[token]
            if token in self.known.project_defined:
                return None
            if token in HIP_UNDEFINED or token in self.known.undefined:
                return 0
            if token in ("true", "false"):
                return int(token == "true")
            return None
        raise ValueError(token)

    def _skip_group(self) -> None:
        depth = 0
        while self.at < len(self.tokens):
            token = self._take()
            if token == "(":
                depth += 1
            elif token == ")":
                depth -= 1
                if depth == 0:
                    return

    def _has_include(self):
        start = self.at
        self._skip_group()
        header = "".join(self.tokens[start : self.at]).strip("()").strip('<>"')
        return 0 if NVIDIA_ONLY_HEADERS.match(header) else None


def _apply(operator: str, a, b):
    if operator == "||":
        if a or b:  # a known non-zero side decides
            return 1
        return None if a is None or b is None else 0
    if operator == "&&":
        if a == 0 or b == 0:
            return 0
        return None if a is None or b is None else 1
    if a is None or b is None:
        return None
    if operator in ("/", "%") and b == 0:
        return None
    return {
        "|": lambda: a | b,
        "^": lambda: a ^ b,
        "&": lambda: a & b,
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "<": lambda: int(a < b),
        ">": lambda: int(a > b),
        "<=": lambda: int(a <= b),
        ">=": lambda: int(a >= b),
        "<<": lambda: a << b if 0 <= b < 64 else None,
        ">>": lambda: a >> b if 0 <= b < 64 else None,
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "/": lambda: int(a / b),
        "%": lambda: a % b,
    }[operator]()
