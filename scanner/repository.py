"""Repository-level findings: what no single file shows, only the checkout as a whole (a repository that ships
host setup for MI300X-class machines but never disables NUMA auto-balancing).

The per-file pipeline streams one FileResult per file and keeps nothing; this pass runs after it, re-reading
only the few files its rules read (`Rule.reads`: shell, YAML, sysctl, ...; small text files, already in the page
cache), so it works the same whether the per-file results were fresh or came from a cache. It yields at most
one extra FileResult, whose path is "." (the repository) and language "repository"; each finding inside points
at the file and line that best locates it, and its fingerprint is the rule's alone (the identity of "this
repository lacks X" does not change when another setup file is added).

    results = list(WorkerPool(options, options.jobs).run(jobs))
    extra = repository.finalize(root, options, jobs)     # FileResult | None
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scanner import fingerprint, suppressions
from scanner.model import FileResult, FileStats, Finding, ParseHealth, ParseMode
from scanner.rules import select

PATH = "."
LANGUAGE = "repository"


@dataclass
class RepoFile:
    rel: str
    language: str
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _Report:
    rule: object
    rel: str
    line: int
    col: int
    length: int
    message: str


@dataclass
class RepositoryContext:
    """What a "repository" rule reads (the files of the languages it `reads`) and how it reports."""

    files: list[RepoFile]
    rule: object
    target: object
    reports: list[_Report] = field(default_factory=list)

    def report_at(self, rel: str, line: int, col: int, message: str, length: int = 0) -> None:
        self.reports.append(_Report(self.rule, rel, line, col, length, message))


def finalize(root: str | Path, options, jobs) -> FileResult | None:
    """The repository-level result of a scan of `root` (the `jobs` of `scanner.plan`), or None when it has no
    finding. Call it once, after the per-file results; it reads only the files the enabled repository rules
    need, and never raises for a file it cannot read."""
    rules = [r for r in select(list(options.enable), list(options.disable)) if "repository" in r.on]
    if not rules:
        return None
    wanted = frozenset().union(*(r.reads for r in rules))
    files = []
    for job in jobs:
        if job.language in wanted and not job.problem:
            loaded = _read(Path(job.path), job.rel, job.language, options.max_file_bytes)
            if loaded is not None:
                files.append(loaded)
    return analyze(files, rules, options.target)


def analyze(files: list[RepoFile], rules: list, target) -> FileResult | None:
    """Run the repository rules over `files`; the repository-level FileResult, or None without findings."""
    findings: list[Finding] = []
    by_rel = {f.rel: f for f in files}
    for rule in rules:
        ctx = RepositoryContext([f for f in files if f.language in rule.reads], rule, target)
        rule.check(ctx)
        for report in ctx.reports:
            findings.append(_finding(report, by_rel.get(report.rel), target))
    if not findings:
        return None
    findings.sort(key=lambda f: (f.rule, f.path, f.line))
    return FileResult(PATH, LANGUAGE, ParseHealth(ParseMode.TEXT), FileStats(), findings)


def _finding(report: _Report, file: RepoFile | None, target) -> Finding:
    rule = report.rule
    lines = file.lines if file is not None else []
    severity, note = rule.severity_for(target)
    snippet = lines[report.line - 1].strip() if 0 < report.line <= len(lines) else ""
    end_col = report.col + report.length if report.length else len(snippet) + report.col
    finding = Finding(
        rule.code,
        rule.name,
        rule.risk,
        severity,
        report.rel,
        report.line,
        report.col,
        report.line,
        end_col,
        f"{report.message} {note}".strip(),
        snippet,
    )
    # One identity per rule and repository, wherever it is located.
    finding.fingerprint = fingerprint.content_hash(rule.code, LANGUAGE, rule.name)
    marks = suppressions.collect(suppressions.hash_comments(lines), lines)
    mark = suppressions.match(marks, report.line, rule.code, rule.name)
    if mark is not None:
        finding.suppressed = True
        finding.suppression_reason = mark.reason or "(no reason given)"
    return finding


def _read(path: Path, rel: str, language: str, max_bytes: int) -> RepoFile | None:
    try:
        if path.is_symlink():
            return None
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes or b"\0" in data[:8192]:
            return None
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return RepoFile(rel, language, text.removeprefix("\ufeff").split("\n"))
