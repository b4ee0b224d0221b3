"""How one finding is judged when the rule's catalogue severity is not the whole story, and what is not CUDA code
to migrate. Shared by the rule families (libraries, api, kernel and the ROC2xx text families); not a rule module.

- `judged(ctx, severity, risk)`: the reports made inside the block carry their own severity (and risk): a use of
  NVML behind `__has_include(<nvml.h>)` breaks no build, `TORCH_CUDA_ARCH_LIST` is ignored by ROCm's PyTorch. A
  report names its Rule, and the engine reads the severity from it (scanner.engine, scanner.repository), so the
  report is made with a variant of the rule: same code, name, documentation and events, another severity and
  risk. The rule's target-aware severity still applies, capped at the judged severity. The catalogue (and SARIF's
  rule descriptor) keeps the rule's own severity: the highest its findings reach.
- `other_vendor_backend(path)`: a file in another vendor's backend (`ggml-sycl/`, `ggml-musa/`, `xpu/`, `metal/`)
  is not CUDA code to migrate, whatever CUDA-looking names it holds.
- `third_party_code(path)`: a file under `third_party/`, `3rdparty/`, `vendor/`, `external/`: its vendor's code.
- `vendored_counterpart(path)`: a file of a vendored CUB or Thrust copy there: ROCm's hipCUB or rocThrust replaces it.
- `in_python_message(ctx, line, col)`: a Python string that is a message (printed, logged, raised, an assert's
  text, an argparse `help=`) names a command or a variable; it does not run or set it.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from contextlib import contextmanager

from scanner.analysis.context import HIP_GUARD, Context, FileFacts
from scanner.formats.python_src import dotted, walk_ast
from scanner.model import Risk, Severity
from scanner.rules.textual import matches

_VARIANTS: dict[tuple[int, Severity, Risk | None], tuple[object, object]] = {}


def variant(rule, severity: Severity, risk: Risk | None = None):
    """`rule` as one of its findings is judged: the same rule at `severity` (and `risk`). Made once per rule."""
    key = (id(rule), severity, risk)
    cached = _VARIANTS.get(key)
    if cached is not None and cached[0] is rule:
        return cached[1]
    target = rule.target_severity
    made = dataclasses.replace(
        rule,
        severity=severity,
        risk=risk or rule.risk,
        target_severity=_capped(target, severity) if target is not None else None,
    )
    _VARIANTS[key] = (rule, made)
    return made


def _capped(target_severity, cap: Severity):
    def severity(profile, base):
        judged, note = target_severity(profile, base)
        return (judged, note) if judged.rank <= cap.rank else (cap, note)

    return severity


@contextmanager
def judged(ctx, severity: Severity, risk: Risk | None = None):
    """Reports made inside the block are findings at `severity` (and `risk`) instead of the rule's own."""
    rule = ctx.rule
    ctx.rule = variant(rule, severity, risk)
    try:
        yield
    finally:
        ctx.rule = rule


# -- other vendors' backends ------------------------------------------------------------------------------
# A directory named after another accelerator stack, alone or as a backend's name (`ggml-sycl`, `torch_xpu`,
# `vulkan-shaders`), not a word inside a longer name (`simpleVulkan`, a CUDA-Vulkan interop sample, or
# `cannyEdgeDetectorNPP`).
_OTHER_VENDOR = re.compile(r"^(?:[a-z0-9]+[-_])?(sycl|xpu|hpu|metal|vulkan|musa|cann|opencl)(?:[-_][a-z0-9]+)*$", re.I)


def other_vendor_backend(path: str) -> str:
    """The directory of `path` that holds another vendor's backend (`src/ggml-sycl`), or ""."""
    parts = path.replace("\\", "/").split("/")[:-1]
    for i, part in enumerate(parts):
        if _OTHER_VENDOR.match(part):
            return "/".join(parts[: i + 1])
    return ""


# A directory holding someone else's code copied into the repository: `third_party/`, `3rdparty/`, `vendor/`.
_THIRD_PARTY = re.compile(r"^(?:third[-_]?party|3rd[-_]?party|vendor(?:ed)?|externals?|extern|deps)$", re.I)


def third_party_code(path: str) -> bool:
    """Whether `path` lies in a directory of vendored third-party code (`third_party/json/json.hpp`)."""
    return any(_THIRD_PARTY.match(part) for part in path.replace("\\", "/").split("/")[:-1])


# A vendored copy of a library ROCm ships a counterpart of, in a third-party directory (FasterTransformer's
# `3rdparty/cub/`, included only for CUDA < 11.5): a ROCm port links hipCUB or rocThrust in its place and never
# compiles the copy, so the copy's own lines are not migration work.
_COUNTERPARTS = {"cub": "hipCUB", "thrust": "rocThrust"}
_COPY_DIR = re.compile(r"^(cub|thrust)(?:[-_.]?v?\d[\w.]*)?$", re.I)


def vendored_counterpart(path: str) -> tuple[str, str]:
    """The folder of a vendored CUB or Thrust copy holding `path` and ROCm's counterpart library
    (`("3rdparty/cub", "hipCUB")`), or `("", "")`."""
    parts = path.replace("\\", "/").split("/")[:-1]
    vendored = False
    for i, part in enumerate(parts):
        if vendored:
            copy = _COPY_DIR.match(part)
            if copy:
                return "/".join(parts[: i + 1]), _COUNTERPARTS[copy.group(1).lower()]
        vendored = vendored or bool(_THIRD_PARTY.match(part))
    return "", ""


def cuda_code_only(check):
    """A rule's check that stays out of other vendors' backends (`other_vendor_backend`)."""

    def guarded(ctx) -> None:
        if not _in_other_backend(ctx):
            check(ctx)

    guarded.__wrapped__ = check
    return guarded


def _in_other_backend(ctx) -> bool:
    if not isinstance(ctx, Context):  # a repository-level or compile context: its rules pick their own files
        return False
    memo = ctx.memo
    found = memo.get("other_vendor_backend")
    if found is None:
        found = memo["other_vendor_backend"] = other_vendor_backend(ctx.path)
    return bool(found)


# -- Python strings that are messages ---------------------------------------------------------------------
# Not `write`: `f.write("nvidia-smi\n")` may be generating a script.
_MESSAGE_CALLS = frozenset(
    {
        "print",
        "echo",
        "secho",
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "fatal",
        "log",
        "notice",
    }
)
_MESSAGE_KEYWORDS = frozenset({"help", "description", "epilog", "usage", "msg", "message"})


def python_messages(source: FileFacts) -> list[tuple[int, int, int]]:
    """(line, column, end line) of the string constants of a Python file (`ctx.source`) that are messages:
    arguments of print/logging/warnings calls, an assert's message, what a `raise` builds, `help=`-style keywords."""
    cached = source.cache.get("py_messages")
    if cached is not None:
        return cached
    out: list[tuple[int, int, int]] = []
    parsed = source.parsed
    module = parsed.value if parsed is not None else None
    if isinstance(module, ast.Module):
        roots: list[ast.AST] = []
        failing = _failing_helpers(module)
        for node in walk_ast(module):
            if isinstance(node, ast.Assert) and node.msg is not None:
                roots.append(node.msg)
            elif isinstance(node, ast.Raise) and node.exc is not None:
                roots.append(node.exc)
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in _MESSAGE_CALLS or (isinstance(func, ast.Name) and name in failing):
                    roots.extend(node.args)
                roots.extend(k.value for k in node.keywords if k.arg in _MESSAGE_KEYWORDS)
        for root in roots:
            for node in ast.walk(root):
                if (
                    isinstance(node, (ast.Constant, ast.JoinedStr))
                    and hasattr(node, "lineno")
                    and (isinstance(node, ast.JoinedStr) or isinstance(node.value, str))
                ):
                    out.append((node.lineno, node.col_offset + 1, node.end_lineno or node.lineno))
    source.cache["py_messages"] = out
    return out


def _failing_helpers(module: ast.Module) -> frozenset[str]:
    """Functions of the file that end by raising or exiting (`def _fail(msg): raise SystemExit(msg)`): what a call
    of one is given is the message of that failure."""
    names = set()
    for node in walk_ast(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args and node.body:
            last = node.body[-1]
            if isinstance(last, ast.Raise) or (
                isinstance(last, ast.Expr)
                and isinstance(last.value, ast.Call)
                and dotted(last.value.func) in ("sys.exit", "exit", "quit", "os._exit")
            ):
                names.add(node.name)
    return frozenset(names)


def command_matches(ctx, pattern: re.Pattern, group: int | str = 0, python_lines: bool = False):
    """`textual.matches` without the matches inside a Python message string (`in_python_message`)."""
    for line, col, match in matches(ctx, pattern, group, python_lines):
        if not in_python_message(ctx, line, col):
            yield line, col, match


def in_python_message(ctx, line: int, col: int) -> bool:
    """Whether a match that `textual.matches` placed at (line, col) of a Python file lies in a message string."""
    if ctx.language != "python":
        return False
    for start, start_col, end in python_messages(ctx.source):
        if start == line and start_col == col:
            return True
        if start < line <= end:  # inside a literal spanning lines
            return True
    return False


# -- PyTorch's hipify of a CUDAExtension --------------------------------------------------------------------
_CXX = frozenset({"cuda", "c++", "c"})


def hipified_by_torch(ctx) -> str:
    """Why a CUDA name in this file is renamed by PyTorch's hipify in the project's own ROCm build, or empty.

    The project builds its extensions with a Python build that branches on ROCm (`IS_HIP_EXTENSION`,
    `torch.version.hip`: scanner.port.Port.torch_hip), and this file is one it builds: the build model has it in a
    setuptools extension, or the file itself has HIP branches beside its CUDA ones (`__HIP_PLATFORM_AMD__`,
    `USE_ROCM`). A ROCm PyTorch hipifies every source of a CUDAExtension, `.cpp` included, before compiling it,
    so a name with a HIP counterpart is a rename the build already makes (low, per the severity policy)."""
    if not isinstance(ctx, Context) or ctx.language not in _CXX:
        return ""
    memo = ctx.memo
    if "rocport:hipified-by-torch" not in memo:
        built = ctx.port.torch_hip
        why = ""
        if built:
            build = ctx.build
            extension = build is not None and any(c.system == "setuptools" for c in build.compilations)
            if extension or ctx.source.guarded_lines(HIP_GUARD):
                why = (
                    f"The project builds this file for ROCm through PyTorch's hipify ({built}), which renames this "
                    "name to its HIP counterpart: a rename the build already makes."
                )
        memo["rocport:hipified-by-torch"] = why
    return memo["rocport:hipified-by-torch"]
