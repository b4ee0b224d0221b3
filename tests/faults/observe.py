"""What the fault tests look at: a scan's status as it moves, a repository's findings as comparable rows, and
queries that survive a PostgreSQL restart (the test process's own connection dies with the server)."""

from __future__ import annotations

import time

from django.db import connection
from django.db.utils import InterfaceError, OperationalError

from portal.findings.models import Finding, FindingEvent
from portal.scans.constants import FINAL_STATUSES
from portal.scans.models import Scan, ScannedFile


def patiently(query, timeout: float = 60):
    """Run `query()`; while the database is away, drop the dead connection and try again."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return query()
        except (OperationalError, InterfaceError):
            connection.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def status_of(scan_id: int) -> tuple[str, int]:
    return Scan.objects.filter(pk=scan_id).values_list("status", "attempts").get()


def finding_rows(repository) -> list[tuple]:
    """Everything that makes a finding the same finding, and where and how it stands (a list: duplicates show)."""
    return sorted(
        Finding.objects.filter(repository=repository).values_list(
            "branch", "path", "rule", "line", "column", "fingerprint", "occurrence", "state"
        )
    )


def events_per_finding(repository) -> dict[int, int]:
    """FindingEvents of each finding: a first scan writes exactly one ("new") per finding."""
    counts: dict[int, int] = {}
    for finding_id in FindingEvent.objects.filter(finding__repository=repository).values_list("finding", flat=True):
        counts[finding_id] = counts.get(finding_id, 0) + 1
    return counts


def scanned_paths(scan_id: int) -> list[str]:
    return sorted(ScannedFile.objects.filter(scan_id=scan_id).values_list("path", flat=True))


def wait_all_final(scan_ids, sweep, timeout: float, every: float = 1.0) -> dict[int, Scan]:
    """Wait for every scan to be final, running the sweeper every `every` seconds as beat would."""
    deadline = time.monotonic() + timeout
    last_sweep = 0.0
    while True:
        scans = patiently(lambda: {s.pk: s for s in Scan.objects.filter(pk__in=scan_ids)})
        if all(s.status in FINAL_STATUSES for s in scans.values()):
            return scans
        if time.monotonic() > deadline:
            stuck = {pk: (s.status, s.attempts) for pk, s in scans.items() if s.status not in FINAL_STATUSES}
            raise AssertionError(f"scans never reached a final state: {stuck}")
        if time.monotonic() - last_sweep > every:
            patiently(sweep)
            last_sweep = time.monotonic()
        time.sleep(0.2)
