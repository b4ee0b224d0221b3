"""Scans on a real Celery worker (separate process, Redis broker, the test PostgreSQL database)."""

from __future__ import annotations

import os
import time

import pytest
import redis
from django.conf import settings

from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from portal.scans.tasks import sweep_stuck_scans
from tests.faults.points import FaultPlan, suffix
from tests.portal.worker import Worker, wait_final, wait_until

KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"


@pytest.fixture
def worker_env(tmp_path):
    workers = []

    def start(**env) -> Worker:
        worker = Worker(tmp_path / f"worker{len(workers)}.log", **env)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def register(people, repo) -> Repository:
    return Repository.objects.create(team=people.team, name=repo.path.name, clone_url=repo.url)


@pytest.mark.django_db(transaction=True)
def test_a_push_scan_runs_on_the_worker_and_a_bad_clone_is_a_user_error(people, repo_factory, worker_env):
    worker_env()
    repo = repo_factory()
    commit = repo.commit("add", **{"k.cu": KERNEL})
    scan = wait_final(do_create_scan(register(people, repo), commit_sha=commit).pk)
    assert (scan.status, scan.attempts, scan.files_done) == ("finished", 1, 1)
    assert Finding.objects.filter(rule="ROC101", state="open").count() == 1
    broken = Repository.objects.create(team=people.team, name="broken", clone_url="git://127.0.0.1:1/missing")
    failed = wait_final(do_create_scan(broken).pk)
    assert (failed.status, failed.error_code) == ("failed", "scan:user:clone-failed")


@pytest.mark.django_db(transaction=True)
def test_a_scan_past_its_time_limit_fails_with_a_timeout(people, repo_factory, worker_env, tmp_path):
    faults = FaultPlan(tmp_path / "faults")
    faults.add("pool.file", "hang", once=False, path=suffix("slow.cu"))  # as a libclang loop would, every time
    worker_env(ROCPORT_SCAN_SOFT_TIME_LIMIT="10", faults=faults)
    repo = repo_factory()
    commit = repo.commit("add", **{"k.cu": KERNEL, "slow.cu": KERNEL})
    scan = wait_final(do_create_scan(register(people, repo), commit_sha=commit).pk, timeout=90)
    assert (scan.status, scan.error_code) == ("failed", "scan:user:timeout")
    assert Finding.objects.count() == 0  # nothing half-ingested


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_scan_completes_on_retry_without_duplicates(people, repo_factory, worker_env, tmp_path):
    faults = FaultPlan(tmp_path / "faults")
    # The pool process running the task SIGKILLs itself once slow.cu is scanned, before its result is stored, as
    # the OOM killer would pick it.
    faults.add("shard.file", "kill", path="slow.cu", name="oom")
    worker_env(faults=faults)
    repo = repo_factory()
    commit = repo.commit("add", **{"k.cu": KERNEL, "slow.cu": KERNEL})
    created = do_create_scan(register(people, repo), commit_sha=commit)
    scan = wait_final(created.pk, timeout=120)
    assert [(kill["point"], kill["details"]["scan"]) for kill in faults.landed()] == [("shard.file", created.pk)]
    assert (scan.status, scan.attempts) == ("finished", 2)
    assert Finding.objects.filter(rule="ROC101").count() == 2  # k.cu and slow.cu, once each


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_requeues_a_stuck_scan_and_gives_up_after_the_last_attempt(people, repo_factory, worker_env):
    worker_env()
    repo = repo_factory()
    row = register(people, repo)
    commit = repo.commit("add", **{"k.cu": KERNEL})
    stuck = do_create_scan(row, commit_sha=commit, enqueue=False)
    from datetime import timedelta

    from django.utils import timezone

    stale = timezone.now() - timedelta(minutes=30)
    Scan.objects.filter(pk=stuck.pk).update(status=ScanStatus.SCANNING, attempts=1, heartbeat=stale)
    assert sweep_stuck_scans() == 1
    assert wait_final(stuck.pk).status == "finished"

    hopeless = do_create_scan(row, commit_sha=commit, enqueue=False)
    Scan.objects.filter(pk=hopeless.pk).update(status=ScanStatus.CLONING, attempts=3, heartbeat=stale)
    sweep_stuck_scans()
    hopeless.refresh_from_db()
    assert (hopeless.status, hopeless.error_code) == ("failed", "scan:app:worker-lost")


@pytest.mark.django_db
def test_a_newer_scan_supersedes_an_unfinished_older_one_and_the_older_stops(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    commit = repo.commit("add", **{"k.cu": KERNEL})
    older = do_create_scan(row, commit_sha=commit, enqueue=False)
    attempt = pipeline.claim(older.pk)
    attempt.move(ScanStatus.SCANNING)
    newer = do_create_scan(row, commit_sha=commit, enqueue=False)
    older.refresh_from_db()
    assert older.status == ScanStatus.SUPERSEDED and f"scan {newer.pk}" in older.error_message
    with pytest.raises(pipeline.Superseded):
        attempt.progress(1, 0, force=True)  # the older attempt notices at its next step and stops
    pipeline.run(newer.pk)
    newer.refresh_from_db()
    assert newer.status == ScanStatus.FINISHED
    other_branch = do_create_scan(row, branch="release", enqueue=False)
    newer.refresh_from_db()
    assert newer.status == ScanStatus.FINISHED and other_branch.status == ScanStatus.QUEUED


@pytest.mark.django_db(transaction=True)
def test_a_worker_on_another_queue_of_the_same_redis_never_takes_this_runs_scans(people, repo_factory, worker_env):
    # Another portal (or a second test run) on the same Redis database: its worker consumes its own queue.
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    assert queue.startswith("rocport-test-") and queue == os.environ["ROCPORT_CELERY_QUEUE"]
    worker_env(name="other", ROCPORT_CELERY_QUEUE="someone-elses-portal")
    repo = repo_factory()
    scan = do_create_scan(register(people, repo), commit_sha=repo.commit("add", **{"k.cu": KERNEL}))
    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    wait_until(lambda: client.llen(queue) == 1, what="the scan's message in this run's queue")
    time.sleep(2)  # a ready worker consuming this queue would have taken it by now
    assert client.llen(queue) == 1 and Scan.objects.get(pk=scan.pk).status == ScanStatus.QUEUED
    worker_env(name="ours", flush=False)
    assert wait_final(scan.pk).status == "finished"
