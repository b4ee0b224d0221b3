"""Ingesting a scan's results into tracked findings, in bulk, inside the caller's transaction.

For one (repository, branch):
- files renamed between the previous scan and this one move their findings to the new path first;
- a finding identity (path, rule, fingerprint, occurrence) seen again stays open (its location is refreshed);
  one seen for the first time is new; a fixed one seen again is reopened;
- an open finding not seen again is fixed only when its rule really ran on its file in this scan, or its file is
  gone from the commit; a file that failed to parse, was excluded, or a rule switched off leaves it as it was;
- triage is never touched by a scan; a branch's first scan inherits the default branch's triage;
- every change writes a FindingEvent. Statement count grows with batches, not with findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from portal.findings.models import SEVERITY_RANK, Finding, FindingEvent

BATCH = 2000
_LOCATION_FIELDS = ("line", "column", "end_line", "end_column", "message", "snippet", "severity", "severity_rank",
                    "risk", "name", "suppressed")


@dataclass
class FileOutcome:
    path: str
    rules_run: frozenset[str]
    findings: list[dict]  # scanner Finding.to_dict() items


@dataclass
class IngestReport:
    new: int = 0
    still_open: int = 0
    fixed: int = 0
    reopened: int = 0
    moved: int = 0
    untouched: int = 0  # open findings whose file or rule did not run this time
    inherited: int = 0
    untouched_paths: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"new": self.new, "still_open": self.still_open, "fixed": self.fixed, "reopened": self.reopened,
                "moved": self.moved, "untouched": self.untouched, "inherited": self.inherited}


def _key(path: str, rule: str, fingerprint: str, occurrence: int) -> tuple:
    return path, rule, fingerprint, occurrence


def ingest(scan, outcomes: list[FileOutcome], present_paths: set[str], renames: dict[str, str],
           first_scan_of_branch: bool) -> IngestReport:
    """Call inside transaction.atomic(). `present_paths`: every file of the scanned commit."""
    report = IngestReport()
    repository, branch = scan.repository, scan.branch
    existing = list(Finding.objects.filter(repository=repository, branch=branch))
    events: list[FindingEvent] = []
    moved: list[Finding] = []
    for finding in existing:
        new_path = renames.get(finding.path)
        if new_path is not None:
            events.append(FindingEvent(finding=finding, kind=FindingEvent.Kind.MOVED, scan=scan,
                                       data={"from": finding.path, "to": new_path}))
            finding.path = new_path
            moved.append(finding)
    report.moved = len(moved)
    index = {_key(f.path, f.rule, f.fingerprint, f.occurrence): f for f in existing}

    inherited = _default_branch_triage(scan) if first_scan_of_branch else {}
    seen: set[tuple] = set()
    created: list[Finding] = []
    changed: dict[int, Finding] = {f.pk: f for f in moved}
    reopened: list[Finding] = []
    unchanged_ids: list[int] = []
    for outcome in outcomes:
        for data in outcome.findings:
            key = _key(outcome.path, data["rule"], data["fingerprint"], data["occurrence"])
            if key in seen:
                continue
            seen.add(key)
            finding = index.get(key)
            if finding is None:
                finding = _new(scan, outcome.path, data)
                triage = inherited.get(key)
                if triage is not None:
                    finding.triage, finding.triage_reason = triage
                    report.inherited += 1
                created.append(finding)
                continue
            if finding.state == Finding.State.FIXED:
                finding.state, finding.fixed_in = Finding.State.OPEN, None
                reopened.append(finding)
                changed[finding.pk] = finding
            else:
                report.still_open += 1
            location_changed = _refresh(finding, data)
            finding.last_seen = scan
            if location_changed:
                changed[finding.pk] = finding
            elif finding.pk not in changed:
                unchanged_ids.append(finding.pk)

    ran = {o.path: o.rules_run for o in outcomes}
    fixed: list[Finding] = []
    for key, finding in index.items():
        if key in seen or finding.state != Finding.State.OPEN:
            continue
        path = finding.path
        if path not in present_paths or finding.rule in ran.get(path, ()):
            finding.state, finding.fixed_in = Finding.State.FIXED, scan
            fixed.append(finding)
            changed[finding.pk] = finding
        else:
            report.untouched += 1
            if path not in report.untouched_paths and len(report.untouched_paths) < 50:
                report.untouched_paths.append(path)

    Finding.objects.bulk_create(created, batch_size=BATCH)
    if changed:
        Finding.objects.bulk_update(list(changed.values()), ["path", "state", "fixed_in", "last_seen",
                                                             *_LOCATION_FIELDS], batch_size=BATCH)
    for start in range(0, len(unchanged_ids), 20000):
        Finding.objects.filter(pk__in=unchanged_ids[start:start + 20000]).update(last_seen=scan)
    events += [FindingEvent(finding=f, kind=FindingEvent.Kind.CREATED, scan=scan) for f in created]
    events += [FindingEvent(finding=f, kind=FindingEvent.Kind.INHERITED, scan=scan, data={"triage": f.triage})
               for f in created if f.triage != Finding.Triage.UNTRIAGED]
    events += [FindingEvent(finding=f, kind=FindingEvent.Kind.FIXED, scan=scan) for f in fixed]
    events += [FindingEvent(finding=f, kind=FindingEvent.Kind.REOPENED, scan=scan) for f in reopened]
    FindingEvent.objects.bulk_create(events, batch_size=BATCH)
    report.new, report.fixed, report.reopened = len(created), len(fixed), len(reopened)
    return report


def _new(scan, path: str, data: dict) -> Finding:
    finding = Finding(repository=scan.repository, branch=scan.branch, path=path, rule=data["rule"],
                      fingerprint=data["fingerprint"], occurrence=data["occurrence"], first_seen=scan,
                      last_seen=scan)
    _refresh(finding, data)
    return finding


def _refresh(finding: Finding, data: dict) -> bool:
    values = {"line": data["line"], "column": data["column"], "end_line": data["end_line"],
              "end_column": data["end_column"], "message": data["message"], "snippet": data["snippet"],
              "severity": data["severity"], "severity_rank": SEVERITY_RANK.get(data["severity"], 0),
              "risk": data["risk"], "name": data["name"], "suppressed": data["suppressed"]}
    changed = False
    for name, value in values.items():
        if getattr(finding, name) != value:
            setattr(finding, name, value)
            changed = True
    return changed


def _default_branch_triage(scan) -> dict[tuple, tuple[str, str]]:
    repository = scan.repository
    if scan.branch == repository.default_branch:
        return {}
    rows = (Finding.objects.filter(repository=repository, branch=repository.default_branch)
            .exclude(triage=Finding.Triage.UNTRIAGED)
            .values_list("path", "rule", "fingerprint", "occurrence", "triage", "triage_reason"))
    return {_key(p, r, f, o): (t, reason) for p, r, f, o, t, reason in rows}
