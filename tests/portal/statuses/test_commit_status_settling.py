"""A commit status always settles on the git host: a scan superseded while it was running gets a verdict for its
commit (no "pending" left forever), and a post queued while the broker was down is sent when it comes back.
The host is the stand-in of tests/portal/githosts.py; the broker a Redis server of the test's own, stopped and
started again."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from portal.celery import app as celery_app
from portal.scans.actions import do_create_scan
from portal.scans.pipeline import runner as pipeline
from portal.statuses.actions import queue_commit_status
from portal.statuses.models import StatusPost
from portal.statuses.publishing import UNPUBLISHED
from portal.statuses.tasks import post_commit_status, resend_unpublished
from tests.portal.githosts import GitHost
from tests.portal.statuses.test_commit_status import KERNEL, expected_path, register
from tests.portal.webhook_stack import Redis


@pytest.fixture
def github():
    host = GitHost.start("github", "ghp_s3cret-status-token-0123456789")
    yield host
    host.stop()


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def own_broker(tmp_path):
    """The test process publishes to a Redis server of its own (the app's connection pools are per URL)."""
    redis = Redis(tmp_path)
    saved = celery_app.conf.broker_url, celery_app.conf.broker_write_url

    def point_at(urls: tuple[str, str]) -> None:
        celery_app.conf.broker_url, celery_app.conf.broker_write_url = urls
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    point_at((redis.url, redis.url))
    yield redis
    point_at(saved)
    if redis.process.poll() is None:
        redis.stop()


@pytest.mark.django_db
def test_a_scan_superseded_after_its_pending_status_gets_a_verdict(
    people, repo_factory, github, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    c1 = repo.commit("kernel", **{"src/k.cu": KERNEL})
    c2 = repo.commit("more", **{"src/l.cu": KERNEL})
    row = register(people, repo, github)
    running = do_create_scan(row, commit_sha=c1, enqueue=False)
    with django_capture_on_commit_callbacks(execute=True):
        queue_commit_status(running, StatusPost.Phase.STARTED)  # what the worker's scan_started does
    assert [s["state"] for s in github.statuses()] == ["pending"]

    with django_capture_on_commit_callbacks(execute=True):  # the push of c2 creates its scan
        newer = do_create_scan(row, commit_sha=c2, enqueue=False)
    with django_capture_on_commit_callbacks(execute=True):
        pipeline.run(newer.pk)
    newer.refresh_from_db()
    running.refresh_from_db()
    assert running.status == "superseded" and newer.status == "finished"
    by_path = {(r.path, r.body["state"]) for r in github.received if r.answer == 201}
    assert (expected_path("github", c1), "error") in by_path  # the older commit is no longer pending
    verdict = next(
        r.body for r in github.received if r.path == expected_path("github", c1) and r.body["state"] == "error"
    )
    assert "newer scan" in verdict["description"]
    assert StatusPost.objects.get(scan=running, phase="ended").outcome == "sent"


@pytest.mark.django_db
def test_a_scan_superseded_before_it_started_posts_nothing(
    people, repo_factory, github, eager, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    c1 = repo.commit("kernel", **{"src/k.cu": KERNEL})
    row = register(people, repo, github)
    queued = do_create_scan(row, commit_sha=c1, enqueue=False)
    with django_capture_on_commit_callbacks(execute=True):
        do_create_scan(row, commit_sha=c1, enqueue=False)
    queued.refresh_from_db()
    assert queued.status == "superseded"
    assert github.received == [] and not StatusPost.objects.filter(scan=queued).exists()


@pytest.mark.django_db
def test_a_status_queued_while_the_broker_is_down_is_sent_when_it_is_back(
    people, repo_factory, github, own_broker, django_capture_on_commit_callbacks
):
    repo = repo_factory()
    c1 = repo.commit("kernel", **{"src/k.cu": KERNEL})
    row = register(people, repo, github)
    scan = do_create_scan(row, commit_sha=c1, enqueue=False)
    own_broker.stop()
    with django_capture_on_commit_callbacks(execute=True):
        post = queue_commit_status(scan, StatusPost.Phase.STARTED)  # nothing raised: the scan goes on
    post.refresh_from_db()
    assert (post.outcome, post.detail) == ("queued", UNPUBLISHED)
    assert resend_unpublished() == 0  # still down: the mark stays
    assert StatusPost.objects.get(pk=post.pk).detail == UNPUBLISHED

    own_broker.start()
    assert resend_unpublished() == 1
    queued = redis.Redis.from_url(own_broker.url).lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    assert len(queued) == 1 and b"post_commit_status" in queued[0]  # on the broker now, for any worker
    post.refresh_from_db()
    assert (post.outcome, post.detail) == ("queued", "")
    assert resend_unpublished() == 0  # nothing marked any more: never published twice
    post_commit_status.apply(args=[post.pk])  # what the worker taking the message runs
    post.refresh_from_db()
    assert post.outcome == "sent" and [s["state"] for s in github.statuses()] == ["pending"]
