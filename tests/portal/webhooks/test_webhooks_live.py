"""Webhooks over real HTTP (gunicorn), with PostgreSQL, our own Redis and a real Celery worker."""

from __future__ import annotations

import json

import pytest

from portal.repositories.models import Repository
from portal.scans.models import Scan
from portal.webhooks.models import WebhookDelivery, WebhookRejection
from tests.portal.webhook_stack import FIXTURES, Stack, fixture, push_body, signed
from tests.portal.worker import wait_final, wait_until

PROVIDERS = ("github", "gitlab", "gitea", "forgejo")
KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"
ZERO = "0" * 40


@pytest.fixture
def stack(tmp_path, transactional_db):
    stack = Stack(tmp_path)
    yield stack
    stack.stop()


@pytest.fixture
def project(people, repo_factory):
    repo = repo_factory()
    first = repo.commit("add", **{"k.cu": KERNEL})
    row = Repository.objects.create(team=people.team, name="project", clone_url=repo.url)
    return repo, row, first


def hook(row: Repository, provider: str) -> str:
    return f"/hooks/{row.pk}/{provider}/"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_signed_push_scans_exactly_that_commit(stack, project, provider):
    repo, row, first = project
    body = push_body(provider, "main", ZERO, first)
    status, data, _ = stack.post(hook(row, provider), body, signed(provider, row.webhook_secret, body))
    assert status == 202, data  # answered before the scan runs; its latency is bench/webhooks.py's (p99)
    delivery = WebhookDelivery.objects.get()
    assert (delivery.provider, delivery.after, delivery.scan.commit_sha) == (provider, first, first)
    scan = wait_final(delivery.scan.pk)
    assert (scan.status, scan.trigger, scan.commit_sha) == ("finished", "push", first)
    wait_until(lambda: WebhookDelivery.objects.get().state == "enqueued", what="the delivery to be enqueued")


# The review and check deliveries (tests/portal/ports/test_merge_request_reviews.py follows them to the page).
REVIEW_AND_CHECK_EVENTS = {
    "github/pull_request_review_approved.json": "pull_request_review",
    "github/pull_request_review_dismissed.json": "pull_request_review",
    "github/check_suite_completed.json": "check_suite",
    "github/check_run_completed.json": "check_run",
    "github/status.json": "status",
    "gitlab/merge_request.json": "Merge Request Hook",
    "gitlab/merge_request_reviewers.json": "Merge Request Hook",
    "gitlab/note_merge_request.json": "Note Hook",
    "gitlab/pipeline.json": "Pipeline Hook",
    "gitea/pull_request_review.json": "pull_request_comment",
    "gitea/status.json": "status",
}


def test_every_fixture_payload_is_accepted_when_signed_and_refused_when_not(stack, project):
    _, row, _ = project
    files = sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*.json"))
    assert len(files) == 22
    for name in files:
        provider = name.split("/")[0]
        body = (FIXTURES / name).read_bytes()  # the exact bytes, never re-serialised
        event = REVIEW_AND_CHECK_EVENTS.get(name) or {
            "ping.json": "ping",
            "tag_push.json": "tag",
            "create_branch.json": "create",
            "delete_branch.json": "delete",
        }.get(name.split("/")[1], "push")
        status, data, _ = stack.post(hook(row, provider), body, signed(provider, row.webhook_secret, body, event))
        assert status in (200, 202), (name, data)
        unsigned = {
            k: v
            for k, v in signed(provider, row.webhook_secret, body, event).items()
            if "Signature" not in k and "Token" not in k
        }
        status, _, _ = stack.post(hook(row, provider), body, unsigned)
        assert status == 401, name
    assert WebhookDelivery.objects.count() == len(files)
    assert WebhookRejection.objects.count() == len(files)


def test_bad_requests_are_refused_and_nothing_is_enqueued(stack, project):
    _, row, first = project
    body = push_body("github", "main", ZERO, first)
    good = signed("github", row.webhook_secret, body)
    assert stack.post(hook(row, "github"), body, signed("github", "wrong-secret", body))[0] == 403
    assert stack.post(hook(row, "gitlab"), body, signed("gitlab", "wrong-token", body))[0] == 403
    tampered = body.replace(first.encode(), b"f" * 40)
    assert stack.post(hook(row, "github"), tampered, good)[0] == 403
    assert stack.post(f"/hooks/{row.pk + 999}/github/", body, good)[0] == 404
    assert stack.post(f"/hooks/{row.pk}/bitbucket/", body, good)[0] == 404
    big = b'{"ref": "refs/heads/main", "pad": "' + b"x" * 300_000 + b'"}'
    assert stack.post(hook(row, "github"), big, signed("github", row.webhook_secret, big))[0] == 413
    bad_json = b"{not json"
    assert stack.post(hook(row, "github"), bad_json, signed("github", row.webhook_secret, bad_json))[0] == 400
    assert not Scan.objects.exists()
    assert WebhookRejection.objects.count() == 3  # the three that reached a real repository


def test_the_same_delivery_twice_and_a_replay_with_a_new_id_start_one_scan(stack, project):
    _, row, first = project
    body = push_body("gitea", "main", ZERO, first)
    headers = signed("gitea", row.webhook_secret, body, delivery="a-delivery")
    assert stack.post(hook(row, "gitea"), body, headers)[0] == 202
    assert stack.post(hook(row, "gitea"), body, headers)[0] == 200
    replay = signed("gitea", row.webhook_secret, body, delivery="a-replay")  # Gitea's replay: a new id
    status, data, _ = stack.post(hook(row, "gitea"), body, replay)
    assert status == 200 and "already scanned or queued" in data["result"]
    assert Scan.objects.count() == 1


def test_two_quick_pushes_supersede_the_first(stack, project):
    repo, row, first = project
    second = repo.commit("more", **{"b.cu": KERNEL})
    for before, after in ((ZERO, first), (first, second)):
        body = push_body("github", "main", before, after)
        assert stack.post(hook(row, "github"), body, signed("github", row.webhook_secret, body))[0] == 202
    older, newer = Scan.objects.order_by("id")
    assert wait_final(newer.pk).status == "finished"
    older.refresh_from_db()
    assert older.status in ("superseded", "finished")  # superseded unless the worker had already finished it
    assert Scan.objects.filter(status="superseded").count() + Scan.objects.filter(status="finished").count() == 2


def test_deliveries_arriving_while_redis_is_down_are_kept_and_scanned_later(stack, project):
    repo, row, first = project
    stack.redis.stop()
    commits = [first] + [repo.commit(f"c{i}", **{f"f{i}.cu": KERNEL}) for i in range(2)]
    branches = ["main", "main", "main"]
    for commit, branch in zip(commits, branches):
        body = push_body("forgejo", branch, ZERO, commit)
        status, data, _ = stack.post(hook(row, "forgejo"), body, signed("forgejo", row.webhook_secret, body))
        assert status == 202, data
    assert WebhookDelivery.objects.filter(state="pending").count() == 3
    stack.redis.start()
    wait_until(
        lambda: "redelivered: 3" in stack.maintenance("--redeliver"),
        timeout=60,
        what="the pending deliveries to be sent",
    )
    newest = Scan.objects.get(commit_sha=commits[-1])
    assert wait_final(newest.pk, timeout=120).status == "finished"
    assert WebhookDelivery.objects.filter(state="pending").count() == 0


def test_branch_deletions_and_tag_pushes_scan_nothing(stack, project):
    _, row, _ = project
    deletion = fixture("github/push_tag_deleted.json")
    deletion["ref"] = "refs/heads/main"
    body = json.dumps(deletion).encode()
    status, data, _ = stack.post(hook(row, "github"), body, signed("github", row.webhook_secret, body))
    assert status == 202 and "deleted" in data["result"]
    row.refresh_from_db()
    assert row.gone_branches == ["main"]
    tag = (FIXTURES / "gitlab/tag_push.json").read_bytes()
    status, data, _ = stack.post(hook(row, "gitlab"), tag, signed("gitlab", row.webhook_secret, tag, "tag"))
    assert status == 202 and "tag" in data["result"]
    gitea_delete = fixture("gitea/delete_branch.json")
    gitea_delete["ref"] = "main"
    body = json.dumps(gitea_delete, indent=2).encode()
    assert stack.post(hook(row, "gitea"), body, signed("gitea", row.webhook_secret, body, "delete"))[0] == 202
    assert not Scan.objects.exists()


def test_a_rotated_secret_keeps_the_old_one_for_its_grace_period(stack, project):
    _, row, first = project
    old = row.webhook_secret
    row.rotate_webhook_secret()
    row.save()
    body = push_body("github", "main", ZERO, first)
    assert stack.post(hook(row, "github"), body, signed("github", old, body))[0] == 202
    body2 = push_body("github", "main", first, first)
    assert stack.post(hook(row, "github"), body2, signed("github", row.webhook_secret, body2))[0] in (200, 202)


def test_reconciliation_scans_a_head_no_delivery_announced(stack, project):
    repo, row, first = project
    output = stack.maintenance("--reconcile")
    assert "scans started by reconciliation: 1" in output
    scan = Scan.objects.get(commit_sha=first)
    assert scan.trigger == "schedule" and wait_final(scan.pk).status == "finished"
    assert "scans started by reconciliation: 0" in stack.maintenance("--reconcile")
