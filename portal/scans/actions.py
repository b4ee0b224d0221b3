"""Scan actions: creating a scan (the row first, then the task, on commit)."""

from __future__ import annotations

from django.db import transaction

from portal.scans.constants import ScanTrigger
from portal.scans.models import Scan


def do_create_scan(repository, *, branch: str = "", commit_sha: str = "", ref: str = "",
                   trigger: str = ScanTrigger.MANUAL, enqueue: bool = True) -> Scan:
    """A queued Scan row, older unfinished scans of the branch superseded, the task sent after commit."""
    from portal.scans.tasks import scan_repository

    with transaction.atomic():
        scan = Scan.objects.create(repository=repository, branch=branch or repository.default_branch,
                                   commit_sha=commit_sha, ref=ref, trigger=trigger)
        Scan.objects.supersede_older(scan)
        if enqueue:
            transaction.on_commit(lambda: scan_repository.delay(scan.pk))
    return scan
