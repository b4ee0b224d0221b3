"""Which findings a finished scan's download holds, read in chunks.

- those of the scan's repository and branch as the scan left them, read from each finding's lifecycle events
  (created / fixed / reopened) up to that scan, so an old scan's export does not change when later scans fix or
  reopen findings; triage and assignee are the current ones;
- rows are read in keyset-ordered chunks of CHUNK (the findings list's orders and cursors): memory stays flat at
  a million findings, and no server-side cursor has to outlive a query.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from django.db.models import Case, CharField, OuterRef, Q, QuerySet, Subquery, Value, When

from portal.findings import queries
from portal.findings.models import Finding, FindingEvent
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan

CHUNK = 1000
SARIF_FILTERS = queries.Filters(state="open", sort="path")  # SARIF takes no filters: every finding open then
_OPEN, _FIXED = Finding.State.OPEN.value, Finding.State.FIXED.value
_CREATED, _FIXED_EVENT, _REOPENED = (FindingEvent.Kind.CREATED, FindingEvent.Kind.FIXED, FindingEvent.Kind.REOPENED)


def findings_as_of(scan, filters: queries.Filters, user) -> QuerySet:
    """The scan's repository and branch's findings with the list's filters, annotated `state_at_scan`."""
    wanted = filters.state
    narrowed = replace(filters, repository=scan.repository_id, branch=scan.branch, state="")
    base = queries.filtered([scan.repository.team_id], narrowed, user)
    newest = not Scan.objects.filter(
        repository_id=scan.repository_id, branch=scan.branch, pk__gt=scan.pk, status=ScanStatus.FINISHED
    ).exists()
    if newest and wanted in (_OPEN, _FIXED):
        # Nothing has changed a state since this scan: the current state is the answer, read along the findings
        # list's own index (state before the sort key) with no per-row lookup of events.
        return base.filter(state=wanted).annotate(state_at_scan=Value(wanted, output_field=CharField()))
    last_change = (
        FindingEvent.objects.filter(
            finding=OuterRef("pk"), scan_id__lte=scan.pk, kind__in=(_CREATED, _FIXED_EVENT, _REOPENED)
        )
        .order_by("-scan_id", "-id")
        .values("kind")[:1]
    )
    known_by_then = Q(lifecycle__isnull=True, first_seen_id__lte=scan.pk)
    query = base.annotate(lifecycle=Subquery(last_change)).annotate(
        state_at_scan=Case(
            When(lifecycle__in=(_CREATED, _REOPENED), then=Value(_OPEN)),
            When(lifecycle=_FIXED_EVENT, then=Value(_FIXED)),
            # Rows without lifecycle events (made outside the tracking, e.g. imported): judged from the row itself.
            When(known_by_then & (Q(state=_OPEN) | Q(fixed_in_id__gt=scan.pk)), then=Value(_OPEN)),
            When(known_by_then, then=Value(_FIXED)),
            default=Value(""),
            output_field=CharField(),
        )
    )
    if wanted in (_OPEN, _FIXED):
        return query.filter(state_at_scan=wanted)
    return query.exclude(state_at_scan="")  # not yet seen by this scan


def chunks(query: QuerySet, sort: str, size: int | None = None) -> Iterator[list[Finding]]:
    """The rows in `sort` order, `size` at a time, each chunk one keyset query after the previous chunk's last."""
    size = size or CHUNK
    cursor = ""
    while True:
        page = queries.after(query, sort, cursor) if cursor else query
        rows = list(queries.ordered(page, sort).select_related("assignee")[:size])
        if rows:
            yield rows
        if len(rows) < size:
            return
        cursor = queries.cursor_of(rows[-1], sort)
