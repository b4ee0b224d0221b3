"""Scan actions: creating a scan (the row first, then the task, on commit). A scan uploaded from CI is ingested by
portal.scans.uploads.actions."""

from __future__ import annotations

from django.db import transaction

from portal.scans import signals
from portal.scans.constants import ScanTrigger
from portal.scans.models import Scan
from portal.scans.pipeline.endings import announce
from portal.scans.tasks import scan_repository


def do_create_scan(
    repository,
    *,
    branch: str = "",
    commit_sha: str = "",
    ref: str = "",
    trigger: str = ScanTrigger.MANUAL,
    enqueue: bool = True,
) -> Scan:
    """A queued Scan row, older unfinished scans of the branch superseded (and announced as ended: a git host
    showing their "pending" status gets a verdict), the task sent after commit."""
    with transaction.atomic():
        scan = Scan.objects.create(
            repository=repository,
            branch=branch or repository.default_branch,
            commit_sha=commit_sha,
            ref=ref,
            trigger=trigger,
        )
        for older in Scan.objects.select_related("repository").filter(pk__in=Scan.objects.supersede_older(scan)):
            announce(signals.scan_ended, older)
        if enqueue:
            transaction.on_commit(lambda: scan_repository.delay(scan.pk))
    return scan
