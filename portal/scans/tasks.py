"""Celery tasks: a scan (ids only on the wire) and the periodic sweep of scans whose worker died."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from portal.scans import pipeline
from portal.scans.constants import APP_ERROR, USER_ERRORS, WORKER_LOST, ScanStatus
from portal.scans.models import Scan

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,  # a worker killed mid-scan leaves the message to be redelivered...
    reject_on_worker_lost=True,  # ...and a lost child process requeues it at once
    soft_time_limit=settings.SCAN_SOFT_TIME_LIMIT,
    time_limit=settings.SCAN_TIME_LIMIT,
)
def scan_repository(self, scan_id: int) -> None:
    try:
        pipeline.run(scan_id)
    except SoftTimeLimitExceeded:
        pipeline.fail(scan_id, USER_ERRORS["timeout"],
                      f"the scan took longer than {settings.SCAN_SOFT_TIME_LIMIT}s (ROCPORT_SCAN_SOFT_TIME_LIMIT)")
    except Exception as exc:  # a bug or an infrastructure failure: still a final state, and a log entry
        log.exception("scan %s failed with an internal error", scan_id)
        pipeline.fail(scan_id, APP_ERROR, f"internal error: {type(exc).__name__}")


@shared_task
def sweep_stuck_scans() -> int:
    """Scans whose worker stopped sending heartbeats: re-enqueued while attempts remain, else failed."""
    count = 0
    for scan in Scan.objects.stuck(settings.SCAN_HEARTBEAT_STALE):
        if scan.attempts >= settings.SCAN_MAX_ATTEMPTS:
            pipeline.fail(scan.pk, WORKER_LOST, "the worker stopped responding and no attempts are left")
        else:
            # Back to queued so the next attempt can claim it; the attempt counter keeps the old one out.
            Scan.objects.filter(pk=scan.pk, status=scan.status).update(status=ScanStatus.QUEUED)
            scan_repository.delay(scan.pk)
        count += 1
    return count
