"""One scan, start to finish, as a linear script (the Celery task and the demo both call `run`).

- claim the scan (a new attempt number: only the newest attempt may move it);
- plan: clone exactly the commit (portal.repositories.git, kept for this process by pipeline.checkouts), with
  the previous scan's commit for rename detection; list the files (pipeline.planning) with the repository's
  HIP-build decision (portal.repositories.hip_builds: kept, stored with the builds found); those whose blob was
  scanned before with the same scanner version and configuration reuse the stored result; run the
  repository-level pass; cut the other files into shards (pipeline.shards) and store the plan, so that any
  worker can scan a shard;
- scan the shards: here, one after the other (the demo, `make run`, a repository that fits in one shard), or,
  given `send_shards` (the Celery task's way to enqueue them, portal.scans.tasks), one task each on any worker;
  each shard stores its results as it goes;
- ingest once every shard is done (pipeline.ingestion), in one transaction: scanned files, tracked
  findings, the summary, and the FINISHED state together.

The modules import one way (tests/architecture/test_imports.py): tasks -> runner -> shards -> ingestion ->
planning, results, endings -> errors. Only the tasks module knows Celery's tasks: it hands `run` the function that
enqueues shards, and `shards.Outcome` tells it when the ingestion is due.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from portal.findings.ownership import LOCATIONS
from portal.repositories import hip_builds
from portal.repositories.crypto import CredentialsUnreadable
from portal.repositories.git import CloneError, GitSession
from portal.repositories.urlcheck import validate_clone_url
from portal.scans import signals
from portal.scans.constants import APP_ERROR, CLAIMABLE_STATUSES, USER_ERRORS, WORKER_LOST, ScanStatus
from portal.scans.models import Scan, ScanPlan, ScanShard, ShardFileResult
from portal.scans.pipeline import checkouts, shards
from portal.scans.pipeline.endings import announce, fail
from portal.scans.pipeline.errors import ScanUserError, Superseded, timed_out
from portal.scans.pipeline.heartbeat import Heartbeat
from portal.scans.pipeline.ingestion import ingest
from portal.scans.pipeline.planning import cached_paths, plan_files
from portal.scans.pipeline.results import fresh_result, read_text
from scanner import faultpoints
from scanner import repository as repository_pass

log = logging.getLogger(__name__)
SendShards = Callable[[list[int]], None]


class Run:
    """The state of one attempt at one scan."""

    def __init__(self, scan: Scan, attempt: int):
        self.scan = scan
        self.attempt = attempt
        self._last_progress = 0.0
        # Our own time limit, checked between steps and inside the scanner pool; Celery's soft/hard limits
        # stay as a safety net.
        self.deadline = time.monotonic() + settings.SCAN_SOFT_TIME_LIMIT

    def check_deadline(self) -> None:
        if time.monotonic() > self.deadline:
            raise timed_out()

    def move(self, to: ScanStatus, **fields) -> None:
        updated = Scan.objects.filter(pk=self.scan.pk, attempts=self.attempt, status__in=CLAIMABLE_STATUSES).update(
            status=to, heartbeat=timezone.now(), **fields
        )
        if updated != 1:
            raise Superseded()  # superseded, cancelled, or a newer attempt owns the scan
        self.scan.refresh_from_db()

    def progress(self, done: int, reused: int, force: bool = False) -> None:
        self.check_deadline()
        now = time.monotonic()
        if not force and now - self._last_progress < 1.0:
            return
        self._last_progress = now
        updated = Scan.objects.filter(pk=self.scan.pk, attempts=self.attempt, status=ScanStatus.SCANNING).update(
            files_done=done, files_reused=reused, heartbeat=timezone.now()
        )
        if updated != 1:
            raise Superseded()


def claim(scan_id: int) -> Run | None:
    """Start a new attempt; None when the scan is already final (or lost: too many attempts)."""
    updated = Scan.objects.filter(pk=scan_id, status__in=CLAIMABLE_STATUSES).update(
        attempts=F("attempts") + 1, heartbeat=timezone.now()
    )
    if updated != 1:
        return None
    # with the repository's HIP-build decision (portal.repositories.hip_builds): read here, no query at plan time
    scan = Scan.objects.select_related("repository", "repository__hip_decision").get(pk=scan_id)
    if scan.attempts > settings.SCAN_MAX_ATTEMPTS:
        fail(
            scan.pk,
            WORKER_LOST,
            f"gave up after {scan.attempts - 1} attempts that did not finish (the worker died or was killed each time)",
        )
        return None
    return Run(scan, scan.attempts)


def run(scan_id: int, *, send_shards: SendShards | None = None, task_id: str = "", worker: str = "") -> None:
    """Plan the scan, then scan its shards here one after the other and ingest; given `send_shards` (the Celery
    task's enqueueing, which also sends the ingestion when the last shard is done), a plan of several shards is
    handed to it instead, one task per shard. A single shard is scanned here either way: no round trip for a
    small repository."""
    distribute = send_shards is not None
    attempt = claim(scan_id)
    if attempt is None:
        return
    try:
        shard_ids = _plan(attempt)
        if distribute and len(shard_ids) > 1:
            send_shards(shard_ids)
            return
        outcome = shards.Outcome.LAST if not shard_ids else None
        for shard_id in shard_ids:
            outcome = shards.Outcome.RETRY
            while outcome is shards.Outcome.RETRY:
                outcome = shards.run(
                    shard_id,
                    task_id=task_id or shards.new_task_id(),
                    worker=worker,
                    deadline=attempt.deadline,
                )
                if outcome is shards.Outcome.RETRY and distribute:
                    send_shards([shard_id])  # the next attempt on whichever worker is free
                    return
                task_id = ""  # an attempt after a failure is another claim
        if outcome is shards.Outcome.LAST:
            ingest(scan_id)
    except Superseded:
        log.info("scan %s stopped: superseded or cancelled", scan_id)
    except ScanUserError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)
    except CloneError as exc:
        fail(scan_id, USER_ERRORS.get(exc.code, f"scan:user:{exc.code}"), exc.message, attempt.attempt)
    except CredentialsUnreadable:
        fail(
            scan_id,
            USER_ERRORS["credentials_unreadable"],
            "the repository's stored credentials cannot be decrypted with the configured keys "
            "(ROCPORT_CREDENTIALS_KEYS); enter them again on the repository's settings page",
            attempt.attempt,
        )
    finally:
        if not distribute:
            checkouts.release()  # the demo and the tests: nothing left on disk


def _plan(run_: Run) -> list[int]:
    """Clone, list the files, look up the blob cache, run the repository-level pass, and store the plan and its
    shards (replacing those of an earlier attempt); returns the shard ids, in path order."""
    scan = run_.scan
    repository = scan.repository
    run_.move(ScanStatus.CLONING, started=scan.started or timezone.now())
    faultpoints.reached("pipeline.clone", scan=scan.pk, attempt=run_.attempt)
    previous = (
        Scan.objects.filter(repository=repository, branch=scan.branch, status=ScanStatus.FINISHED)
        .exclude(pk=scan.pk)
        .order_by("-finished")
        .first()
    )
    try:
        validate_clone_url(repository.clone_url)  # again at clone time: settings or DNS may have changed
    except ValidationError as exc:
        raise ScanUserError("clone_failed", " ".join(exc.messages)) from None
    with Heartbeat(lambda: Scan.objects.filter(pk=scan.pk, attempts=run_.attempt, status=ScanStatus.CLONING)):
        if not scan.commit_sha:
            with GitSession(repository.clone_url, repository.credentials()) as git:
                commit = git.resolve(scan.ref or scan.branch)
            Scan.objects.filter(pk=scan.pk).update(commit_sha=commit)
            scan.commit_sha = commit
        checkout, memo = checkouts.checkout(
            repository, scan.commit_sha, ref=scan.branch, previous=previous.commit_sha if previous else ""
        )
        root = checkout.path
        if scan.branch == repository.default_branch:
            _store_codeowners(repository, root)
        # The repository's HIP-build decision (None until the baseline): the shards plan with the one stored here.
        requested = hip_builds.requested(repository)
        options, jobs, enabled, keys = plan_files(root, checkout.blobs, memo, requested, checkout.submodules)
        builds = hip_builds.read(root, options, jobs, requested)
        reused = cached_paths(jobs, checkout.blobs, keys)
        run_.check_deadline()
        # Repository-level findings (path "."): never cached by blob, the pass re-reads only the few files it needs.
        extra = repository_pass.finalize(root, options, jobs)
        groups = shards.split([job for job in jobs if job.rel not in reused], root)
    faultpoints.reached("pipeline.plan", scan=scan.pk, attempt=run_.attempt)
    with transaction.atomic():
        if run_.attempt > 1:  # an earlier attempt's plan: its tasks find nothing to do
            ScanShard.objects.filter(scan=scan).delete()
            ShardFileResult.objects.filter(scan=scan).delete()
            ScanPlan.objects.filter(pk=scan.pk).delete()
        ScanPlan.objects.create(
            scan=scan,
            attempt=run_.attempt,
            present=sorted(checkout.blobs),
            renames=checkout.renames,
            rules=[rule.code for rule in enabled],
            first_scan_of_branch=previous is None,
            files=[[job.rel, checkout.blobs.get(job.rel, ""), keys[job.rel], job.rel in reused] for job in jobs],
        )
        created = ScanShard.objects.bulk_create(
            # queued_at: a shard never claimed (its planner died before sending it) counts as lost for the sweeper
            ScanShard(
                scan=scan,
                number=number,
                scan_attempt=run_.attempt,
                files=len(group),
                queued_at=timezone.now(),
                bytes=sum(size for _, size in group),
                entries=[[job.rel, checkout.blobs.get(job.rel, ""), keys[job.rel]] for job, _ in group],
            )
            for number, group in enumerate(groups, start=1)
        )
        if extra is not None:
            data = extra.to_dict()
            ShardFileResult.objects.create(
                scan=scan, path=extra.path, result=data, translation=data.pop("translation", None)
            )
        # The baseline's HIP-build decision or a declaration, and the builds this scan found (for the repository page).
        hip_builds.record(scan, repository, builds)
        moved = Scan.objects.filter(pk=scan.pk, attempts=run_.attempt, status=ScanStatus.CLONING).update(
            builds=builds,
            submodules=checkout.submodules,
            status=ScanStatus.SCANNING,
            heartbeat=timezone.now(),
            files_total=len(jobs),
            files_done=len(reused),
            files_reused=len(reused),
        )
        if moved != 1:
            raise Superseded()  # rolls the plan back
        scan.status = ScanStatus.SCANNING
        announce(signals.scan_started, scan)
    return [shard.pk for shard in created]


def _store_codeowners(repository, root: Path) -> None:
    text = next((read_text(root / name) for name in LOCATIONS if (root / name).is_file()), "")
    if text != repository.codeowners:
        type(repository).objects.filter(pk=repository.pk).update(codeowners=text[:100_000])


# The names callers of the pipeline use (the tasks, the management commands, the tests).
__all__ = [
    "run",
    "fail",
    "claim",
    "ingest",
    "fresh_result",
    "plan_files",
    "ScanUserError",
    "Superseded",
    "APP_ERROR",
]
