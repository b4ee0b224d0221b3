"""Celery tasks: a scan's planning, its shards and its ingestion (ids only on the wire), and the periodic sweep
of scans and shards whose worker died. Everything a scan sends to the broker is sent from here: the pipeline
and the shards say what is due (`send_shards` is handed to `runner.run`; `shards.Outcome` says when the
ingestion is), and import nothing of this module."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_process_shutdown
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from kombu.exceptions import OperationalError

from portal.scans.constants import APP_ERROR, FINAL_STATUSES, USER_ERRORS, WORKER_LOST, ScanStatus, ShardStatus
from portal.scans.models import Scan, ScanPlan, ScanShard, ShardFileResult
from portal.scans.pipeline import checkouts, runner, shards
from portal.scans.pipeline.endings import fail
from portal.scans.pipeline.errors import timeout_message
from portal.scans.pipeline.ingestion import ingest

log = logging.getLogger(__name__)

# Every task of a scan: a worker killed mid-task leaves the message to be redelivered (acks_late), and a lost
# child process requeues it at once (reject_on_worker_lost); a redelivered task claims a new attempt, so it
# never writes twice.
_DURABLE = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": settings.SCAN_SOFT_TIME_LIMIT,
    "time_limit": settings.SCAN_TIME_LIMIT,
}


@shared_task(bind=True, **_DURABLE)
def scan_repository(self, scan_id: int) -> None:
    """Plan the scan; its shards go to the broker (or, for one shard, are scanned here)."""
    try:
        runner.run(
            scan_id,
            send_shards=None if self.request.is_eager else send_shards,
            task_id=self.request.id or "",
            worker=self.request.hostname or "",
        )
    except SoftTimeLimitExceeded:
        fail(scan_id, USER_ERRORS["timeout"], timeout_message())
    except Exception as exc:  # a bug or an infrastructure failure: still a final state, and a log entry
        log.exception("scan %s failed with an internal error", scan_id)
        fail(scan_id, APP_ERROR, f"internal error: {type(exc).__name__}")


@shared_task(bind=True, **_DURABLE)
def scan_shard(self, shard_id: int) -> None:
    """One shard of a scan, on whichever worker took the message."""
    outcome = shards.run(shard_id, task_id=self.request.id or shards.new_task_id(), worker=self.request.hostname or "")
    if outcome is shards.Outcome.RETRY:
        send_shards([shard_id])
    elif outcome is shards.Outcome.LAST:
        scan_id = ScanShard.objects.filter(pk=shard_id).values_list("scan_id", flat=True).first()
        ingest_scan.delay(scan_id)


@shared_task(bind=True, **_DURABLE)
def ingest_scan(self, scan_id: int) -> None:
    """Every shard is done: ingest the stored results once, in one transaction."""
    try:
        ingest(scan_id)
    except SoftTimeLimitExceeded:
        fail(scan_id, USER_ERRORS["timeout"], timeout_message())
    except Exception as exc:
        log.exception("scan %s: ingestion failed with an internal error", scan_id)
        fail(scan_id, APP_ERROR, f"internal error while ingesting: {type(exc).__name__}")


def send_shards(shard_ids: list[int]) -> None:
    """One Celery task per shard, sent after the current transaction commits."""
    shards.mark_queued(shard_ids)
    for shard_id in shard_ids:
        transaction.on_commit(lambda shard_id=shard_id: scan_shard.delay(shard_id))


@shared_task
def sweep_stuck_scans() -> int:
    """Work whose worker stopped sending heartbeats, sent again while attempts remain, else failed; returns how
    many scans and shards it acted on.

    - a running shard with a stale heartbeat (its whole worker was killed: Redis would hand its message back
      only after the visibility timeout): sent again, or the scan fails naming it;
    - a pending shard sent longer ago than the stale limit while no shard of its scan is alive (a lost message):
      sent again (a copy of a message that does arrive finds the shard claimed and does nothing);
    - a scan stuck while planning, or without a plan: planned again by a new attempt, as before shards;
    - a scan queued longer than SCAN_QUEUED_STALE after its message was sent (a message Redis lost): sent again;
    - a scan stuck while ingesting: its ingestion sent again (counted; a stale one is a no-op);
    - the stored results and plan of scans that ended while their shards ran (superseded, cancelled) go."""
    stale = timezone.now() - timedelta(seconds=settings.SCAN_HEARTBEAT_STALE)
    count = 0
    dead = ScanShard.objects.filter(status=ShardStatus.RUNNING, heartbeat__lt=stale).filter(
        Exists(
            Scan.objects.filter(pk=OuterRef("scan_id"), status=ScanStatus.SCANNING, attempts=OuterRef("scan_attempt"))
        )
    )
    for shard in dead.select_related("scan"):
        if shard.attempts >= settings.SCAN_MAX_ATTEMPTS:
            if ScanShard.objects.filter(pk=shard.pk, status=ShardStatus.RUNNING, heartbeat__lt=stale).exists():
                shards.give_up(shard, shard.scan)
        elif ScanShard.objects.filter(pk=shard.pk, status=ShardStatus.RUNNING, heartbeat__lt=stale).update(
            status=ShardStatus.PENDING, task_id="", error="its worker stopped responding"
        ):
            send_shards([shard.pk])
        count += 1
    alive = ScanShard.objects.filter(scan_id=OuterRef("scan_id"), status=ShardStatus.RUNNING, heartbeat__gte=stale)
    lost = ScanShard.objects.filter(
        status=ShardStatus.PENDING, queued_at__lt=stale, scan__status=ScanStatus.SCANNING
    ).filter(~Exists(alive))
    for shard in lost:
        send_shards([shard.pk])
        count += 1
    # What scans that ended while their shards ran (superseded, cancelled) left: their stored results and plan.
    ended = Scan.objects.filter(pk=OuterRef("scan_id"), status__in=FINAL_STATUSES)
    ShardFileResult.objects.filter(Exists(ended)).delete()
    ScanPlan.objects.filter(scan__status__in=FINAL_STATUSES).delete()
    for scan in Scan.objects.stuck(settings.SCAN_HEARTBEAT_STALE, settings.SCAN_QUEUED_STALE):
        plan = ScanPlan.objects.filter(pk=scan.pk, attempt=scan.attempts).first()
        if plan is not None and scan.status == ScanStatus.SCANNING:
            continue  # the shards' own heartbeats decide (above)
        if plan is not None and scan.status == ScanStatus.INGESTING:
            ingest_scan.delay(scan.pk)
        elif scan.attempts >= settings.SCAN_MAX_ATTEMPTS:
            fail(scan.pk, WORKER_LOST, "the worker stopped responding and no attempts are left")
        else:
            # Back to queued so the next attempt can claim it; the attempt counter keeps the old one out. The
            # heartbeat marks when its message was sent, for the queued-scan limit.
            Scan.objects.filter(pk=scan.pk, status=scan.status).update(
                status=ScanStatus.QUEUED, heartbeat=timezone.now()
            )
            try:
                scan_repository.delay(scan.pk)
            except OperationalError as exc:  # the broker is down: it stays queued, a later sweep sends it
                log.warning("scan %s stays queued: the broker refused its task (%s)", scan.pk, type(exc).__name__)
        count += 1
    return count


@worker_process_shutdown.connect
def _remove_kept_checkout(**_kwargs) -> None:
    checkouts.release()
