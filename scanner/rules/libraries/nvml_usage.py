"""NVML used.

What it finds:
    Includes of `nvml.h` and lines calling or naming the NVML API (`nvmlInit_v2`,
    `nvmlDeviceGetHandleByIndex`, `nvmlDeviceGetMemoryInfo`, `nvmlDevice_t`, `nvmlReturn_t`, ...).
    A project's own field or variable named like NVML (`int nvmlDev;`, `info->nvmlDev`) is not NVML: its
    API has no member or variable so named (a member called, `table->nvmlInit(...)`, still reports).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    NVML (NVIDIA Management Library, behind nvidia-smi) does not exist on ROCm. AMD's counterpart is
    the AMD SMI library (`amdsmi.h`, behind `amd-smi`), with a different API: processors are enumerated
    through sockets (`amdsmi_get_socket_handles`, `amdsmi_get_processor_handles`), metrics have different
    names, units and granularity, and some NVML queries (e.g. NVLink, MIG specifics) have no counterpart.

Example:
    nvmlDeviceGetHandleByIndex_v2(0, &dev);
    nvmlDeviceGetUtilizationRates(dev, &util);

Use instead:
    AMD SMI: `#include <amd_smi/amdsmi.h>`, `amdsmi_init(AMDSMI_INIT_AMD_GPUS)`,
    `amdsmi_get_socket_handles`/`amdsmi_get_processor_handles`, then `amdsmi_get_gpu_activity`,
    `amdsmi_get_gpu_memory_usage`, `amdsmi_get_power_info`, ...; `amdsmi_shut_down()`. (ROCm SMI,
    `rocm_smi.h`, is the older library AMD SMI replaces.)

References:
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://docs.nvidia.com/deploy/nvml-api/index.html

Known problems:
    NVML behind `#if __has_include(<nvml.h>)` (or behind a macro such a branch defines, `#if USE_NVML`) is
    reported at info: ROCm has no nvml.h, so the build does not break; the monitoring is compiled out on AMD
    GPUs instead, which is worth knowing but is no migration blocker.
    NVML the project opens itself (`dlopen("libnvidia-ml.so.1")`, its entry points found with `dlsym`) is low,
    risk runtime-failure: the build needs no NVML, and on ROCm the loader finds none and the monitoring is off.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Judgement, Use, library_rule, opened_at_run_time

# `__has_include(<nvml.h>)` as the preprocessor's tokens spell it (`__has_include ( < nvml . h > )`).
_HAS_NVML = re.compile(r"\b__has_include(?:_next)?\s*\(\s*[<\"]\s*nvml\s*\.\s*h\s*[>\"]\s*\)")


# NVML's library in a string: `"libnvidia-ml.so.1"`, `"nvml.dll"`.
_NVML_LIBRARY = re.compile(r"[\"'/](?:lib)?nvidia-ml(?:\.so[.\d]*)?(?![\w-])|[\"'/\\]nvml\.dll\b")


# Tokens after which a name is being declared (`int nvmlDev;`) or that end such a declaration.
_DECLARATION_END = frozenset({";", "=", ",", "[", ")"})


def _use_message(ctx, tok) -> str:
    """ "" for a name the project gives its own field or variable (`int nvmlDev;`, `info->nvmlDev`): NVML's API
    has no struct member or variable named like a function; a member called (`table->nvmlInit(...)`, a
    dlsym'ed table) is still NVML."""
    view = ctx.view
    prev, nxt = view.neighbour(tok, -1), view.neighbour(tok, 1)
    following = nxt.text if nxt is not None else ""
    if prev is not None and prev.text in (".", "->") and following != "(":
        return ""
    if prev is not None and prev.kind in ("keyword", "identifier") and following in _DECLARATION_END:
        if prev.text not in ("return", "case", "sizeof", "throw"):
            return ""
    return f"NVML `{tok.text}` has no ROCm equivalent under that name: rewrite with AMD SMI (amdsmi_*)."


def _judge(ctx) -> Judgement:
    return _has_include_guard(ctx) or _loaded_at_run_time(ctx)


def _loaded_at_run_time(ctx) -> Judgement:
    """NVML opened by the project itself (`dlopen("libnvidia-ml.so.1")`, entry points by `dlsym`): the build needs
    no NVML and on ROCm the loader finds none, so the monitoring it feeds is off. An include of nvml.h is still
    needed to compile, and keeps the rule's severity."""
    if ctx.event == "include":
        return None
    opened = opened_at_run_time(ctx, _NVML_LIBRARY)
    if opened is None:
        return None
    return (
        Severity.LOW,
        Risk.RUNTIME_FAILURE,
        f"Here `{opened[0]}` is loaded with `{opened[1]}` (line {opened[2]}): the build does not need NVML, and on "
        "ROCm the loader finds none, so this monitoring is off (a run-time failure on an optional path: low).",
    )


def _has_include_guard(ctx):
    """When this use sits behind `__has_include(<nvml.h>)`, directly or through a macro that such a branch
    defines (`#if USE_NVML`): the build without nvml.h leaves it out, so it breaks nothing on ROCm."""
    where = _guarded_lines(ctx).get(ctx.line)
    if where is None:
        return None
    line, macro = where
    via = f"`{macro}`, which `__has_include(<nvml.h>)` sets" if macro else "`__has_include(<nvml.h>)`"
    return (
        Severity.INFO,
        Risk.RUNTIME_FAILURE,
        f"It sits behind {via} (line {line}): ROCm has no nvml.h, so the build does not break, but this GPU "
        "monitoring is compiled out on AMD GPUs; port it to AMD SMI to keep it.",
    )


def _guarded_lines(ctx: Context) -> dict[int, tuple[int, str]]:
    """Lines behind `__has_include(<nvml.h>)`, each with the line of that test and the macro it goes through
    ("" when the test guards the line itself); computed once per file."""
    cached = ctx.memo.get("rocport:nvml-guarded")
    if cached is not None:
        return cached
    view = ctx.view
    at_line = {d.line: d for d in view.directives}
    tests: dict[str, int] = {}  # macros defined (non-zero) behind the test -> the test's line

    def test_line(guard) -> tuple[int, str] | None:
        d = at_line.get(guard.line)
        if d is None:
            return None
        if guard.directive in ("if", "elif"):
            if _positive(d.text, _HAS_NVML):
                return d.line, ""
            for macro, line in tests.items():
                if _positive(d.text, re.compile(rf"\b{re.escape(macro)}\b(?!\s*==\s*0)")):
                    return line, macro
        elif guard.directive == "ifdef" and d.text in tests:
            return tests[d.text], d.text
        return None

    if any(_HAS_NVML.search(d.text) for d in view.directives):
        for d in view.directives:
            if d.name == "define" and d.tokens:
                value = [t.text for t in d.tokens[1:]]
                if value in ([], ["1"], ["(", "1", ")"]):
                    found = next((n for n in map(test_line, view.guards_at(d.line)) if n is not None), None)
                    if found is not None:
                        tests.setdefault(d.tokens[0].text, found[0])
    guarded: dict[int, tuple[int, str]] = {}
    if tests or any(_HAS_NVML.search(d.text) for d in view.directives):
        for line, guards in view.guards_by_line.items():
            found = next((n for n in map(test_line, guards) if n is not None), None)
            if found is not None:
                guarded[line] = found
    ctx.memo["rocport:nvml-guarded"] = guarded
    return guarded


def _positive(text: str, pattern: re.Pattern) -> bool:
    """`pattern` occurs in the condition `text` other than negated (`!__has_include(...)`)."""
    for match in pattern.finditer(text):
        before = re.sub(r"[\s(]+$", "", text[: match.start()])
        if not before.endswith("!"):
            return True
    return False


RULE = library_rule(
    name="libraries-nvml-usage",
    formerly=("nvml-usage",),
    summary="NVML use (port to AMD SMI: a different API)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    headers=[
        Header(
            r"nvml\.h", "<{header}> (NVML) is not on ROCm: port to AMD SMI (<amd_smi/amdsmi.h>), whose API differs."
        ),
    ],
    uses=[
        Use("nvml", lambda ctx, tok: _use_message(ctx, tok), r"nvml[A-Z]\w*"),
    ],
    judge=_judge,
    fold=True,
    cuda_only=True,
)
