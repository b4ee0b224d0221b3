"""Per-branch rollups of open findings (BranchRollup): what the dashboards, the portfolio and the repository list
show, kept up to date so that no page aggregates a branch's findings on a request.

- Ingestion rebuilds the scanned branch from its findings (`refresh_after_ingest`, called at the end of
  tracking.ingest, inside its transaction): a scan may touch any finding of the branch, and the rebuild is two
  GROUP BYs over one branch's open findings, served by `finding_open_breakdown` / `finding_rule_count`, small
  beside the ingestion that reads every finding of the branch anyway.
- Triage moves the figures by deltas (`record_triage`): a decision changes one dimension of a few rows, and a
  bulk triage of a whole branch must not cost a rebuild per request.
- Deleting a repository deletes its rollups (CASCADE); nothing deletes a branch's findings, so a branch deleted on
  the remote keeps rollups equal to its findings.
- A page that finds a rollup missing, or built at another scan than the newest finished one (data from before
  rollups, a change made outside these paths), rebuilds it (`fresh`): the answer is always the live one.

Concurrency: every writer locks the branch's rollup row before reading what it aggregates (ingestion) or after
locking the findings it changes (triage: SELECT … FOR UPDATE, then the rollup), so a triage and an ingestion of
the same branch serialise on the row and neither overwrites the other's figures.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import (
    Case,
    Count,
    ExpressionWrapper,
    FloatField,
    IntegerField,
    JSONField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from portal.findings.models import DISMISSED_TRIAGE, SEVERITY_RANK, BranchRollup, Finding
from portal.reporting import effort, figures, ledger
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan, ScannedFile

Pair = tuple[int, str]  # (repository id, branch)


def severity_hours(rank: int) -> float:
    names = {r: name for name, r in SEVERITY_RANK.items()}
    return effort.SEVERITY_HOURS.get(names.get(rank, ""), 1.0)


def finding_hours(rank: int, risk: str) -> float:
    """weight(severity, risk) of one open finding, as `hours_expression` computes it in SQL."""
    return severity_hours(rank) * effort.RISK_FACTOR.get(risk, 1.0)


def hours_expression():
    """weight(severity, risk) per finding as severity hours × risk factor, evaluated by PostgreSQL so that files
    arrive already summed (two five-way CASEs on float8: a 25-way CASE or numeric arithmetic costs twice as much
    per row)."""
    hours = Case(
        *[When(severity_rank=SEVERITY_RANK[name], then=Value(h)) for name, h in effort.SEVERITY_HOURS.items()],
        default=Value(1.0),
        output_field=FloatField(),
    )
    factor = Case(
        *[When(risk=risk, then=Value(f)) for risk, f in effort.RISK_FACTOR.items() if f != 1.0],
        default=Value(1.0),
        output_field=FloatField(),
    )
    return ExpressionWrapper(hours * factor, output_field=FloatField())


# --- building ------------------------------------------------------------------------------------------------


def refresh_after_ingest(scan) -> BranchRollup:
    """Rebuild the scanned branch's rollup at this scan; call inside the ingestion's transaction, after the
    findings and the scan's ScannedFile rows are written."""
    return rebuild([(scan.repository_id, scan.branch)], {(scan.repository_id, scan.branch): scan.pk})[
        (scan.repository_id, scan.branch)
    ]


def rebuild(pairs: list[Pair], scans: dict[Pair, int | None]) -> dict[Pair, BranchRollup]:
    """Rebuild the rollups of `pairs` from their findings, each at the scan given in `scans` (its parsed files);
    six queries whatever the number of pairs. Locks the rows first (created when missing)."""
    pairs = sorted(set(pairs))
    if not pairs:
        return {}
    with transaction.atomic():
        BranchRollup.objects.bulk_create(
            [BranchRollup(repository_id=r, branch=b) for r, b in pairs], ignore_conflicts=True
        )
        rows = {
            (row.repository_id, row.branch): row
            for row in BranchRollup.objects.select_for_update().filter(_within(pairs)).order_by("pk")
        }
        open_findings = Finding.objects.filter(_within(pairs), state=Finding.State.OPEN)
        for row in rows.values():
            row.groups, row.files, row.scanned, row.open_total = [], {}, {}, 0
            row.scan_id = scans.get((row.repository_id, row.branch))
        for repo, branch, rule, name, risk, severity, rank, triage, n in (
            open_findings.values_list(
                "repository_id", "branch", "rule", "name", "risk", "severity", "severity_rank", "triage"
            )
            .annotate(n=Count("*"))
            .order_by()
        ):
            row = rows[(repo, branch)]
            row.groups.append([rule, name, risk, severity, rank, triage, n])
            row.open_total += n
        live = ~Q(triage__in=DISMISSED_TRIAGE)
        for repo, branch, path, n, work, hours in (
            open_findings.values_list("repository_id", "branch", "path")
            .annotate(n=Count("*"), work=Count("path", filter=live), hours=Sum(hours_expression(), filter=live))
            .order_by()
        ):
            rows[(repo, branch)].files[path] = [n, work, hours or 0.0]
        by_scan = {row.scan_id: row for row in rows.values() if row.scan_id}
        for scan_id, path, unconverted, mode, error in _scanned_with_work(list(by_scan)):
            by_scan[scan_id].scanned[path] = [unconverted, mode, error]
        ledger.build(rows, _within(pairs), hours_expression())
        now = timezone.now()  # bulk_update skips auto_now
        for row in rows.values():
            row.groups.sort()
            row.totals = totals_of(row.groups)
            row.updated = now
        figures.store(list(rows.values()))
        BranchRollup.objects.bulk_update(
            list(rows.values()),
            ["scan", "groups", "totals", "files", "scanned", "progress", "open_total", "updated"],
        )
    return rows


def _scanned_with_work(scan_ids: list[int]):
    """(scan, path, unconverted, parse mode, error) of the scans' files with work outside the findings."""
    if not scan_ids:
        return []
    rows = (
        ScannedFile.objects.filter(scan_id__in=scan_ids)
        .filter(Q(parse_mode__in=list(effort.PARSE_PENALTY)) | Q(stats__translation__unconverted__gt=0))
        .values_list(
            # cast in SQL: decoding a JSON value per row costs more than the rest of the loop
            "scan_id",
            "path",
            Cast(KT("stats__translation__unconverted"), IntegerField()),
            "parse_mode",
            "error",
        )
    )
    return [(scan_id, path, int(unconverted or 0), mode, error) for scan_id, path, unconverted, mode, error in rows]


def _within(pairs: list[Pair]) -> Q:
    within = Q(pk__in=[])
    for repository_id, branch in pairs:
        within |= Q(repository_id=repository_id, branch=branch)
    return within


def fresh(
    wanted: dict[Pair, int | None], rollups: dict[Pair, BranchRollup | None] | None = None
) -> dict[Pair, BranchRollup]:
    """The rollups of `wanted` (pair -> the newest finished scan of that branch, or None), rebuilding those that
    are missing or were built at another scan. `rollups`: the ones the caller already read (else read here)."""
    if rollups is None:
        rollups = {(r.repository_id, r.branch): r for r in BranchRollup.objects.filter(_within(list(wanted)))}
    stale = [
        pair
        for pair, scan_id in wanted.items()
        if rollups.get(pair) is None
        or rollups[pair].scan_id != scan_id
        or "baseline" not in (rollups[pair].progress or {})  # built before the migration ledger existed
    ]
    if stale:
        rollups = {**rollups, **rebuild(stale, wanted)}
    return {pair: rollups[pair] for pair in wanted}


def rebuild_all(batch: int = 50) -> int:
    """Every tracked branch with findings or a finished scan, at its newest finished scan (the command
    `rebuild_rollups`, and anyone upgrading); returns the number of rollups written."""
    newest: dict[Pair, int | None] = {}
    for repo, branch, pk in (
        Scan.objects.filter(status=ScanStatus.FINISHED)
        .order_by("repository_id", "branch", "-created", "-id")
        .distinct("repository_id", "branch")
        .values_list("repository_id", "branch", "pk")
    ):
        newest[(repo, branch)] = pk
    for pair in Finding.objects.values_list("repository_id", "branch").distinct().order_by():
        newest.setdefault(pair, None)
    pairs = sorted(newest)
    for start in range(0, len(pairs), batch):
        chunk = pairs[start : start + batch]
        rebuild(chunk, {pair: newest[pair] for pair in chunk})
    return len(pairs)


# --- triage --------------------------------------------------------------------------------------------------

TRIAGE_FIELDS = (
    "pk",
    "triage",
    "repository_id",
    "branch",
    "path",
    "rule",
    "name",
    "risk",
    "severity",
    "severity_rank",
    "state",
)


def record_triage(rows: list[tuple], decision: str) -> None:
    """Move the rollups by the triage of `rows` (TRIAGE_FIELDS as they were before, read under FOR UPDATE) to
    `decision`; call in the triage's transaction, after its UPDATE. Fixed findings move only the migration ledger
    (a fixed false positive was never work done)."""
    deltas: dict[Pair, list[tuple]] = defaultdict(list)
    moves: dict[Pair, list[tuple]] = defaultdict(list)
    for _pk, old, repo, branch, path, rule, name, risk, severity, rank, state in rows:
        if old == decision:
            continue
        if state == Finding.State.OPEN:
            deltas[(repo, branch)].append((old, path, rule, name, risk, severity, rank))
        moves[(repo, branch)].append((path, old, state, finding_hours(rank, risk)))
    if not moves:
        return
    pairs = sorted(moves)
    locked = {
        (r.repository_id, r.branch): r
        for r in BranchRollup.objects.select_for_update().filter(_within(pairs)).order_by("pk")
    }
    missing = [pair for pair in pairs if pair not in locked]
    if missing:  # built now from the findings, which already carry the decision
        rebuild(missing, _newest_finished(missing))
    for pair in pairs:
        if pair in locked:
            _apply(locked[pair], deltas.get(pair, []), decision)
            for path, old, state, hours in moves[pair]:
                ledger.move_triage(locked[pair], path, old, decision, state, hours)
    if locked:
        now = timezone.now()
        for rollup in locked.values():
            rollup.totals = totals_of(rollup.groups)
            rollup.updated = now
        figures.store(list(locked.values()))
        BranchRollup.objects.bulk_update(list(locked.values()), ["groups", "totals", "files", "progress", "updated"])


def _apply(rollup: BranchRollup, changes: list[tuple], decision: str) -> None:
    groups = {tuple(g[:-1]): g[-1] for g in rollup.groups}
    dismissed_now = decision in DISMISSED_TRIAGE
    for old, path, rule, name, risk, severity, rank in changes:
        before = (rule, name, risk, severity, rank, old)
        groups[before] = groups.get(before, 0) - 1
        if groups[before] <= 0:
            del groups[before]
        after = (rule, name, risk, severity, rank, decision)
        groups[after] = groups.get(after, 0) + 1
        was_dismissed = old in DISMISSED_TRIAGE
        if was_dismissed != dismissed_now:
            sign = -1 if dismissed_now else 1
            figures = rollup.files.setdefault(path, [0, 0, 0.0])
            figures[1] += sign
            figures[2] = max(0.0, figures[2] + sign * finding_hours(rank, risk))
    rollup.groups = sorted([*key, n] for key, n in groups.items())


def _newest_finished(pairs: list[Pair]) -> dict[Pair, int | None]:
    newest: dict[Pair, int | None] = {pair: None for pair in pairs}
    for repo, branch, pk in (
        Scan.objects.filter(_within(pairs), status=ScanStatus.FINISHED)
        .order_by("repository_id", "branch", "-created", "-id")
        .distinct("repository_id", "branch")
        .values_list("repository_id", "branch", "pk")
    ):
        newest[(repo, branch)] = pk
    return newest


# --- reading -------------------------------------------------------------------------------------------------


def of_default_branch(field_name: str) -> Subquery:
    """A field of a repository's default-branch rollup as an annotation on a Repository query (no query of its
    own); None when the rollup does not exist yet."""
    rollup = BranchRollup.objects.filter(repository=OuterRef("pk"), branch=OuterRef("default_branch"))
    output = {"totals": JSONField(), "scan_id": IntegerField(), "open_total": IntegerField()}[field_name]
    return Subquery(rollup.values(field_name)[:1], output_field=output)


def by_rule(rollup: BranchRollup) -> list[dict]:
    """Open findings per (rule, risk), most first: n, the greatest name and severity rank seen."""
    table: dict[tuple[str, str], dict] = {}
    for rule, name, risk, _severity, rank, _triage, n in rollup.groups:
        row = table.setdefault((rule, risk), {"rule": rule, "risk": risk, "n": 0, "name": name, "severity_rank": rank})
        row["n"] += n
        row["name"] = max(row["name"], name)
        row["severity_rank"] = max(row["severity_rank"], rank)
    return sorted(table.values(), key=lambda row: (-row["n"], row["rule"], row["risk"]))


def totals_of(groups: list) -> dict:
    """The sums of a rollup's groups the portfolio and the rule page read (BranchRollup.totals)."""
    by_risk: dict[str, int] = {}
    by_rule: dict[str, int] = {}
    work: dict[tuple[str, str], int] = {}
    for rule, _name, risk, severity, _rank, triage, n in groups:
        by_risk[risk] = by_risk.get(risk, 0) + n
        by_rule[rule] = by_rule.get(rule, 0) + n
        if triage not in DISMISSED_TRIAGE:
            work[(risk, severity)] = work.get((risk, severity), 0) + n
    return {
        "open_by_risk": by_risk,
        "by_rule": by_rule,
        "work": [[risk, severity, n] for (risk, severity), n in sorted(work.items())],
    }


def open_by_risk(totals: dict | None) -> dict[str, int]:
    return {risk: int(n) for risk, n in ((totals or {}).get("open_by_risk") or {}).items()}


def open_of_rule(totals: dict | None, rule: str) -> int:
    return int(((totals or {}).get("by_rule") or {}).get(rule, 0))


def work_groups(totals: dict | None) -> list[tuple[str, str, int]]:
    """(risk, severity, count) of open findings not dismissed by triage: the work-left estimate's input."""
    return [(risk, severity, int(n)) for risk, severity, n in (totals or {}).get("work") or ()]
