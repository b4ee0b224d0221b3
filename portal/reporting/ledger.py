"""The migration ledger of a branch (BranchRollup.progress): what migration progress (figures) needs to say how
much of the migration is done, kept beside the open-findings rollup and rebuilt with it.

- per file, over every finding the branch ever had (open or fixed): the hours done (fixed, or accepted as a risk),
  the hours taken out of scope (false positive, won't fix), the hours known at the baseline (first seen at or
  before the branch's first finished scan, at the severity and risk it had there: a later re-rating moves the
  work left, never the baseline), and whether anyone touched it (a fix or a triage decision);
- the files with CUDA references in the scan the rollup belongs to (with their blob, which a translation review
  must match) and in the baseline scan, and the baseline scan's unconverted references and parse modes.

Hours are the work-left estimate's weights (portal.reporting.effort), computed by PostgreSQL per finding.
Triage moves the per-file hours by deltas (`move_triage`), as it moves the rollup's open figures.
"""

from __future__ import annotations

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from portal.findings.models import SEVERITY_RANK, Finding, FindingEvent
from portal.reporting import effort
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan, ScannedFile
from portal.scans.uploads.stand_ins import known_blobs

# How each triage decision counts in the migration's work: an accepted risk is a decision made (done); a false
# positive was never work and a won't-fix was taken out of the migration (both leave its scope).
DONE_TRIAGE = ("accepted_risk",)
DESCOPED_TRIAGE = ("false_positive", "wont_fix")
DONE, DESCOPED, BASELINE, TOUCHED = range(4)


def baselines(pairs: list[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """The first finished scan of each (repository, branch): the baseline progress is measured from."""
    within = Q(pk__in=[])
    for repository_id, branch in pairs:
        within |= Q(repository_id=repository_id, branch=branch)
    return {
        (repo, branch): pk
        for repo, branch, pk in Scan.objects.filter(within, status=ScanStatus.FINISHED)
        .order_by("repository_id", "branch", "created", "id")
        .distinct("repository_id", "branch")
        .values_list("repository_id", "branch", "pk")
    }


def build(rows: dict, within: Q, hours) -> None:
    """Fill `progress` of each rollup row in `rows` ((repository, branch) -> BranchRollup, `scan_id` set);
    `within`: the Q of those pairs; `hours`: the per-finding hours expression. Five queries whatever the pairs
    (four when each is at its baseline scan), and up to three more per uploaded scan (its files' blobs, which an
    upload does not carry: stand_ins)."""
    base = baselines(list(rows))
    for pair, row in rows.items():
        if pair not in base and row.scan_id:
            base[pair] = row.scan_id  # the first scan, being ingested: not marked finished yet
    for pair, row in rows.items():
        row.progress = {
            "baseline": base.get(pair),
            "files": {},
            "cuda": {},
            "baseline_cuda": [],
            "baseline_scanned": {},
        }
    baseline_of = Case(
        *[When(repository_id=r, branch=b, then=Value(pk)) for (r, b), pk in base.items()],
        default=Value(0),
        output_field=IntegerField(),
    )
    fixed = Q(state=Finding.State.FIXED) & ~Q(triage__in=DESCOPED_TRIAGE)
    accepted = Q(state=Finding.State.OPEN, triage__in=DONE_TRIAGE)
    for repo, branch, path, done, descoped, known, touched in (
        Finding.objects.filter(within)
        .annotate(baseline_scan=baseline_of)
        .values_list("repository_id", "branch", "path")
        .annotate(
            done=Sum(hours, filter=fixed | accepted),
            descoped=Sum(hours, filter=Q(triage__in=DESCOPED_TRIAGE)),
            known=Sum(hours, filter=Q(first_seen_id__lte=F("baseline_scan"))),
            touched=Count("id", filter=Q(state=Finding.State.FIXED) | ~Q(triage=Finding.Triage.UNTRIAGED)),
        )
        .order_by()
    ):
        rows[(repo, branch)].progress["files"][path] = [
            round(done or 0.0, 4),
            round(descoped or 0.0, 4),
            round(known or 0.0, 4),
            touched,
        ]
    _rated_at_baseline(rows, base)
    _scanned_files(rows, base)


_SEVERITY_OF_RANK = {rank: name for name, rank in SEVERITY_RANK.items()}


def _weight(severity: str, risk: str) -> float:
    """The hours of one finding as `hours` (portal.reporting.rollups.hours_expression) computes them from the
    stored severity rank: an unknown severity is rank 0."""
    name = _SEVERITY_OF_RANK.get(SEVERITY_RANK.get(severity, 0), "")
    return effort.SEVERITY_HOURS.get(name, 1.0) * effort.RISK_FACTOR.get(risk, 1.0)


def _rated_at_baseline(rows: dict, base: dict) -> None:
    """The baseline hours of findings re-rated since the baseline scan, at the severity and risk they had in it:
    the first re-rating after the baseline holds those as its old values (`severity` and `risk` separately, each
    only in the events that changed it). One query over the re-ratings (a partial index), none per finding, and
    none for a branch built at its baseline scan (its first: nothing was re-rated since)."""
    since = Q(pk__in=[])
    for (repository_id, branch), pk in base.items():
        if (repository_id, branch) in rows and pk and rows[(repository_id, branch)].scan_id != pk:
            since |= Q(
                Q(scan_id__gt=pk) | Q(scan_id__isnull=True),
                finding__repository_id=repository_id,
                finding__branch=branch,
                finding__first_seen_id__lte=pk,
            )
    then: dict[int, list] = {}  # finding -> [pair, path, severity now, risk now, severity then, risk then]
    for finding_id, repository_id, branch, path, severity, risk, data in (
        FindingEvent.objects.filter(since, kind=FindingEvent.Kind.RERATED)
        .order_by("finding_id", "id")
        .values_list(
            "finding_id",
            "finding__repository_id",
            "finding__branch",
            "finding__path",
            "finding__severity",
            "finding__risk",
            "data",
        )
    ):
        item = then.setdefault(finding_id, [(repository_id, branch), path, severity, risk, None, None])
        for key, slot in (("severity", 4), ("risk", 5)):
            change = (data or {}).get(key)
            if item[slot] is None and isinstance(change, list) and change:
                item[slot] = change[0]
    for pair, path, severity, risk, severity_then, risk_then in then.values():
        moved = _weight(severity_then or severity, risk_then or risk) - _weight(severity, risk)
        if moved:
            figures = rows[pair].progress["files"].setdefault(path, [0.0, 0.0, 0.0, 0])
            figures[BASELINE] = round(max(0.0, figures[BASELINE] + moved), 4)


def _scanned_files(rows: dict, base: dict) -> None:
    current = {row.scan_id: row for row in rows.values() if row.scan_id}
    at_baseline = {pk: rows[pair] for pair, pk in base.items() if pair in rows}
    wanted = set(current) | set(at_baseline)
    if not wanted:
        return
    has_cuda = Q(stats__translation__converted__gt=0) | Q(stats__translation__unconverted__gt=0)
    for scan_id, path, blob, unconverted, mode, cuda in (
        ScannedFile.objects.filter(scan_id__in=wanted)
        .filter(has_cuda | Q(parse_mode__in=list(effort.PARSE_PENALTY)))
        .annotate(cuda=Case(When(has_cuda, then=Value(1)), default=Value(0), output_field=IntegerField()))
        .values_list(
            "scan_id",
            "path",
            "blob_sha",
            Cast(KT("stats__translation__unconverted"), IntegerField()),
            "parse_mode",
            "cuda",
        )
    ):
        if scan_id in current and cuda:
            current[scan_id].progress["cuda"][path] = blob
        if scan_id in at_baseline:
            ledger = at_baseline[scan_id].progress
            if cuda:
                ledger["baseline_cuda"].append(path)
            if int(unconverted or 0) or mode in effort.PARSE_PENALTY:
                ledger["baseline_scanned"][path] = [int(unconverted or 0), mode]
    for row in current.values():
        cuda_blobs = row.progress["cuda"]
        if cuda_blobs and not all(cuda_blobs.values()):  # an upload stores no blob (portal.scans.uploads.stand_ins)
            row.progress["cuda"] = known_blobs(row.scan, cuda_blobs)


def move_triage(rollup, path: str, old: str, new: str, state: str, hours: float) -> None:
    """Move one finding's hours in the ledger from its old triage decision's column to the new one's."""
    files = (rollup.progress or {}).get("files")
    if files is None:
        return
    figures = files.setdefault(path, [0.0, 0.0, 0.0, 0])
    for decision, sign in ((old, -1), (new, 1)):
        column = _column(decision, state)
        if column is not None:
            figures[column] = round(max(0.0, figures[column] + sign * hours), 4)
    if old == Finding.Triage.UNTRIAGED and state == Finding.State.OPEN:
        figures[TOUCHED] += 1
    elif new == Finding.Triage.UNTRIAGED and state == Finding.State.OPEN:
        figures[TOUCHED] = max(0, figures[TOUCHED] - 1)


def _column(decision: str, state: str) -> int | None:
    if decision in DESCOPED_TRIAGE:
        return DESCOPED
    if state == Finding.State.FIXED or decision in DONE_TRIAGE:
        return DONE
    return None  # open and not decided: work left, which the rollup's files hold
