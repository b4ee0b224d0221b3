"""What the dashboards read: the portfolio's per-repository figures and one repository's progress, trend,
breakdowns, branches, parse health and work left. Every function issues a fixed number of queries whatever the
number of repositories, scans or findings:

- no page counts findings: open findings by rule, risk, severity, triage and file come from each branch's
  rollup (portal.reporting.rollups: rebuilt at ingestion, moved by triage), the same live figures at the cost of
  one row per repository;
- progress (CUDA references converted) and parse health are facts of a scan: the newest finished scan's summary;
- newest scans come from correlated subqueries or a window over `scan_branch_recent` (repository, branch, -created).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from django.db.models import BooleanField, Count, ExpressionWrapper, F, IntegerField, OuterRef, Q, Subquery, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, RowNumber
from django.utils.translation import gettext_lazy as _

from portal.findings import ownership
from portal.findings.models import BranchRollup
from portal.reporting import effort, rollups
from portal.reporting.figures import PAGE, MigrationProgress
from portal.repositories.models import Repository
from portal.scans.constants import FINAL_STATUSES, ScanStatus
from portal.scans.models import Scan, ScannedFile

RISKS = [
    ("silent-wrong-result", _("silent wrong result")),
    ("runtime-failure", _("runtime failure")),
    ("build-break", _("build break")),
    ("performance", _("performance")),
    ("deprecation", _("deprecation")),
]
PARSE_MODES = [(mode, effort.MODE_LABELS[mode]) for mode in ("ast", "ast-stubbed", "text", "tokens", "error")]
TREND_SCANS = 50  # the burndown's columns: enough history to see a slope, few enough to label
PARSE_PROBLEMS_SHOWN = 100
COMPILE_FAILURES_SHOWN = 10
SORTS = ("name", "progress", "open", "work", "scanned")
_SCAN_FIELDS = ("pk", "status", "branch", "commit_sha", "created", "finished", "error_code")


@dataclass
class Progress:
    converted: int = 0
    unconverted: int = 0

    @property
    def total(self) -> int:
        return self.converted + self.unconverted

    @property
    def percent(self) -> float | None:
        """Automatic translation coverage: the share of CUDA references with a HIP equivalent, which a translator
        renames mechanically (not migration progress: portal.reporting.figures); None without CUDA references."""
        return 100 * self.converted / self.total if self.total else None

    @property
    def floor(self) -> int | None:
        """The percentage as shown: floored, so that "100" means nothing is left."""
        percent = self.percent
        return None if percent is None else (100 if not self.unconverted else min(99, math.floor(percent)))

    @classmethod
    def of(cls, translation) -> Progress:
        translation = translation if isinstance(translation, dict) else {}
        return cls(int(translation.get("converted") or 0), int(translation.get("unconverted") or 0))


def _labelled(row: dict) -> dict:
    """A scan's values() row with its status label and whether it is still running."""
    try:
        row["status_label"] = ScanStatus(row["status"]).label
    except ValueError:
        row["status_label"] = row["status"]
    row["is_final"] = row["status"] in FINAL_STATUSES
    return row


# --- the portfolio -----------------------------------------------------------------------------------------


@dataclass
class PortfolioRow:
    repository: Repository
    newest: dict | None  # the newest scan of the default branch, whatever its state
    finished: dict | None  # the newest finished scan of the default branch: the figures come from it
    progress: Progress
    open_by_risk: dict[str, int]
    parse_modes: dict[str, int]
    hours: float | None
    hours_exact: bool  # False: the summary predates severities, so every finding counts as "medium"
    migration: MigrationProgress = field(default_factory=MigrationProgress)  # portal.reporting.figures

    @property
    def open_total(self) -> int:
        return sum(self.open_by_risk.values())

    @property
    def risk_cells(self) -> list[tuple[str, str, int]]:
        return [(key, label, self.open_by_risk.get(key, 0)) for key, label in RISKS]

    @property
    def unparsed(self) -> int:
        return self.parse_modes.get("tokens", 0) + self.parse_modes.get("error", 0)


def _newest(finished_only: bool) -> Subquery:
    query = Scan.objects.filter(repository=OuterRef("pk"), branch=OuterRef("default_branch"))
    if finished_only:
        query = query.filter(status=ScanStatus.FINISHED)
    return Subquery(query.order_by("-created", "-id").values("pk")[:1])


def default_branch_totals(repositories, finished: dict[int, int | None]) -> dict[int, dict]:
    """The rollup totals of each repository's default branch (annotated `rollup_totals`, `rollup_scan_id`),
    rebuilding, in one batch, those missing or built at another scan than `finished[repository]`."""
    totals = {r.pk: r.rollup_totals for r in repositories}
    stale = {
        (r.pk, r.default_branch): finished.get(r.pk)
        for r in repositories
        if finished.get(r.pk)
        and (r.rollup_scan_id != finished[r.pk] or not r.rollup_totals or "progress" not in r.rollup_totals)
    }
    for (pk, _branch), rollup in rollups.fresh(stale, {}).items():
        totals[pk] = rollup.totals
    return totals


def team_default_branch_totals(team_id: int) -> dict[int, dict]:
    """The rollup totals of the default branch of each of the team's repositories scanned at least once; one
    query (plus a rebuild of the rollups missing or stale)."""
    repositories = list(
        Repository.objects.filter(team_id=team_id)
        .only("pk", "default_branch")
        .annotate(
            finished_id=_newest(True),
            rollup_totals=rollups.of_default_branch("totals"),
            rollup_scan_id=rollups.of_default_branch("scan_id"),
        )
    )
    totals = default_branch_totals(repositories, {r.pk: r.finished_id for r in repositories})
    return {r.pk: totals[r.pk] for r in repositories if r.finished_id}


def portfolio(team_id: int, search: str = "") -> list[PortfolioRow]:
    """The team's repositories (matching `search`) with their figures; two queries whatever their number: the
    open findings from each default branch's rollup, progress and parse health from its newest finished scan."""
    query = Repository.objects.filter(team_id=team_id)
    if search:
        query = query.filter(name__icontains=search)
    repositories = list(
        query.only("pk", "name", "team_id", "default_branch", "tracked_branches").annotate(
            newest_id=_newest(False),
            finished_id=_newest(True),
            rollup_totals=rollups.of_default_branch("totals"),
            rollup_scan_id=rollups.of_default_branch("scan_id"),
        )
    )
    wanted = {pk for r in repositories for pk in (r.newest_id, r.finished_id) if pk}
    scans = {
        row["pk"]: _labelled(row)
        for row in Scan.objects.filter(pk__in=wanted).values(
            *_SCAN_FIELDS, translation=F("summary__translation"), parse_modes=F("summary__parse_modes")
        )
    }
    totals = default_branch_totals(repositories, {r.pk: r.finished_id for r in repositories})
    rows = []
    for repository in repositories:
        finished = scans.get(repository.finished_id)
        summary = finished or {}
        open_by_risk = rollups.open_by_risk(totals[repository.pk]) if finished else {}
        parse_modes = {k: int(v) for k, v in (summary.get("parse_modes") or {}).items()}
        progress = Progress.of(summary.get("translation"))
        hours = None
        if finished:
            hours = effort.repository_hours(
                rollups.work_groups(totals[repository.pk]), progress.unconverted, parse_modes
            )
        migration = MigrationProgress.of_totals(totals[repository.pk]) if finished else MigrationProgress()
        rows.append(
            PortfolioRow(
                repository,
                scans.get(repository.newest_id),
                finished,
                progress,
                open_by_risk,
                parse_modes,
                hours,
                True,
                migration,
            )
        )
    return rows


def sort_rows(rows: list[PortfolioRow], sort: str) -> list[PortfolioRow]:
    """Name A→Z; least progress first; most open findings first; most work first; least recently scanned first.
    Repositories without figures go last in every order but the name."""
    by_name = sorted(rows, key=lambda r: r.repository.name.lower())
    if sort == "progress":
        return sorted(by_name, key=lambda r: (r.migration.percent is None, r.migration.percent or 0))
    if sort == "open":
        return sorted(by_name, key=lambda r: (r.finished is None, -r.open_total))
    if sort == "work":
        return sorted(by_name, key=lambda r: (r.hours is None, -(r.hours or 0)))
    if sort == "scanned":
        return sorted(by_name, key=lambda r: (r.newest is None, r.newest["created"] if r.newest else 0))
    return by_name


def team_totals(rows: list[PortfolioRow]) -> dict:
    progress = Progress(sum(r.progress.converted for r in rows), sum(r.progress.unconverted for r in rows))
    modes: dict[str, int] = {}
    for row in rows:
        for mode, n in row.parse_modes.items():
            modes[mode] = modes.get(mode, 0) + n
    migration = MigrationProgress()
    for row in rows:
        migration = migration + row.migration
    return {
        "migration": migration,
        "repositories": len(rows),
        "scanned": sum(1 for r in rows if r.finished),
        "failing": sum(1 for r in rows if r.newest and r.newest["status"] == ScanStatus.FAILED),
        "progress": progress,
        "open_by_risk": [(key, label, sum(r.open_by_risk.get(key, 0) for r in rows)) for key, label in RISKS],
        "open_total": sum(r.open_total for r in rows),
        "hours": sum(r.hours or 0 for r in rows),
        "hours_exact": all(r.hours_exact for r in rows),
        "parse_modes": [(mode, label, modes.get(mode, 0)) for mode, label in PARSE_MODES],
        "unparsed": modes.get("tokens", 0) + modes.get("error", 0),
    }


# --- one repository ------------------------------------------------------------------------------------------


def trend(repository: Repository) -> list[dict]:
    """The newest finished scans of the default branch, oldest first, with the summary figures only (the
    summary also holds path lists that can be long)."""
    rows = list(
        Scan.objects.filter(repository=repository, branch=repository.default_branch, status=ScanStatus.FINISHED)
        .order_by("-created", "-id")
        .values(
            *_SCAN_FIELDS,
            translation=F("summary__translation"),
            open_by_risk=F("summary__open_by_risk"),
            tracking=F("summary__tracking"),
            parse_modes=F("summary__parse_modes"),
            compile=F("summary__compile"),
        )[:TREND_SCANS]
    )
    rows.reverse()
    for row in rows:
        _labelled(row)
        row["progress"] = Progress.of(row["translation"])
        row["open_by_risk"] = row["open_by_risk"] if isinstance(row["open_by_risk"], dict) else {}
        row["tracking"] = row["tracking"] if isinstance(row["tracking"], dict) else {}
    return rows


def fill_parse_modes(scan_id: int, files: list[effort.FileWork]) -> None:
    """The parse mode of the shown files the rollup left without one (it keeps modes only for files with
    unconverted references or a parse penalty, so a stubbed file with findings came out blank): one query for
    the shown files whatever they lack, so the page's query count does not depend on the data."""
    if not files:
        return
    by_path = {work.path: work for work in files}
    for path, mode in ScannedFile.objects.filter(scan_id=scan_id, path__in=list(by_path)).values_list(
        "path", "parse_mode"
    ):
        by_path[path].parse_mode = by_path[path].parse_mode or mode


def branches(repository: Repository) -> list[dict]:
    """Each tracked branch (default first) with its newest scan, in one query: a row number per branch over
    `scan_branch_recent`, keeping the first."""
    names = repository.branches
    newest = {
        row["branch"]: row
        for row in Scan.objects.filter(repository=repository, branch__in=names)
        .annotate(rank=Window(RowNumber(), partition_by=[F("branch")], order_by=[F("created").desc(), F("id").desc()]))
        .filter(rank=1)
        .values(*_SCAN_FIELDS, "files_done", "files_total")
    }
    for row in newest.values():
        _labelled(row)
    out = []
    for name in names:
        scan = newest.get(name)
        out.append(
            {
                "name": name,
                "is_default": name == repository.default_branch,
                "scan": scan,
                "active": bool(scan and scan["status"] not in FINAL_STATUSES),
                "gone": name in (repository.gone_branches or []),
            }
        )
    return out


@dataclass
class Breakdown:
    by_rule: list[dict]
    by_risk: list[tuple[str, str, int]]
    open_total: int
    files: dict[str, effort.FileWork]
    open_by_path: dict[str, int] = field(default_factory=dict)
    rollup: object = None  # the branch's BranchRollup, for migration progress (overview)


def _rollup_for_page(repository: Repository, scan_id: int | None):
    """The default branch's rollup without its migration ledger (hundreds of KB of JSON on a large repository):
    with the ledger's page-ready figures as `page` (portal.reporting.figures.PAGE), read by PostgreSQL. A missing
    or stale rollup, or one stored before the page figures existed, is rebuilt (rollups.fresh), ledger and all."""
    pair = (repository.pk, repository.default_branch)
    rollup = (
        BranchRollup.objects.filter(repository_id=pair[0], branch=pair[1])
        .defer("progress")
        .annotate(
            has_ledger=ExpressionWrapper(Q(progress__has_key="baseline"), output_field=BooleanField()),
            ledger_baseline=KT("progress__baseline"),
            page=F(f"progress__{PAGE}"),
        )
        .first()
    )
    if (
        rollup is None
        or rollup.scan_id != scan_id
        or not rollup.has_ledger
        or (rollup.ledger_baseline is not None and not isinstance(rollup.page, dict))
    ):
        rollup = rollups.fresh({pair: scan_id}, {})[pair]
        rollup.page = (rollup.progress or {}).get(PAGE)
    return rollup


def breakdown(repository: Repository, scan_id: int | None) -> Breakdown:
    """Open findings on the default branch by rule and by file, and the newest scan's files with unconverted
    references or a parse problem, from the branch's rollup (one query; a missing or stale one is rebuilt). The
    rollup comes without its migration ledger, which loads on first use (portal.reporting.overview)."""
    rollup = _rollup_for_page(repository, scan_id)
    by_rule = rollups.by_rule(rollup)
    files = effort.work_of(rollup.files, rollup.scanned)
    open_by_path = {path: n for path, (n, _work, _hours) in rollup.files.items()}
    by_risk_counts: dict[str, int] = {}
    labels = dict(RISKS)
    for row in by_rule:
        row["risk_label"] = labels.get(row["risk"], row["risk"])
        by_risk_counts[row["risk"]] = by_risk_counts.get(row["risk"], 0) + row["n"]
    return Breakdown(
        by_rule=by_rule,
        by_risk=[(k, label, by_risk_counts.get(k, 0)) for k, label in RISKS],
        open_total=sum(by_risk_counts.values()),
        files=files,
        open_by_path=open_by_path,
        rollup=rollup,
    )


def parse_health(scan_id: int | None) -> dict:
    """Files per parse mode in the scan, and the files read as tokens only or not analysed, with their error."""
    if not scan_id:
        return {"modes": [], "total": 0, "problems": [], "problem_count": 0}
    files = ScannedFile.objects.filter(scan_id=scan_id)
    counts = dict(files.values_list("parse_mode").annotate(n=Count("id")).order_by())
    problems = list(
        files.filter(parse_mode__in=list(effort.PARSE_PENALTY))
        .order_by("parse_mode", "path")
        .values("path", "parse_mode", "error", "language")[:PARSE_PROBLEMS_SHOWN]
    )
    known = [mode for mode, _label in PARSE_MODES]
    modes = [(mode, label, counts.get(mode, 0)) for mode, label in PARSE_MODES]
    modes += [(mode, mode, n) for mode, n in sorted(counts.items()) if mode not in known]
    return {
        "modes": modes,
        "total": sum(counts.values()),
        "problems": problems,
        "problem_count": sum(counts.get(mode, 0) for mode in effort.PARSE_PENALTY),
    }


def compile_failures(scan_id: int | None, limit: int = COMPILE_FAILURES_SHOWN) -> list[dict]:
    """The scan's files whose HIP translation does not build (compile check), most errors first; one query on
    the scan's rows (`one_result_per_path` prefix), filtered on the status its pipeline stored."""
    if not scan_id:
        return []
    return list(
        ScannedFile.objects.filter(scan_id=scan_id, stats__compile__status="fails")
        .annotate(errors=Cast(KT("stats__compile__errors"), IntegerField()))
        .order_by("-errors", "path")
        .values("path", "errors")[:limit]
    )


def _owner_matcher(rules):
    """One compiled alternation over the CODEOWNERS patterns, last rule first: re tries alternatives in order
    and every pattern is anchored, so the first alternative that matches is the last matching rule — the one
    that wins — at the cost of one match per path instead of one per (path, rule)."""
    if not rules:
        return lambda path: ()
    try:
        combined = re.compile(
            "|".join(
                f"(?P<r{index}>{ownership.pattern_regex(pattern)})"
                for index, (pattern, _who) in reversed(list(enumerate(rules)))
            )
        )
    except re.error:
        return lambda path: ownership.owners_of(path, rules)

    def owners(path: str) -> tuple[str, ...]:
        match = combined.match(path)
        return rules[int(match.lastgroup[1:])][1] if match else ()

    return owners


def owners(repository: Repository, open_by_path: dict[str, int], files: dict[str, effort.FileWork]) -> dict:
    """Open findings and work left per CODEOWNERS owner; a path with several owners counts for each."""
    rules = ownership.parse(repository.codeowners or "")
    owners_of = _owner_matcher(rules)
    table: dict[str, dict] = {}
    unowned = {"open": 0, "hours": 0.0, "files": 0}
    for path in set(open_by_path) | set(files):
        who = owners_of(path)
        hours = files[path].hours if path in files else 0.0
        for owner in who or (None,):
            entry = table.setdefault(owner, {"owner": owner, "open": 0, "hours": 0.0, "files": 0}) if owner else unowned
            entry["open"] += open_by_path.get(path, 0)
            entry["hours"] += hours
            entry["files"] += 1
    ordered = sorted(table.values(), key=lambda e: (-e["open"], -e["hours"], e["owner"]))
    return {"has_codeowners": bool(rules), "owners": ordered, "unowned": unowned}
