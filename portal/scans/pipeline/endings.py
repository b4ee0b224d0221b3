"""How a scan ends outside a successful ingestion, and how its start and end are told: `fail` writes the FAILED
state (every path of the pipeline ends in a final state), `announce` sends `scan_started` / `scan_ended` after
the current transaction commits."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from portal.scans import signals
from portal.scans.constants import CLAIMABLE_STATUSES, ScanStatus
from portal.scans.models import Scan, ScanPlan, ShardFileResult

log = logging.getLogger(__name__)


def fail(scan_id: int, code: str, message: str, attempt: int | None = None) -> bool:
    """Write the FAILED state (unless the scan is already final); the final state is always written. The stored
    results of its shards go (the blob cache keeps what is reusable); the shard rows stay, for the scan page."""
    query = Scan.objects.filter(pk=scan_id, status__in=CLAIMABLE_STATUSES)
    if attempt is not None:
        query = query.filter(attempts=attempt)
    failed = (
        query.update(
            status=ScanStatus.FAILED,
            error_code=code,
            error_message=message[:2000],
            finished=timezone.now(),
            heartbeat=timezone.now(),
        )
        == 1
    )
    if failed:
        ShardFileResult.objects.filter(scan_id=scan_id).delete()
        ScanPlan.objects.filter(pk=scan_id).delete()
        announce(signals.scan_ended, Scan.objects.select_related("repository").get(pk=scan_id))
    return failed


def announce(signal, scan: Scan) -> None:
    """Tell the listeners after the current transaction commits; a listener's error never touches the scan."""

    def send():
        for receiver, result in signal.send_robust(sender=Scan, scan=scan):
            if isinstance(result, Exception):
                log.error("scan %s: %s failed: %r", scan.pk, getattr(receiver, "__qualname__", receiver), result)

    transaction.on_commit(send)
