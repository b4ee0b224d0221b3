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
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import contextmanager

from scanner.model import Risk, Severity

_VARIANTS: dict[tuple[int, Severity, Risk | None], tuple[object, object]] = {}


def variant(rule, severity: Severity, risk: Risk | None = None):
    """`rule` as one of its findings is judged: the same rule at `severity` (and `risk`). Made once per rule."""
    key = (id(rule), severity, risk)
    cached = _VARIANTS.get(key)
    if cached is not None and cached[0] is rule:
        return cached[1]
    target = rule.target_severity
    made = dataclasses.replace(rule, severity=severity, risk=risk or rule.risk,
                               target_severity=_capped(target, severity) if target is not None else None)
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


def same_rule(report, ctx) -> bool:
    """Whether `report` is this rule's (whichever severity it was judged at)."""
    return report.rule is ctx.rule or (report.rule.code == ctx.rule.code and report.rule.name == ctx.rule.name)


# -- other vendors' backends ------------------------------------------------------------------------------
# A directory named after another accelerator stack, alone or as a backend's name (`ggml-sycl`, `torch_xpu`,
# `vulkan-shaders`), not a word inside a longer name (`simpleVulkan`, a CUDA-Vulkan interop sample, or
# `cannyEdgeDetectorNPP`).
_OTHER_VENDOR = re.compile(r"^(?:[a-z0-9]+[-_])?(sycl|xpu|hpu|metal|vulkan|musa|cann|opencl)(?:[-_][a-z0-9]+)*$",
                           re.I)


def other_vendor_backend(path: str) -> str:
    """The directory of `path` that holds another vendor's backend (`src/ggml-sycl`), or ""."""
    parts = path.replace("\\", "/").split("/")[:-1]
    for i, part in enumerate(parts):
        if _OTHER_VENDOR.match(part):
            return "/".join(parts[: i + 1])
    return ""


def cuda_code_only(check):
    """A rule's check that stays out of other vendors' backends (`other_vendor_backend`)."""
    def guarded(ctx) -> None:
        if not _in_other_backend(ctx):
            check(ctx)
    guarded.__wrapped__ = check
    return guarded


def _in_other_backend(ctx) -> bool:
    facts = getattr(ctx, "facts", None)
    if facts is None:  # a repository-level context: its rules pick their own files
        return False
    cache = facts.cache
    found = cache.get("other_vendor_backend")
    if found is None:
        found = cache["other_vendor_backend"] = other_vendor_backend(facts.path)
    return bool(found)
