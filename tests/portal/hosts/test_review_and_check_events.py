"""Each host's review and CI check deliveries (tests/fixtures/webhooks/README.md, "Reviews and checks"), recorded or
documented, read as what they say by the host modules' `review_events` / `check_events`; malformed ones are refused;
a host that declares none (the fifth, test-only host, untouched) records them as "other"."""

from __future__ import annotations

import json

import pytest

from portal.hosts import registry
from portal.hosts import webhooks as providers
from tests.portal.hosts.fifth_host.host import TinyForge
from tests.portal.webhook_stack import fixture

HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the GitHub check fixtures' commit


def parse(provider: str, event: str, payload: dict):
    return providers.parse(provider, event, json.dumps(payload).encode(), "application/json")


def test_githubs_recorded_reviews_and_checks_read_as_they_say():
    review = parse("github", "pull_request_review", fixture("github/pull_request_review_approved.json"))
    assert (review.kind, review.number, review.branch, review.state, review.actor) == (
        "review",
        8,
        "patch-2",
        "approved",
        "baxterthehacker",
    )
    assert review.at == "2016-10-03T23:39:09Z"
    dismissed = parse("github", "pull_request_review", fixture("github/pull_request_review_dismissed.json"))
    assert (dismissed.kind, dismissed.state, dismissed.actor, dismissed.number) == (
        "review",
        "dismissed",
        "Codertocat",
        2,
    )
    suite = parse("github", "check_suite", fixture("github/check_suite_completed.json"))
    assert (suite.kind, suite.number, suite.branch, suite.state, suite.actor) == (
        "check",
        2,
        "changes",
        "passing",
        "octocoders-linter",
    )
    assert suite.after == HEAD
    run = parse("github", "check_run", fixture("github/check_run_completed.json"))
    assert (run.kind, run.number, run.state, run.actor) == ("check", 2, "passing", "Octocoders-linter")
    assert run.url == "https://github.com/Codertocat/Hello-World/runs/128620228"
    status = parse("github", "status", fixture("github/status.json"))
    assert (status.kind, status.number, status.state, status.actor, status.url) == (
        "check",
        0,
        "passing",
        "default",
        "",
    )
    assert status.after == "6113728f27ae82c7b1a177c8d03f9e96e0adf246"


def test_gitlabs_recorded_merge_request_note_and_pipeline_read_as_they_say():
    opened = parse("gitlab", "Merge Request Hook", fixture("gitlab/merge_request.json"))
    assert (opened.kind, opened.state) == ("merge_request", "open")  # not an approval: its state, as before
    approval = fixture("gitlab/merge_request.json")
    approval["object_attributes"]["action"] = "approved"
    approved = parse("gitlab", "Merge Request Hook", approval)
    assert (approved.kind, approved.state, approved.actor, approved.number, approved.branch) == (
        "review",
        "approved",
        "root",
        1,
        "ms-viewport",
    )
    approval["object_attributes"]["action"] = "unapproval"
    assert parse("gitlab", "Merge Request Hook", approval).state == "dismissed"
    note = parse("gitlab", "Note Hook", fixture("gitlab/note_merge_request.json"))
    assert (note.kind, note.state, note.actor, note.number, note.branch) == ("review", "commented", "root", 1, "master")
    pipeline = parse("gitlab", "Pipeline Hook", fixture("gitlab/pipeline.json"))
    assert (pipeline.kind, pipeline.number, pipeline.branch, pipeline.state, pipeline.actor) == (
        "check",
        1,
        "test",
        "passing",
        "pipeline_name",  # the pipeline's name (workflow:name); "pipeline" when it has none
    )
    assert pipeline.after == "bcbb5ec396a2c0f828686f14fac9b80b780504f2"
    assert pipeline.at == "2016-08-12 15:26:29 UTC"  # GitLab's own date form, read by portal.ports.host_state


def test_gitlabs_documented_reviewer_states_read_as_they_say():
    documented = parse("gitlab", "Merge Request Hook", fixture("gitlab/merge_request_reviewers.json"))
    assert (documented.kind, documented.state, documented.number, documented.branch) == (
        "merge_request",
        "open",
        16,
        "feature/booking-validation",
    )
    assert documented.reviews == (("sjones", "unreviewed"),)
    assert documented.at == "2026-01-16 05:56:26 UTC"  # actioned_at (18.10+), before updated_at
    payload = fixture("gitlab/merge_request_reviewers.json")
    payload["object_attributes"]["action"] = "update"  # a submitted review (gitlab-org/gitlab!246562)
    for sent, read in (
        ("requested_changes", "changes_requested"),
        ("approved", "approved"),
        ("reviewed", "commented"),
        ("unapproved", "dismissed"),
        ("review_started", "unreviewed"),
    ):
        payload["reviewers"][0]["state"] = sent
        assert parse("gitlab", "Merge Request Hook", payload).reviews == (("sjones", read),)
    payload["reviewers"].append({**payload["reviewers"][0], "username": "kim", "state": "something_new"})
    assert parse("gitlab", "Merge Request Hook", payload).reviews == (("sjones", "unreviewed"),)
    del payload["object_attributes"]["actioned_at"]
    payload["object_attributes"]["action"] = "approval"  # an approval carries them too
    approval = parse("gitlab", "Merge Request Hook", payload)
    assert (approval.kind, approval.state, approval.actor, approval.at) == (
        "review",
        "approved",
        "agarcia",
        "2026-01-16 05:56:25 UTC",
    )
    assert approval.reviews == (("sjones", "unreviewed"),)
    older = parse("gitlab", "Merge Request Hook", fixture("gitlab/merge_request.json"))
    assert (older.reviews, older.at) == ((), "")  # reviewers without a state: nothing to read
    payload["reviewers"][0]["username"] = 25
    with pytest.raises(ValueError):
        parse("gitlab", "Merge Request Hook", payload)


@pytest.mark.parametrize("provider", ["gitea", "forgejo"])
def test_giteas_recorded_review_and_documented_status_read_as_they_say(provider):
    review = parse(provider, "pull_request_comment", fixture("gitea/pull_request_review.json"))
    assert (review.kind, review.state, review.actor, review.number, review.branch) == (
        "review",
        "commented",
        "example",
        2,
        "master",
    )
    for event, kind, state in (
        ("pull_request_approved", "pull_request_review_approved", "approved"),
        ("pull_request_rejected", "pull_request_review_rejected", "changes_requested"),
    ):
        payload = fixture("gitea/pull_request_review.json")
        payload["review"]["type"] = kind
        assert parse(provider, event, payload).state == state
        del payload["review"]
        assert parse(provider, event, payload).state == state  # the event's name says it too
    status = parse(provider, "status", fixture("gitea/status.json"))
    assert (status.kind, status.state, status.actor, status.number) == ("check", "passing", "ci/build", 0)
    assert status.url == "https://ci.example.com/acme/kernels/builds/812"


def test_a_host_that_declares_no_review_events_records_them_as_other():
    with registry.registered(TinyForge()):
        body = json.dumps(fixture("github/pull_request_review_approved.json")).encode()
        assert providers.parse("tinyforge", "pull_request_review", body, "application/json").kind == "other"


@pytest.mark.parametrize(
    "event, payload",
    [
        ("pull_request_review", {"review": {"state": "approved"}, "pull_request": {"number": "8"}}),
        ("pull_request_review", {"review": {"state": "approved", "user": {"login": "a\x00b"}}, "number": 3}),
        ("check_suite", {"check_suite": {"head_sha": 5, "status": "completed"}}),
    ],
)
def test_a_malformed_review_or_check_is_refused(event, payload):
    with pytest.raises(ValueError):
        parse("github", event, payload)
