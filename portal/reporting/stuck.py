"""Where the migration is stuck: work left by assignee and open high-severity findings older than N days (files
nobody has touched since the baseline are portal.reporting.figures.untouched, kept with the file states; work
left by CODEOWNERS owner is portal.reporting.metrics.owners). Each is one bounded query on a repository's default
branch, whatever its number of findings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Sum
from django.utils import timezone

from portal.findings.models import DISMISSED_TRIAGE, SEVERITY_RANK, Finding
from portal.reporting.rollups import hours_expression
from portal.scans.models import Scan

OLD_DAYS = 30  # "old": open for longer than a sprint or two
OLD_SHOWN = 10
COUNT_CAP = 1000  # counted up to this, then "1,000+": an exact count of a huge backlog costs a scan of it


def _live(repository):
    return Finding.objects.filter(repository=repository, branch=repository.default_branch, state=Finding.State.OPEN)


def by_assignee(repository) -> list[dict]:
    """Open findings not dismissed by triage and their hours, per assignee, most hours first (the partial index
    `finding_open_assigned` holds only assigned open findings)."""
    rows = (
        _live(repository)
        .filter(assignee__isnull=False)
        .exclude(triage__in=DISMISSED_TRIAGE)
        .values("assignee_id", "assignee__username")
        .annotate(open=Count("id"), hours=Sum(hours_expression()))
        .order_by()
    )
    return sorted(
        (
            {
                "user": r["assignee__username"],
                "user_id": r["assignee_id"],
                "open": r["open"],
                "hours": r["hours"] or 0.0,
            }
            for r in rows
        ),
        key=lambda r: (-r["hours"], r["user"]),
    )


@dataclass
class OldFindings:
    days: int
    count: int
    capped: bool
    rows: list[dict]


def old_high(repository, days: int = OLD_DAYS) -> OldFindings:
    """Open high and critical findings first seen more than `days` ago and not dismissed, the oldest first. "First
    seen before the cutoff" is "first seen at or before the newest scan older than the cutoff": an id bound on the
    finding, no join on scans."""
    cutoff = timezone.now() - timedelta(days=days)
    last_old_scan = (
        Scan.objects.filter(repository=repository, branch=repository.default_branch, created__lt=cutoff)
        .order_by("-created", "-id")
        .values_list("pk", flat=True)
        .first()
    )
    if last_old_scan is None:
        return OldFindings(days, 0, False, [])
    old = (
        _live(repository)
        .filter(severity_rank__gte=SEVERITY_RANK["high"], first_seen_id__lte=last_old_scan)
        .exclude(triage__in=DISMISSED_TRIAGE)
    )
    count = old.values("id")[: COUNT_CAP + 1].count()
    rows = list(
        old.order_by("id").values(
            "pk", "rule", "name", "path", "line", "severity", "first_seen__created", "assignee__username"
        )[:OLD_SHOWN]
    )
    return OldFindings(days, min(count, COUNT_CAP), count > COUNT_CAP, rows)
