"""The severity policy: what a finding's severity means, by the kind of consequence on ROCm (data).

Every rule declares a `Risk` (the consequence) and a default `Severity`; the default must lie inside its
consequence's band (tests/scanner/test_severity_policy.py checks every rule, and lists the few rules a
default-level modifier moves out of their band). The scanner then adjusts single findings with the modifiers
below. docs/rules.md opens with this table (scanner.rules.docs).

The five consequences map onto the existing `Risk` values, so the portal's stored risks and filters need no
migration: tuning is `performance`, advice is `deprecation`.
"""

from __future__ import annotations

from dataclasses import dataclass

from scanner.model import Risk, Severity


@dataclass(frozen=True)
class Consequence:
    name: str
    risk: Risk
    meaning: str
    lowest: Severity
    default: Severity
    highest: Severity
    within: str  # what moves a rule inside the band

    def admits(self, severity: Severity) -> bool:
        return self.lowest.rank <= severity.rank <= self.highest.rank


@dataclass(frozen=True)
class Modifier:
    when: str
    effect: str
    severity: Severity  # the severity it gives (or the cap it sets)


CONSEQUENCES = (
    Consequence(
        "build break",
        Risk.BUILD_BREAK,
        "the port does not compile or link on ROCm",
        Severity.MEDIUM,
        Severity.HIGH,
        Severity.CRITICAL,
        "critical: no ROCm counterpart, a rewrite (TensorRT, CUTLASS); medium: a counterpart exists and the fix "
        "is a flag, a path or a subset API",
    ),
    Consequence(
        "silent wrong result",
        Risk.SILENT_WRONG_RESULT,
        "compiles and runs, and computes wrong values",
        Severity.MEDIUM,
        Severity.HIGH,
        Severity.HIGH,
        "medium: wrong only for some shapes or values (a block of one 32-lane warp, a numeric error code)",
    ),
    Consequence(
        "run-time failure",
        Risk.RUNTIME_FAILURE,
        "compiles, then fails loudly at run time (a library missing at dlopen, an API returning not-supported, "
        "an optional feature path)",
        Severity.LOW,
        Severity.MEDIUM,
        Severity.HIGH,
        "high: the program cannot start or see the GPU (an import that raises, a container without the GPU); "
        "low: an API HIP supports in part",
    ),
    Consequence(
        "tuning",
        Risk.PERFORMANCE,
        "correct, but slower",
        Severity.INFO,
        Severity.LOW,
        Severity.MEDIUM,
        "medium: a large, likely slowdown (occupancy halved, pages migrated on every fault)",
    ),
    Consequence(
        "advice",
        Risk.DEPRECATION,
        "nothing breaks today: a name being retired, or a choice to make",
        Severity.INFO,
        Severity.LOW,
        Severity.MEDIUM,
        "medium: a named ROCm release removes it (where the targets' ROCm has removed it, the finding is rated as "
        "the build break it has become)",
    ),
)

# A rule's default moved out of its band, for the whole rule (the test names each rule it applies to).
MECHANICAL_RENAME = Modifier(
    "a build break a porting tool fixes by renaming (hipify, PyTorch's hipify of a CUDAExtension, ROCport's own "
    "translation of WMMA to rocWMMA)",
    "low",
    Severity.LOW,
)

# What the scanner does to one finding, whatever the rule's default.
MODIFIERS = (
    MECHANICAL_RENAME,
    Modifier(
        "code no build of the repository compiles (no CMake target, make rule, extension or compile command)",
        "low at most",
        Severity.LOW,
    ),
    Modifier(
        "another platform's code: a branch HIP-Clang does not compile, a build branch for Windows or aarch64, "
        "another vendor's backend, a vendored CUB or Thrust copy (ROCm builds hipCUB or rocThrust instead), the "
        "NVIDIA side of a repository whose HIP build covers it",
        "info",
        Severity.INFO,
    ),
    Modifier(
        "a consistent or guarded case: lane code kept to 32-lane groups, NVML behind `__has_include(<nvml.h>)`, "
        "a setting ROCm ignores",
        "info, a note that says why",
        Severity.INFO,
    ),
    Modifier(
        "a run-time failure reached only on an optional path or with a graceful fallback: a tool probed inside "
        "`try`/`except` or with its exit status ignored, a library loaded with `dlopen` whose absence the program handles",
        "low at most",
        Severity.LOW,
    ),
    Modifier(
        "a hazard the profile's GPU targets do not have (a 32-lane assumption where no target has 64-lane wavefronts)",
        "low",
        Severity.LOW,
    ),
)


def consequence_of(risk: Risk) -> Consequence:
    return next(c for c in CONSEQUENCES if c.risk is risk)


def band_text(consequence: Consequence) -> str:
    if consequence.lowest == consequence.highest:
        return consequence.lowest.value
    return f"{consequence.lowest.value} – {consequence.highest.value}"


def markdown() -> list[str]:
    """The policy as the head of docs/rules.md: one table of consequences, one of modifiers."""
    out = [
        "## Severity policy",
        "",
        "A rule's risk names the consequence on ROCm; its default severity lies in that consequence's band (a",
        "test checks every rule). The scanner then adjusts single findings with the modifiers below, and the",
        "finding's message says why.",
        "",
        "| consequence | risk | what happens on ROCm | band | default | within the band |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in CONSEQUENCES:
        out.append(f"| {c.name} | {c.risk.value} | {c.meaning} | {band_text(c)} | {c.default.value} | {c.within} |")
    out += ["", "| when | severity |", "| --- | --- |"]
    out += [f"| {m.when} | {m.effect} |" for m in MODIFIERS]
    return out
