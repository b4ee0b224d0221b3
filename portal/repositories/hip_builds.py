"""Which HIP builds count (issue 30): "already runs on ROCm" is a fact about files, decided in the open.

The scanner's build model (scanner.build) finds the HIP builds of a checkout; scanner.port calls the repository
ported when the accepted ones compile every source its NVIDIA builds compile, and then rates the CUDA-only build
files, CI jobs and containers (ROC2xx) as its NVIDIA side. Which builds are accepted is the team's decision,
kept per repository (HipBuildDecision) and passed to every scan as ScanOptions.hip_builds:

- `requested(repository)`: what a scan passes: the kept ids, None until the baseline (the scanner's own findings
  then stand); a `.rocport.toml` `[port] hip_builds` in the checkout wins inside the scanner;
- `read(root, options, jobs, requested)`: what a scan stores at plan time (Scan.builds): the HIP and NVIDIA builds
  it found with the first paths each compiles, what it accepted, the NVIDIA sources left uncovered, the signs;
- `record(scan, repository, data)`: in the plan's transaction: the baseline keeps what its scan accepted, a
  declaration read on the default branch becomes the decision, and the newest default-branch scan becomes the one
  the repository page shows. A scan that finds other HIP builds never changes the decision: the page shows the change
  (`page(repository).pending`) for a manager to accept, or to keep the current decision;
- `decide(repository, ids, source, user, found)`: a manager's decision (portal.repositories.actions starts the
  rescan).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from portal.repositories.models import HipBuildDecision, Repository
from scanner import ConfigError, ScanOptions
from scanner import config as scanner_config
from scanner.port_builds import sources_by_build

PATHS_SHOWN = 20  # per build, on the page; the rest is counted
_MAX_BUILDS = 24  # per kind (HIP, NVIDIA): Scan.builds stays small whatever the repository


def requested(repository: Repository) -> tuple[str, ...] | None:
    """The kept decision as ScanOptions.hip_builds: None until the baseline. No query when the repository was read
    with its decision (`select_related("hip_decision")`, as the pipeline's claim does)."""
    decision = _loaded(repository)
    return None if decision is None or decision.accepted is None else tuple(decision.accepted)


def _loaded(repository: Repository) -> HipBuildDecision | None:
    try:
        return repository.hip_decision
    except HipBuildDecision.DoesNotExist:
        return None


def requested_by(scan) -> tuple[str, ...] | None:
    """The decision a scan was planned with (its shards plan the checkout with the same one)."""
    value = (scan.builds or {}).get("requested")
    return None if value is None else tuple(value)


def read(root: Path, options, jobs, requested_ids: tuple[str, ...] | None) -> dict:
    """What the repository page needs of a scan's plan (scanner.plan's options and FileJobs), JSON-ready."""
    port = options.port
    amd, nvidia = sources_by_build(getattr(job, "build", None) for job in jobs)
    hip = {build_id: paths for build_id, (_, paths) in amd.items()}
    hip_rows = [
        _row(build_id, description, count, hip.get(build_id, ())) for build_id, description, count in port.hip_builds
    ]
    nvidia_rows = [
        _row(build_id, compilation.describe(), len(paths), paths)
        for build_id, (compilation, paths) in sorted(
            nvidia.items(), key=lambda kv: (kv[1][0].build_file, kv[1][0].line, kv[0])
        )
    ]
    return {
        "requested": None if requested_ids is None else list(requested_ids),
        "declared": _declared(root),
        "accepted": list(port.accepted),
        "decision": port.decision,
        "hip": hip_rows[:_MAX_BUILDS],
        "hip_total": len(hip_rows),
        "nvidia": nvidia_rows[:_MAX_BUILDS],
        "nvidia_total": len(nvidia_rows),
        "ported": port.ported,
        "evidence": list(port.evidence),
        "uncovered": list(port.uncovered),
        "signs": list(port.signs),
    }


def _row(build_id: str, description: str, count: int, paths) -> dict:
    ordered = sorted(paths)
    return {"id": build_id, "description": description, "sources": count, "paths": ordered[:PATHS_SHOWN]}


def _declared(root: Path) -> list[str] | None:
    """`.rocport.toml`'s `[port] hip_builds`, when the checkout declares it (the scanner has read the file already:
    a bad one failed the plan)."""
    try:
        declared = scanner_config.load(Path(root), ScanOptions()).hip_builds
    except ConfigError:
        return None
    return None if declared is None else list(declared)


def record(scan, repository: Repository, data: dict) -> None:
    """The decision's bookkeeping for a planned scan of `repository`, in the plan's transaction (a superseded plan
    rolls it back): two statements at most (the row locked, then written), none for a scan of another branch once
    decided."""
    default = scan.branch == repository.default_branch
    declared = data["declared"]
    known = _loaded(repository)  # as the scan was claimed
    if known is not None and known.accepted is not None and not default and declared is None:
        return  # a scan of another branch changes nothing once the repository has a decision
    decision = HipBuildDecision.objects.select_for_update().filter(repository=repository).first()
    fresh = decision is None
    if fresh:
        decision = HipBuildDecision(repository=repository)
    found = [row["id"] for row in data["hip"]]
    if declared is not None and (default or decision.accepted is None):
        if decision.source != HipBuildDecision.Source.DECLARED or decision.accepted != declared:
            _set(decision, declared, HipBuildDecision.Source.DECLARED, found, scan=scan)
    elif decision.accepted is None:  # the baseline: the scanner's own findings, as the scan used them
        _set(decision, data["accepted"], HipBuildDecision.Source.BASELINE, found, scan=scan)
    if (default or decision.found_scan_id is None) and (decision.found_scan_id or 0) <= scan.pk:
        decision.found_scan = scan
    if fresh:
        # Another scan's plan may have created it meanwhile: its baseline (of the same repository) stands.
        HipBuildDecision.objects.bulk_create([decision], ignore_conflicts=True)
    else:
        decision.save()


def _set(decision: HipBuildDecision, ids, source, found, *, scan=None, user=None) -> None:
    decision.accepted = list(ids)
    decision.source = source
    decision.decided_scan = scan
    decision.decided_by = user
    decision.decided_at = timezone.now()
    decision.considered = sorted(found)


class Stale(Exception):
    """The builds a manager decided on are not those the newest scan found (a scan ended meanwhile)."""


class Declared(Exception):
    """The repository declares its HIP builds in .rocport.toml: that declaration is the decision."""


def decide(repository: Repository, ids: list[str] | None, source: str, user, found: list[str]) -> bool:
    """A manager's decision: `ids` accepted (None: keep the current decision), `found`: the HIP builds the page
    showed. True when the accepted builds changed (the caller starts a rescan)."""
    with transaction.atomic():
        HipBuildDecision.objects.get_or_create(repository=repository)
        decision = HipBuildDecision.objects.select_for_update().get(repository=repository)
        data = decision.found_scan.builds if decision.found_scan else {}
        now_found = [row["id"] for row in data.get("hip", ())]
        if data.get("declared") is not None:
            raise Declared
        if sorted(found) != sorted(now_found) or (ids is not None and not set(ids) <= set(now_found)):
            raise Stale
        if ids is None:
            decision.considered = sorted(now_found)
            decision.save(update_fields=["considered"])
            return False
        changed = decision.accepted is None or sorted(decision.accepted) != sorted(ids)
        _set(decision, [i for i in now_found if i in ids], source, now_found, user=user)
        decision.save()
        return changed


@dataclass
class Pending:
    """The HIP builds a newer scan finds that the decision has not considered."""

    added: list[dict] = field(default_factory=list)  # rows of Scan.builds["hip"]
    gone: list[str] = field(default_factory=list)  # accepted ids the scan no longer finds


@dataclass
class Page:
    """The repository page's section on its builds."""

    decision: HipBuildDecision | None
    scan: object  # the scan whose Scan.builds is shown, or None
    data: dict
    reason: str
    pending: Pending | None
    declared: bool

    @property
    def accepted(self) -> list[str]:
        return list(self.decision.accepted or ()) if self.decision else []

    @property
    def found_ids(self) -> list[str]:
        return [row["id"] for row in self.data.get("hip", ())]

    @property
    def hip(self) -> list[dict]:
        accepted = set(self.accepted)
        return [
            dict(row, accepted=row["id"] in accepted, more=row["sources"] - len(row["paths"]))
            for row in self.data.get("hip", ())
        ]

    @property
    def nvidia(self) -> list[dict]:
        return [dict(row, more=row["sources"] - len(row["paths"])) for row in self.data.get("nvidia", ())]


def page(repository: Repository) -> Page:
    decision = (
        HipBuildDecision.objects.select_related("found_scan", "decided_by", "decided_scan")
        .filter(repository=repository)
        .first()
    )
    scan = decision.found_scan if decision else None
    data = (scan.builds if scan else None) or {}
    declared = data.get("declared") is not None
    return Page(decision, scan, data, _reason(decision), _pending(decision, data, declared), declared)


def _pending(decision, data: dict, declared: bool) -> Pending | None:
    if decision is None or decision.accepted is None or declared or not data:
        return None
    found = [row["id"] for row in data.get("hip", ())]
    if sorted(found) == sorted(decision.considered or ()):
        return None
    considered = set(decision.considered or ())
    pending = Pending(
        [row for row in data["hip"] if row["id"] not in considered],
        [i for i in decision.accepted if i not in found],
    )
    return pending if pending.added or pending.gone else None


def _reason(decision) -> str:
    if decision is None or decision.accepted is None:
        return ""
    Source = HipBuildDecision.Source
    user = decision.decided_by.get_username() if decision.decided_by else _("a former member")
    scan = decision.decided_scan_id
    if decision.source == Source.BASELINE:
        return _("the baseline scan #%(n)s") % {"n": scan} if scan else _("the baseline scan")
    if decision.source == Source.DECLARED:
        return _("declared in .rocport.toml (scan #%(n)s)") % {"n": scan} if scan else _("declared in .rocport.toml")
    if decision.source == Source.ACCEPTED:
        return _("accepted by %(user)s") % {"user": user}
    return _("set by hand by %(user)s") % {"user": user}
