"""The work-left estimate: hours per file and per repository from open findings, unconverted CUDA references and
parse health, with the formula the pages print next to the numbers.

    hours = Σ weight(severity) × factor(risk)    over open findings not dismissed by triage
          + UNCONVERTED_HOURS × unconverted CUDA references
          + PARSE_PENALTY[mode]                   per file read as tokens only or not analysed at all

The weights are deliberately coarse: the estimate ranks work and tracks its trend; it is not a quote. A file that
could not be parsed carries a penalty because its findings are a lower bound — someone has to read it by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from portal.findings.models import DISMISSED_TRIAGE

# Hours for one finding of this severity, before the risk factor.
SEVERITY_HOURS = {"critical": 8.0, "high": 4.0, "medium": 2.0, "low": 0.5, "info": 0.25}
# A silent wrong result needs a reproducer and numerical validation on the GPU, so it costs more than a build
# break the compiler points at; deprecations are mostly renames.
RISK_FACTOR = {
    "silent-wrong-result": 1.5,
    "runtime-failure": 1.25,
    "build-break": 1.0,
    "performance": 1.0,
    "deprecation": 0.5,
}
# A CUDA reference with no HIP equivalent in the table: a library call or intrinsic to re-implement or wrap.
UNCONVERTED_HOURS = 0.5
# Files the scanner could not fully analyse: reading them by hand is work the findings do not show.
PARSE_PENALTY = {"tokens": 2.0, "error": 4.0}
TOP_FILES = 15  # the dashboard's work table: the files with the most work
# Triage decisions that take a finding out of the work left (it stays open: the code still has it).
DISMISSED = DISMISSED_TRIAGE


def weight(severity: str, risk: str) -> float:
    return SEVERITY_HOURS.get(severity, 1.0) * RISK_FACTOR.get(risk, 1.0)


@dataclass
class FileWork:
    """One file's work left; `findings` counts open findings not dismissed by triage."""

    path: str
    findings: int = 0
    finding_hours: float = 0.0
    unconverted: int = 0
    parse_mode: str = ""
    error: str = ""

    @property
    def parse_hours(self) -> float:
        return PARSE_PENALTY.get(self.parse_mode, 0.0)

    @property
    def hours(self) -> float:
        return self.finding_hours + UNCONVERTED_HOURS * self.unconverted + self.parse_hours


def total(files: dict[str, FileWork]) -> dict:
    """The repository's estimate and its three terms, for the formula shown on the page."""
    findings = sum(w.finding_hours for w in files.values())
    unconverted = sum(w.unconverted for w in files.values())
    penalties = sum(w.parse_hours for w in files.values())
    return {
        "hours": findings + UNCONVERTED_HOURS * unconverted + penalties,
        "finding_hours": findings,
        "unconverted": unconverted,
        "unconverted_hours": UNCONVERTED_HOURS * unconverted,
        "parse_hours": penalties,
    }


def work_of(files: dict, scanned: dict) -> dict[str, FileWork]:
    """The work left per file from a rollup's `files` and `scanned`: files with open findings not dismissed, or
    with unconverted references or a parse problem in the newest scan."""
    work: dict[str, FileWork] = {}
    for path, (_n, findings, hours) in files.items():
        if findings:
            work[path] = FileWork(path, findings=findings, finding_hours=hours or 0.0)
    for path, (unconverted, mode, error) in scanned.items():
        item = work.setdefault(path, FileWork(path))
        item.parse_mode, item.error, item.unconverted = mode, error, int(unconverted or 0)
    return work


def top_work(work: dict[str, FileWork]) -> list[FileWork]:
    """The files with the most work, most first: the dashboard's work table (TOP_FILES of them)."""
    return sorted(work.values(), key=lambda w: (-w.hours, w.path))[:TOP_FILES]


def repository_hours(finding_groups, unconverted: int, parse_modes: dict[str, int]) -> float:
    """The same estimate from aggregates (the portfolio): (risk, severity, count) groups, the scan's
    unconverted references and its files per parse mode."""
    return (
        sum(count * weight(severity, risk) for risk, severity, count in finding_groups)
        + UNCONVERTED_HOURS * unconverted
        + sum(PARSE_PENALTY.get(mode, 0.0) * n for mode, n in parse_modes.items())
    )


def formula() -> dict:
    """The weights as the page prints them."""
    return {
        "severity": [(name, SEVERITY_HOURS[name]) for name in ("critical", "high", "medium", "low", "info")],
        "risk": list(RISK_FACTOR.items()),
        "unconverted": UNCONVERTED_HOURS,
        "penalty": [(mode, hours, MODE_LABELS[mode]) for mode, hours in PARSE_PENALTY.items()],
        "dismissed": DISMISSED,
    }


MODE_LABELS = {
    "ast": _("fully parsed"),
    "ast-stubbed": _("parsed, missing headers stubbed"),
    "text": _("read as text (build, container, script, Python)"),
    "tokens": _("tokens only (not parsed)"),
    "error": _("not analysed (failed)"),
}
