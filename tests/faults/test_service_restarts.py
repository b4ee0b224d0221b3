"""Redis, then PostgreSQL, stopped and started again while scans run and webhook deliveries arrive over HTTP
(gunicorn) — every delivery is processed exactly once, every scan ends final, the web answers 5xx without a
traceback while the database is away and recovers after it.

Timeline of the main test:
1. two pushes: the worker finishes the first and is in the middle of the second, nothing is left queued;
2. Redis stops (SIGKILL; it keeps nothing on disk): three pushes arrive, are stored and stay pending, one is
   redelivered by the provider (same id); Redis starts again, empty; the redelivery task sends the pending ones;
3. PostgreSQL stops (immediate: connections cut) in the middle of a scan: three pushes get a 5xx, which the provider
   redelivers, with the same ids, once PostgreSQL is back;
4. the sweeper and the redelivery task run as beat would until every scan is final.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

if os.environ.get("ROCPORT_FAULTS_INNER") != "1":  # named on the command line outside the suite's own process
    pytest.skip("runs in the fault suite's own process: `pytest tests/faults`", allow_module_level=True)

import redis as redis_client
from django.conf import settings

from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import FINAL_STATUSES, ScanStatus
from portal.scans.models import Scan
from portal.scans.tasks import sweep_stuck_scans
from portal.webhooks.models import WebhookDelivery
from portal.webhooks.tasks import redeliver_pending
from tests.faults.observe import events_per_finding, finding_rows, patiently, status_of, wait_all_final
from tests.portal.gitrepos import GitRepo
from tests.portal.servers import free_port
from tests.portal.webhook_stack import _wait_port, push_body, signed
from tests.portal.worker import ROOT, Worker, wait_until
from tests.portal.worker import test_database_url as database_url

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

ZERO = "0" * 40
FILES = 3


def cuda_file(commit_no: int, file_no: int) -> str:
    lines = [f"// commit {commit_no}, file {file_no}", f"__global__ void k{file_no}(float *x) {{"]
    lines += [f"  x[threadIdx.x % 32 + {j}] = {j}.0f;" for j in range(12)]
    return "\n".join([*lines, "}", ""])


class Web:
    """gunicorn serving the portal on the suite's PostgreSQL and Redis."""

    def __init__(self, tmp: Path, env: dict):
        self.port = free_port()
        self.log = tmp / "web.log"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "portal.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--timeout",
                "60",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=open(self.log, "w"),
            stderr=subprocess.STDOUT,
        )
        _wait_port(self.port)

    def push(self, row: Repository, commit: str, delivery: str) -> tuple[int, bytes, float]:
        import urllib.error
        import urllib.request

        body = push_body("github", "main", ZERO, commit)
        headers = {"Content-Type": "application/json", **signed("github", row.webhook_secret, body, delivery=delivery)}
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/hooks/{row.pk}/github/", data=body, headers=headers, method="POST"
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read(), time.perf_counter() - start
        except urllib.error.HTTPError as error:
            return error.code, error.read(), time.perf_counter() - start

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class Provider:
    """A git host sending push deliveries: each has an id, and a delivery answered 5xx (or not at all) is sent
    again with the same id, as GitHub's "redeliver" and GitLab's retries do."""

    def __init__(self, web: Web):
        self.web = web
        self.sent: dict[str, tuple[Repository, str]] = {}  # delivery id -> (repository, commit)
        self.answers: list[tuple[str, int, bytes, float]] = []

    def push(self, row: Repository, commit: str, delivery: str | None = None) -> int:
        delivery = delivery or f"delivery-{len(self.sent)}"
        self.sent[delivery] = (row, commit)
        status, body, elapsed = self.web.push(row, commit, delivery)
        self.answers.append((delivery, status, body, elapsed))
        return status

    def redeliver_failed(self) -> None:
        answered = {d for d, status, _, _ in self.answers if status < 500}
        for delivery, (row, commit) in list(self.sent.items()):
            if delivery not in answered:
                assert self.push(row, commit, delivery) in (200, 202), self.answers[-1]


def wait_status(scan_id: int, wanted: set[str], timeout: float = 90) -> None:
    wait_until(
        lambda: patiently(lambda: status_of(scan_id)[0]) in wanted,
        timeout=timeout,
        what=f"scan {scan_id} to be {wanted}",
    )


def test_redis_then_postgresql_restarted_mid_flight_lose_no_delivery_and_no_scan(
    people, tmp_path, postgres, broker, fault_counts
):
    repo = GitRepo.create(tmp_path / "project")
    commits = [repo.commit(f"c{i}", **{f"k{f}.cu": cuda_file(i, f) for f in range(FILES)}) for i in range(8)]
    # One repository row per push, so no push supersedes another: each delivery must give its own finished scan.
    rows = [
        Repository.objects.create(team=people.team, name=f"pushed-{i}", clone_url=repo.url) for i in range(len(commits))
    ]
    env = {**os.environ, "DATABASE_URL": database_url()}
    worker = Worker(tmp_path / "worker.log")
    web = Web(tmp_path, env)
    provider = Provider(web)
    try:
        # The reference: a clean scan with nothing broken (the files differ only in a comment line).
        reference = Repository.objects.create(team=people.team, name="reference", clone_url=repo.url)
        clean = do_create_scan(reference, commit_sha=commits[0])
        assert wait_all_final([clean.pk], sweep_stuck_scans, timeout=90)[clean.pk].status == ScanStatus.FINISHED
        expected = [row[1:] for row in finding_rows(reference)]  # without the branch: the same for every row
        assert len(expected) == FILES * 12

        # 1. Normal operation: one scan done, the next in flight, nothing queued behind it.
        assert provider.push(rows[0], commits[0]) == 202
        assert provider.push(rows[1], commits[1]) == 202
        second = Scan.objects.get(repository=rows[1])
        wait_status(second.pk, {ScanStatus.SCANNING, ScanStatus.INGESTING, *FINAL_STATUSES})
        assert redis_client.Redis.from_url(broker.url).llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 0

        # 2. Redis dies; pushes keep arriving: stored, answered, pending. How fast they are answered is reported in
        # faults.json, not asserted: a pass/fail test on a shared machine does not time things.
        broker.stop()
        for i in (2, 3, 4):
            status = provider.push(rows[i], commits[i])
            assert status == 202, provider.answers[-1]
        redis_down_answers = provider.answers[-3:]
        assert provider.push(rows[2], commits[2], delivery="delivery-2") == 200  # the provider's redelivery
        pending = patiently(lambda: WebhookDelivery.objects.filter(state=WebhookDelivery.State.PENDING).count())
        assert pending == 3
        broker.start()
        wait_until(
            lambda: (
                patiently(redeliver_pending) == 0
                and not WebhookDelivery.objects.filter(state=WebhookDelivery.State.PENDING).exists()
            ),
            timeout=60,
            what="the pending deliveries to be sent",
        )

        # 3. PostgreSQL dies in the middle of a scan; pushes get a clean 5xx; it comes back.
        in_flight = Scan.objects.get(repository=rows[2])
        wait_status(in_flight.pk, {ScanStatus.CLONING, ScanStatus.SCANNING, ScanStatus.INGESTING, *FINAL_STATUSES})
        stopped_during = patiently(lambda: status_of(in_flight.pk)[0])
        postgres.stop("immediate")
        down_answers = []
        for i in (5, 6, 7):
            provider.push(rows[i], commits[i])
            down_answers.append(provider.answers[-1])
        time.sleep(2)  # the worker meets the dead database mid-scan
        postgres.start()
        for delivery, status, body, _ in down_answers:
            assert 500 <= status < 600, (delivery, status, body[:300])
            assert b"Traceback" not in body and b"psycopg" not in body and b"OperationalError" not in body, body[:500]
        provider.redeliver_failed()
        assert provider.push(rows[5], commits[5], delivery="delivery-5") == 200  # and once more: a duplicate

        # 4. Beat's periodic tasks until everything is final.
        def beat():
            sweep_stuck_scans()
            redeliver_pending()

        scan_ids = patiently(lambda: list(Scan.objects.filter(repository__in=rows).values_list("pk", flat=True)))
        final = wait_all_final(scan_ids, beat, timeout=180)
    finally:
        web.stop()
        worker.stop()

    # Every delivery id is stored once and has sent its scan; every pushed commit has exactly one scan.
    deliveries = list(WebhookDelivery.objects.select_related("scan"))
    assert sorted(d.delivery_id for d in deliveries) == sorted(provider.sent)
    assert all(d.state == WebhookDelivery.State.ENQUEUED and d.scan is not None for d in deliveries)
    scans_per_commit = Counter(Scan.objects.filter(repository__in=rows).values_list("repository", "commit_sha"))
    assert set(scans_per_commit) == {(row.pk, commit) for row, commit in zip(rows, commits)}
    duplicates = sum(n - 1 for n in scans_per_commit.values())
    assert duplicates == 0
    outcome = Counter(s.status for s in final.values())
    assert outcome[ScanStatus.FINISHED] == len(rows), {pk: (s.status, s.error_code) for pk, s in final.items()}
    for row in rows:
        assert [r[1:] for r in finding_rows(row)] == expected, row.name
        assert set(events_per_finding(row).values()) == {1}
    fault_counts["restarts"] = {
        "scans": len(final),
        "finished": outcome[ScanStatus.FINISHED],
        "failed": outcome[ScanStatus.FAILED],
        "superseded": outcome[ScanStatus.SUPERSEDED],
        "retried": sum(1 for s in final.values() if s.attempts > 1),
        "deliveries_sent": len(provider.answers),
        "deliveries_unique": len(provider.sent),
        "deliveries_processed": sum(1 for d in deliveries if d.scan_id),
        "duplicate_scans": duplicates,
        "answers_5xx_while_postgresql_down": len(down_answers),
        "slowest_answer_seconds_while_redis_down": round(max(a[3] for a in redis_down_answers), 3),
        "postgresql_stopped_during": stopped_during,
        "answers": dict(Counter(status for _, status, _, _ in provider.answers)),
    }
    print(fault_counts["restarts"])


def test_a_queued_scan_whose_message_redis_lost_is_sent_again(people, tmp_path, broker):
    repo = GitRepo.create(tmp_path / "project")
    commit = repo.commit("c", **{"k0.cu": cuda_file(0, 0)})
    row = Repository.objects.create(team=people.team, name="queued", clone_url=repo.url)
    queued = do_create_scan(row, commit_sha=commit)  # its message waits in Redis: no worker is running yet
    assert redis_client.Redis.from_url(broker.url).llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 1
    broker.stop()
    broker.start()  # nothing kept on disk: the message is gone, the row still says queued
    worker = Worker(tmp_path / "worker.log")
    try:
        final = wait_all_final([queued.pk], sweep_stuck_scans, timeout=15)
    finally:
        worker.stop()
    assert final[queued.pk].status == ScanStatus.FINISHED
