"""Sharded scans on two real Celery worker processes (Redis broker, the test PostgreSQL database, git repositories
on disk): both workers take shards, the findings equal an unsharded scan's, a worker killed in the middle of a
shard costs that shard one attempt on the other worker, and a shard that always fails fails the scan naming it."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from portal.findings.models import Finding, FindingEvent
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ShardStatus
from portal.scans.models import BlobResult, Scan, ScannedFile, ScanPlan, ScanShard, ShardFileResult
from portal.scans.pipeline import checkouts, shards
from portal.scans.pipeline import runner as pipeline
from portal.scans.tasks import sweep_stuck_scans
from tests.faults.points import FaultPlan, suffix
from tests.portal.people import client_for
from tests.portal.worker import Worker, wait_final, wait_until

DEMO = Path(__file__).resolve().parents[3] / "demo" / "cuda-demo"
KERNEL = """#include "common/lanes.cuh"
__global__ void k{n}(float *x, unsigned *mask) {{
  x[threadIdx.x % 32] = {n};
  *mask = __ballot_sync(0xffffffff, x[0] > 0);
}}
"""
SHARD_FILES = "4"  # the project below has ~45 files: about a dozen shards


@pytest.fixture
def workers(tmp_path):
    started: list[Worker] = []

    def start(count: int = 2, **env) -> list[Worker]:
        for index in range(count):
            started.append(
                Worker(
                    tmp_path / f"worker{index}.log",
                    name=f"w{index}",
                    flush=index == 0,
                    ROCPORT_SHARD_FILES=SHARD_FILES,
                    **env,
                )
            )
        return started

    yield start
    for worker in started:
        worker.stop()


def project(repo_factory, **extra: str):
    """The demo project (kernels, headers, CMake, Docker, shell, YAML: every kind of rule, the repository pass)
    plus generated kernels that include one of its headers."""
    repo = repo_factory()
    shutil.copytree(DEMO, repo.path, dirs_exist_ok=True)
    repo.write(
        "src/common/lanes.cuh", "#pragma once\n#define LANES 32\n__device__ int lane() { return threadIdx.x % 32; }\n"
    )
    files = {f"src/gen/k{n:02}.cu": KERNEL.format(n=n) for n in range(20)}
    return repo, repo.commit("project", **{k.replace("/", "__"): v for k, v in {**files, **extra}.items()})


def findings_of(repository) -> set[tuple]:
    return set(
        Finding.objects.filter(repository=repository).values_list("rule", "path", "line", "fingerprint", "state")
    )


def unsharded(people, repo, commit) -> set[tuple]:
    """The reference: the same commit scanned in this process as one shard, with an empty blob cache."""
    BlobResult.objects.all().delete()
    reference = Repository.objects.create(team=people.team, name="reference", clone_url=repo.url)
    scan = do_create_scan(reference, commit_sha=commit, enqueue=False)
    pipeline.run(scan.pk)
    scan.refresh_from_db()
    assert scan.status == "finished" and not scan.shards.count() > 1
    return findings_of(reference)


@pytest.mark.django_db(transaction=True)
def test_both_workers_take_shards_and_the_findings_equal_an_unsharded_scan(people, repo_factory, workers):
    w0, w1 = workers()
    repo, commit = project(repo_factory)
    repository = Repository.objects.create(team=people.team, name="sharded", clone_url=repo.url)
    scan = wait_final(do_create_scan(repository, commit_sha=commit).pk, timeout=180)
    assert scan.status == "finished", scan.error_message
    rows = list(scan.shards.all())
    assert len(rows) >= 10 and all(row.status == ShardStatus.DONE and row.attempts == 1 for row in rows)
    assert {row.worker.split("@")[0] for row in rows} == {"w0", "w1"}  # both workers scanned
    assert sum(row.files for row in rows) == scan.files_total == scan.files_done and scan.files_reused == 0
    assert ScannedFile.objects.filter(scan=scan).exclude(path=".").count() == scan.files_total
    assert not ShardFileResult.objects.exists() and not ScanPlan.objects.exists()  # nothing left behind
    sharded = findings_of(repository)
    assert len(sharded) > 40 and {"ROC101", "ROC120"} <= {rule for rule, *_ in sharded}
    assert sharded == unsharded(people, repo, commit)

    page = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
    assert f"{len(rows)} shards on 2 workers" in page

    # A redelivered shard or ingestion finds the work done: nothing is written twice.
    events = FindingEvent.objects.count()
    assert shards.run(rows[0].pk, task_id=rows[0].task_id, worker="late@host") is shards.Outcome.STOPPED
    pipeline.ingest(scan.pk)
    assert findings_of(repository) == sharded and FindingEvent.objects.count() == events
    assert Scan.objects.get(pk=scan.pk).summary == scan.summary


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_shard_costs_that_shard_one_attempt(people, repo_factory, workers, tmp_path):
    faults = FaultPlan(tmp_path / "faults")
    # Whichever worker scans slow.cu first dies there (once), process group and all, before the file's result is
    # stored: its message stays unacknowledged in Redis.
    faults.add("shard.file", "kill-group", path="src/gen/slow.cu", name="machine-dies")
    pair = workers(faults=faults)
    repo, commit = project(repo_factory, **{"src/gen/slow.cu": KERNEL.format(n=99)})
    repository = Repository.objects.create(team=people.team, name="sharded", clone_url=repo.url)
    created = do_create_scan(repository, commit_sha=commit)
    wait_until(lambda: faults.fired("machine-dies"), timeout=120, what="a worker to reach slow.cu")
    hung = next(
        row
        for row in ScanShard.objects.filter(scan=created)
        if any(path == "src/gen/slow.cu" for path, *_ in row.entries)
    )
    assert hung.status == ShardStatus.RUNNING and hung.attempts == 1
    victim = next(worker for worker in pair if hung.worker.startswith(worker.name + "@"))
    survivor = next(worker for worker in pair if worker is not victim)
    wait_until(victim.died, timeout=10, what="the victim's main process to die with its group")
    assert not survivor.died()

    # Its heartbeat stops; the periodic sweeper (called here as beat would) sends the shard again.
    def stale() -> bool:
        beat = ScanShard.objects.get(pk=hung.pk).heartbeat
        return beat < timezone.now() - timedelta(seconds=6)

    wait_until(stale, timeout=60, what="the killed worker's heartbeat to go stale")
    assert sweep_stuck_scans() >= 1
    scan = wait_final(created.pk, timeout=180)
    assert scan.status == "finished", scan.error_message
    hung.refresh_from_db()
    assert (hung.status, hung.attempts) == (ShardStatus.DONE, 2)
    assert [name.split("@")[0] for name in hung.workers] == [victim.name, survivor.name]
    assert scan.files_done == scan.files_total  # the killed attempt's stored results were not counted twice
    assert findings_of(repository) == unsharded(people, repo, commit)


@pytest.mark.django_db(transaction=True)
def test_a_shard_that_always_fails_fails_the_scan_naming_the_shard_and_its_files(
    people, repo_factory, workers, tmp_path
):
    faults = FaultPlan(tmp_path / "faults")
    # Every attempt at the shard holding k07.cu raises, the way a bug or a broken worker would.
    faults.add("shard.start", "raise", once=False, paths=suffix("k07.cu"), name="shard-k07")
    workers(faults=faults)
    repo, commit = project(repo_factory)
    repository = Repository.objects.create(team=people.team, name="sharded", clone_url=repo.url)
    scan = wait_final(do_create_scan(repository, commit_sha=commit).pk, timeout=180)
    assert (scan.status, scan.error_code) == ("failed", "scan:app:shard-failed")
    broken = ScanShard.objects.get(scan=scan, status=ShardStatus.FAILED)
    assert broken.attempts == 3 and "injected failure (shard-k07 at shard.start)" in broken.error
    assert f"shard {broken.number} (" in scan.error_message and "did not finish after 3 attempts" in scan.error_message
    assert "src/gen/k07.cu" in scan.error_message and "injected failure" in scan.error_message
    assert Finding.objects.count() == 0 and ScannedFile.objects.count() == 0  # nothing half-ingested
    assert not ShardFileResult.objects.exists()


# -- the rules of a claim, in this process (no worker needed) ---------------------------------------------------


@pytest.mark.django_db
def test_a_claim_is_taken_over_only_by_its_own_redelivery_or_after_its_heartbeat_stops(people, repo_factory):
    repo, commit = project(repo_factory)
    repository = Repository.objects.create(team=people.team, name="r", clone_url=repo.url)
    scan = do_create_scan(repository, commit_sha=commit, enqueue=False)
    with override_settings(ROCPORT_SHARD_FILES=4):
        shard_ids = pipeline._plan(pipeline.claim(scan.pk))
    assert len(shard_ids) >= 10
    first = shards.claim(shard_ids[0], "message-a", "w0@host")
    assert first is not None and first.attempt == 1
    assert shards.claim(shard_ids[0], "message-b", "w1@host") is None  # held, alive: a copy does nothing
    again = shards.claim(shard_ids[0], "message-a", "w0@host")  # the same message again: its runner is gone
    assert again is not None and again.attempt == 2
    with pytest.raises(pipeline.Superseded):
        shards._store(first, [], [])  # the older attempt can no longer write
    ScanShard.objects.filter(pk=shard_ids[0]).update(heartbeat=timezone.now() - timedelta(hours=1))
    taken = shards.claim(shard_ids[0], "message-c", "w1@host")
    assert taken is not None and taken.attempt == 3
    assert shards.claim(shard_ids[1], "message-d", "w1@host") is not None
    do_create_scan(repository, commit_sha=commit, enqueue=False)  # supersedes: no shard of it is claimed again
    assert shards.claim(shard_ids[2], "message-e", "w1@host") is None
    ShardFileResult.objects.create(scan=scan, path="src/gen/k00.cu")
    sweep_stuck_scans()  # what the superseded scan's shards had stored goes
    assert not ShardFileResult.objects.filter(scan=scan).exists() and not ScanPlan.objects.filter(pk=scan.pk).exists()
    checkouts.release()


@pytest.mark.django_db
def test_shards_are_cut_by_files_and_by_bytes(tmp_path):
    from scanner.engine import FileJob

    sizes = {"a.cu": 10, "b.cu": 10, "c.cu": 5000, "d.cu": 10, "e.cu": 10, "f.cu": 10}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    jobs = [FileJob(str(tmp_path / name), name, "cuda") for name in sizes]
    with override_settings(ROCPORT_SHARD_FILES=2, ROCPORT_SHARD_BYTES=1024):
        groups = [[job.rel for job, _ in group] for group in shards.split(jobs, tmp_path)]
    assert groups == [["a.cu", "b.cu"], ["c.cu"], ["d.cu", "e.cu"], ["f.cu"]]
    with override_settings(ROCPORT_SHARD_FILES=500, ROCPORT_SHARD_BYTES=10**9):
        assert len(shards.split(jobs, tmp_path)) == 1


def test_the_compose_worker_scales_with_nothing_shared_but_the_database_the_broker_and_git():
    import yaml

    compose = yaml.safe_load((DEMO.parents[1] / "docker-compose.yml").read_text())
    worker = compose["services"]["worker"]
    # `docker compose up --scale worker=N` refuses a fixed container name or host port; a volume would be shared
    assert not {"container_name", "ports", "volumes"} & set(worker)
    assert "-n worker@%h" in worker["command"]  # each replica's own node name (its container's hostname)
