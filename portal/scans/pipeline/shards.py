"""A scan's shards: the planned files cut into slices, each scanned by one task on any worker.

- `split`: the files to scan (not in the blob cache), in path order, cut by count (ROCPORT_SHARD_FILES) and
  bytes (ROCPORT_SHARD_BYTES);
- `run`: claim the shard (a new attempt; only the newest claim may write), fetch the commit (or reuse this
  process's checkout), scan the files whose result is not stored yet, and store results in batches: the blob cache,
  a per-scan row per file, and the shard's and the scan's progress, each batch in one transaction;
- the shard that finishes last (the plan row locked) says the ingestion is due;
- a failure (an exception, a clone error) releases the shard for another attempt on any worker; past
  SCAN_MAX_ATTEMPTS the scan fails naming the shard and its files. A worker that dies stops beating and the
  sweeper (portal/scans/tasks.py) sends the shard again.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import traceback
import uuid
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from portal.repositories import hip_builds
from portal.repositories.git import CloneError
from portal.scans.constants import SHARD_FAILED, USER_ERRORS, ScanStatus, ShardStatus
from portal.scans.models import BlobResult, Scan, ScanPlan, ScanShard, ShardFileResult
from portal.scans.pipeline import checkouts
from portal.scans.pipeline.endings import fail
from portal.scans.pipeline.errors import ScanUserError, Superseded, timed_out, timeout_message
from portal.scans.pipeline.heartbeat import Heartbeat
from portal.scans.pipeline.planning import plan_files
from portal.scans.pipeline.results import fresh_result
from scanner import faultpoints
from scanner.pool import DeadlineExceeded, WorkerPool

log = logging.getLogger(__name__)
_BATCH_FILES = 50  # results stored per transaction, at most...
_BATCH_SECONDS = 1.0  # ...and at least this often while results arrive, so the progress bar moves


class Outcome(Enum):
    DONE = "done"  # stored; other shards are still running
    LAST = "last"  # stored, and every shard is done: the caller runs or queues the ingestion
    RETRY = "retry"  # this attempt failed; the shard is pending again and must be sent again
    STOPPED = "stopped"  # nothing to do (done already, claimed elsewhere, scan final or replanned)


def split(jobs, root: Path) -> list[list]:
    """Consecutive runs of `jobs` (path order) of at most ROCPORT_SHARD_FILES files and ROCPORT_SHARD_BYTES bytes
    (a larger file is a shard of its own)."""
    groups: list[list] = []
    current: list = []
    size = 0
    for job in jobs:
        try:
            length = os.lstat(root / job.rel).st_size
        except OSError:
            length = 0
        if current and (len(current) >= settings.ROCPORT_SHARD_FILES or size + length > settings.ROCPORT_SHARD_BYTES):
            groups.append(current)
            current, size = [], 0
        current.append((job, length))
        size += length
    if current:
        groups.append(current)
    return groups


@dataclass
class ShardRun:
    shard: ScanShard
    scan: Scan
    attempt: int
    deadline: float

    def check_deadline(self) -> None:
        if time.monotonic() > self.deadline:
            raise timed_out()

    def mine(self):
        """The shard row while this attempt holds it."""
        return ScanShard.objects.filter(pk=self.shard.pk, attempts=self.attempt, status=ShardStatus.RUNNING)


def new_task_id() -> str:
    return str(uuid.uuid4())


def mark_queued(shard_ids: list[int]) -> None:
    """The shards are about to be sent (again): a message that never arrives makes them lost for the sweeper."""
    ScanShard.objects.filter(pk__in=shard_ids).update(queued_at=timezone.now())


def process_identity(worker: str) -> str:
    """Which process ran an attempt: the worker's name (Celery's hostname, the same for all its pool
    processes) and this process's id, so the scan page can tell worker processes from workers."""
    return f"{worker or socket.gethostname()} pid {os.getpid()}"


def worker_name(identity: str) -> str:
    """The worker of a process identity (process_identity), without the process id."""
    return identity.rsplit(" pid ", 1)[0]


def claim(shard_id: int, task_id: str, worker: str, deadline: float | None = None) -> ShardRun | None:
    """A new attempt at the shard, or None. Free to claim: pending; running under this same message (a
    redelivery: the process that ran it is gone); running with a stale heartbeat (its worker died)."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.SCAN_HEARTBEAT_STALE)
    free = (
        Q(status=ShardStatus.PENDING)
        | Q(status=ShardStatus.RUNNING, task_id=task_id)
        | Q(status=ShardStatus.RUNNING, heartbeat__lt=stale)
    )
    with transaction.atomic():
        shard = (
            ScanShard.objects.select_for_update(of=("self",))
            .select_related("scan__repository")
            .filter(free, pk=shard_id)
            .first()
        )
        if shard is None:
            return None
        scan = shard.scan
        if scan.status != ScanStatus.SCANNING or scan.attempts != shard.scan_attempt:
            return None  # superseded, cancelled, failed, or planned again by a newer attempt
        shard.attempts += 1
        worker = process_identity(worker)
        shard.workers = [*shard.workers, worker]
        ScanShard.objects.filter(pk=shard.pk).update(
            status=ShardStatus.RUNNING,
            attempts=shard.attempts,
            task_id=task_id,
            worker=worker,
            workers=shard.workers,
            heartbeat=now,
            started=now,
        )
    if shard.attempts > settings.SCAN_MAX_ATTEMPTS:
        give_up(shard, scan)
        return None
    return ShardRun(
        shard,
        scan,
        shard.attempts,
        deadline if deadline is not None else time.monotonic() + settings.SCAN_SOFT_TIME_LIMIT,
    )


def run(shard_id: int, *, task_id: str, worker: str, deadline: float | None = None) -> Outcome:
    """One attempt at one shard; never raises for the shard's own failures (see Outcome)."""
    shard_run = claim(shard_id, task_id, worker, deadline)
    if shard_run is None:
        return Outcome.STOPPED
    try:
        with Heartbeat(shard_run.mine):
            _scan(shard_run)
        return _finish(shard_run)
    except Superseded:
        log.info("%s stopped: the scan was superseded, cancelled or planned again", shard_run.shard)
        return Outcome.STOPPED
    except SoftTimeLimitExceeded:
        fail(shard_run.scan.pk, USER_ERRORS["timeout"], timeout_message(), shard_run.scan.attempts)
        return Outcome.STOPPED
    except ScanUserError as exc:  # the scan's limit or its configuration: another attempt would not help
        fail(
            shard_run.scan.pk, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, shard_run.scan.attempts
        )
        return Outcome.STOPPED
    except CloneError as exc:  # the host may be back for the next attempt
        return _failed(shard_run, f"could not fetch the commit: {exc.message}")
    except Exception as exc:
        log.exception("%s failed (attempt %s)", shard_run.shard, shard_run.attempt)
        return _failed(shard_run, f"{type(exc).__name__}: {exc}"[:500] + "\n" + traceback.format_exc(limit=2)[-1500:])


def _scan(shard_run: ShardRun) -> None:
    scan, shard = shard_run.scan, shard_run.shard
    paths = [entry[0] for entry in shard.entries]
    faultpoints.reached("shard.start", scan=scan.pk, shard=shard.pk, attempt=shard_run.attempt, paths=paths)
    tree, memo = checkouts.checkout(scan.repository, scan.commit_sha, ref=scan.branch)
    # The planner's HIP-build decision (stored with the scan): the same plan, the same cache keys.
    options, jobs, _enabled, keys = plan_files(
        tree.path, tree.blobs, memo, hip_builds.requested_by(scan), tree.submodules
    )
    planned = {path: key for path, _blob, key in shard.entries}
    stored: set[str] = set()
    if shard_run.attempt > 1:  # what earlier attempts stored is kept (the first has nothing to look up)
        stored = set(ShardFileResult.objects.filter(scan=scan, path__in=list(planned)).values_list("path", flat=True))
    todo = [job for job in jobs if job.rel in planned and job.rel not in stored]
    found = {job.rel for job in jobs}
    if not planned.keys() <= found or any(keys[job.rel] != planned[job.rel] for job in todo):
        # Another scanner version or other settings than the planner's: its results would be cached under keys
        # that do not describe them.
        raise RuntimeError(
            "this worker plans the commit differently from the worker that planned the scan "
            "(another scanner version or other ROCPORT_* settings)"
        )
    rows: list[ShardFileResult] = []
    fresh: list[BlobResult] = []
    last_store = time.monotonic()
    try:
        # No more scanner processes than files: each one builds the prelude PCH when it starts.
        pool = WorkerPool(options, max(1, min(options.jobs, len(todo))), deadline=shard_run.deadline)
        for result in pool.run(todo) if todo else ():
            faultpoints.reached("shard.file", scan=scan.pk, shard=shard.pk, path=result.path)
            data, translation, cached = fresh_result(tree.path, result, tree.blobs, keys)
            if cached is not None:
                fresh.append(cached)
                rows.append(ShardFileResult(scan=scan, path=result.path))
            else:
                rows.append(ShardFileResult(scan=scan, path=result.path, result=data, translation=translation))
            if len(rows) >= _BATCH_FILES or time.monotonic() - last_store >= _BATCH_SECONDS:
                _store(shard_run, rows, fresh)
                rows, fresh, last_store = [], [], time.monotonic()
    except DeadlineExceeded:
        shard_run.check_deadline()
        raise
    if rows:
        _store(shard_run, rows, fresh)
    faultpoints.reached("shard.finish", scan=scan.pk, shard=shard.pk)


def _store(shard_run: ShardRun, rows: list[ShardFileResult], fresh: list[BlobResult]) -> None:
    """One batch: the cache rows first (shared, harmless if the rest rolls back), then the per-scan rows and both
    progress counters in one transaction that only the newest attempt of a live scan can commit."""
    if fresh:
        BlobResult.objects.bulk_create(fresh, ignore_conflicts=True)
    now = timezone.now()
    with transaction.atomic():
        # Row locks in one order everywhere (plan, shard, scan): no deadlock between shards and the ingestion.
        if shard_run.mine().update(files_done=F("files_done") + len(rows), heartbeat=now) != 1:
            raise Superseded()  # a newer attempt took the shard over
        scanned = Scan.objects.filter(
            pk=shard_run.scan.pk, attempts=shard_run.shard.scan_attempt, status=ScanStatus.SCANNING
        )
        if scanned.update(files_done=F("files_done") + len(rows), heartbeat=now) != 1:
            raise Superseded()
        ShardFileResult.objects.bulk_create(rows)
    faultpoints.reached("shard.stored", scan=shard_run.scan.pk, shard=shard_run.shard.pk, files=len(rows))
    shard_run.check_deadline()


def _finish(shard_run: ShardRun) -> Outcome:
    with transaction.atomic():
        # The plan row serialises the shards' last steps: exactly one of them sees every shard done.
        plan = ScanPlan.objects.select_for_update().filter(pk=shard_run.scan.pk).first()
        if plan is None or plan.attempt != shard_run.shard.scan_attempt:
            raise Superseded()
        now = timezone.now()
        if shard_run.mine().update(status=ShardStatus.DONE, finished=now, heartbeat=now, error="") != 1:
            raise Superseded()
        # Under the lock, the shards' DONE updates are serialised and a shard that is done is never claimed again:
        # exactly one shard sees none left.
        left = (
            ScanShard.objects.filter(scan_id=plan.pk, scan_attempt=plan.attempt)
            .exclude(status=ShardStatus.DONE)
            .exists()
        )
    return Outcome.DONE if left else Outcome.LAST


def _failed(shard_run: ShardRun, why: str) -> Outcome:
    """Release the shard for another attempt (on any worker), or fail the scan when it has none left."""
    shard = shard_run.shard
    released = shard_run.mine().update(status=ShardStatus.PENDING, error=why, queued_at=timezone.now(), task_id="")
    if released != 1:
        return Outcome.STOPPED
    if shard_run.attempt >= settings.SCAN_MAX_ATTEMPTS:
        shard.refresh_from_db()
        give_up(shard, shard_run.scan)
        return Outcome.STOPPED
    return Outcome.RETRY


def give_up(shard: ScanShard, scan: Scan) -> None:
    """The shard failed its last attempt: fail the scan naming it, its workers and its last error."""
    shard.refresh_from_db()
    ScanShard.objects.filter(pk=shard.pk).update(status=ShardStatus.FAILED, finished=timezone.now())
    last = shard.error.splitlines()[0] if shard.error else "its worker stopped responding each time"
    fail(
        scan.pk,
        SHARD_FAILED,
        f"{shard.describe()} did not finish after {min(shard.attempts, settings.SCAN_MAX_ATTEMPTS)} "
        f"attempts (on {', '.join(dict.fromkeys(shard.workers)) or 'no worker'}); last error: {last}",
        shard.scan_attempt,
    )
