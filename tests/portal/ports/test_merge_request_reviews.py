"""A merge request's reviews and CI checks, followed from the host: each host's recorded (or documented) review and
check deliveries (tests/fixtures/webhooks/README.md, "Reviews and checks"; how they parse:
tests/portal/hosts/test_review_and_check_events.py) sent signed through the real webhook endpoint for a request
ROCport opened (our number and branch, or our pushed commit), shown on the request's page and in the API's detail;
another request's events or a bad signature change nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from portal.ports import host_state
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository
from tests.portal.api_clients import ApiClient
from tests.portal.people import client_for
from tests.portal.webhook_stack import fixture, signed

OURS = "rocport/port-7"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the commit ROCport pushed (the GitHub check fixtures' sha)


# -- through the endpoint, for ROCport's own request --------------------------------------------------------


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="r", clone_url="https://example.com/r.git")


@pytest.fixture
def ours(repository):
    return MergeRequest.objects.create(
        repository=repository,
        base_commit="c" * 40,
        target_branch="main",
        files=["a.cu"],
        key="k1",
        branch=OURS,
        number=12,
        head_commit=HEAD,
        state=MergeRequest.State.OPEN,
    )


def deliver(repository, provider: str, event: str, payload: dict, **extra_headers) -> tuple[int, str]:
    raw = json.dumps(payload).encode()
    headers = {**signed(provider, repository.webhook_secret, raw, event=event), **extra_headers}
    response = Client().post(
        reverse("webhooks:receive", args=[repository.pk, provider]),
        data=raw,
        content_type="application/json",
        headers=headers,
    )
    return response.status_code, response.content.decode()


def github_review(state: str, reviewer: str, number: int = 12, branch: str = OURS, at: str = "") -> dict:
    payload = fixture("github/pull_request_review_approved.json")
    payload["review"].update(state=state, user={**payload["review"]["user"], "login": reviewer})
    if at:
        payload["review"]["submitted_at"] = at
    payload["pull_request"]["number"] = number
    payload["pull_request"]["head"]["ref"] = branch
    return payload


def github_check(conclusion: str | None, number: int = 12, branch: str = OURS) -> dict:
    payload = fixture("github/check_run_completed.json")
    run = payload["check_run"]
    run["status"] = "completed" if conclusion else "in_progress"
    run["conclusion"] = conclusion
    run["check_suite"]["head_branch"] = branch
    run["pull_requests"][0]["number"] = number
    run["pull_requests"][0]["head"]["ref"] = branch
    return payload


@pytest.mark.django_db
def test_github_reviews_and_checks_reach_the_page_and_the_api(people, repository, ours):
    status, text = deliver(repository, "github", "pull_request_review", github_review("approved", "alice-gh"))
    assert status == 202 and "review approved by alice-gh" in text
    deliver(repository, "github", "pull_request_review", github_review("changes_requested", "carol-gh"))
    deliver(repository, "github", "check_run", github_check("failure"))
    suite = fixture("github/check_suite_completed.json")
    suite["check_suite"]["head_branch"] = OURS
    suite["check_suite"]["pull_requests"][0].update(number=12, head={"ref": OURS, "sha": HEAD})
    status, text = deliver(repository, "github", "check_suite", suite)
    assert status == 202 and "check octocoders-linter passing" in text
    ours.refresh_from_db()
    assert ours.host_heard is not None
    summary = host_state.summary(ours.host_state)
    assert (summary["review"], summary["reviewers"], summary["checks_state"]) == (
        "changes_requested",
        ["carol-gh"],
        "failing",
    )
    page = client_for(people.vera).get(reverse("ports:detail", args=[repository.pk, ours.pk])).content.decode()
    assert 'data-review="changes_requested"' in page and "changes requested by carol-gh" in page
    assert 'data-checks="failing"' in page and 'data-check-state="passing"' in page
    assert (
        'href="https://github.com/Codertocat/Hello-World/runs/128620228"' in page and "Last heard from the host" in page
    )
    chinese = client_for(people.vera).get(
        reverse("ports:detail", args=[repository.pk, ours.pk]), headers={"Accept-Language": "zh-Hans"}
    )
    assert "carol-gh 要求修改" in chinese.content.decode()
    body = ApiClient(people.vera).get(f"/merge-requests/{ours.pk}/").json()["host"]
    assert (body["review"], body["checks_state"], body["checks_commit"]) == ("changes_requested", "failing", HEAD)
    assert {(r["reviewer"], r["state"]) for r in body["reviews"]} == {
        ("alice-gh", "approved"),
        ("carol-gh", "changes_requested"),
    }
    assert {(c["name"], c["state"]) for c in body["checks"]} == {
        ("Octocoders-linter", "failing"),
        ("octocoders-linter", "passing"),
    }
    assert body["heard"] is not None
    # carol approves after all; the check runs again and passes
    deliver(repository, "github", "pull_request_review", github_review("approved", "carol-gh"))
    deliver(repository, "github", "check_run", github_check("success"))
    ours.refresh_from_db()
    summary = host_state.summary(ours.host_state)
    assert (summary["review"], summary["reviewers"], summary["checks_state"]) == (
        "approved",
        ["alice-gh", "carol-gh"],
        "passing",
    )


@pytest.mark.django_db
def test_a_commit_status_is_matched_by_the_commit_rocport_pushed(people, repository, ours):
    status_payload = fixture("github/status.json")
    status, text = deliver(repository, "github", "status", status_payload)  # another commit
    assert status == 202 and "not a merge request ROCport opened" in text
    status_payload["sha"], status_payload["state"] = HEAD, "pending"
    status, text = deliver(repository, "github", "status", status_payload)
    assert status == 202 and "merge request 12: check default pending" in text
    ours.refresh_from_db()
    assert host_state.summary(ours.host_state)["checks_state"] == "pending"


@pytest.mark.django_db
def test_another_requests_reviews_and_checks_change_nothing(repository, ours):
    for event, payload in (
        ("pull_request_review", github_review("approved", "x", number=12, branch="feature/x")),
        ("pull_request_review", github_review("approved", "x", number=13, branch=OURS)),
        ("check_run", github_check("failure", number=12, branch="feature/x")),
    ):
        status, text = deliver(repository, "github", event, payload)
        assert status == 202 and "nothing to track" in text, text
    ours.refresh_from_db()
    assert ours.host_state == {} and ours.host_heard is None


@pytest.mark.django_db
def test_a_review_with_a_bad_signature_changes_nothing(repository, ours):
    raw = json.dumps(github_review("approved", "mallory")).encode()
    response = Client().post(
        reverse("webhooks:receive", args=[repository.pk, "github"]),
        data=raw,
        content_type="application/json",
        headers=signed("github", "not-the-secret", raw, event="pull_request_review"),
    )
    assert response.status_code == 403
    ours.refresh_from_db()
    assert ours.host_state == {}


@pytest.mark.django_db
def test_gitlab_approval_note_and_pipeline_through_the_endpoint(people, repository, ours):
    approval = fixture("gitlab/merge_request.json")
    approval["object_attributes"].update(action="approved", iid=12, source_branch=OURS)
    assert deliver(repository, "gitlab", "Merge Request Hook", approval)[0] == 202
    note = fixture("gitlab/note_merge_request.json")
    note["merge_request"].update(iid=12, source_branch=OURS)
    note["user"] = {**note["user"], "username": "dana"}
    assert deliver(repository, "gitlab", "Note Hook", note)[0] == 202
    pipeline = fixture("gitlab/pipeline.json")
    pipeline["merge_request"].update(iid=12, source_branch=OURS)
    pipeline["object_attributes"]["sha"] = HEAD
    pipeline["object_attributes"].update(status="failed", name=None)
    status, text = deliver(repository, "gitlab", "Pipeline Hook", pipeline)
    assert status == 202 and "check pipeline failing" in text
    ours.refresh_from_db()
    assert ours.state == "open"  # an approval is not a state change
    summary = host_state.summary(ours.host_state)
    assert [(r["reviewer"], r["state"]) for r in summary["reviews"]] == [("dana", "commented"), ("root", "approved")]
    assert (summary["review"], summary["checks_state"]) == ("approved", "failing")
    approval["object_attributes"]["action"] = "unapproved"
    deliver(repository, "gitlab", "Merge Request Hook", approval)
    ours.refresh_from_db()
    assert host_state.summary(ours.host_state)["review"] == "commented"


def gitlab_reviewers(action: str, *standings: tuple[str, str], number: int = 12, at: str = "") -> dict:
    """The documented Merge Request Hook with our number and branch and these reviewers' states."""
    payload = fixture("gitlab/merge_request_reviewers.json")
    payload["object_attributes"].update(action=action, iid=number, source_branch=OURS)
    if at:
        payload["object_attributes"]["actioned_at"] = at
    documented = payload["reviewers"][0]
    payload["reviewers"] = [{**documented, "username": name, "state": state} for name, state in standings]
    return payload


@pytest.mark.django_db
def test_gitlab_changes_requested_through_the_endpoint(people, repository, ours):
    requested = gitlab_reviewers("update", ("sjones", "requested_changes"), ("kim", "unreviewed"))
    status, text = deliver(repository, "gitlab", "Merge Request Hook", requested)
    assert status == 202 and "reviewers sjones changes_requested, kim unreviewed" in text, text
    ours.refresh_from_db()
    assert ours.state == "open" and ours.host_heard is not None
    summary = host_state.summary(ours.host_state)
    assert (summary["review"], summary["reviewers"]) == ("changes_requested", ["sjones"])
    page = client_for(people.vera).get(reverse("ports:detail", args=[repository.pk, ours.pk])).content.decode()
    assert 'data-review="changes_requested"' in page and "changes requested by sjones" in page
    body = ApiClient(people.vera).get(f"/merge-requests/{ours.pk}/").json()["host"]
    assert (body["review"], [(r["reviewer"], r["state"]) for r in body["reviews"]]) == (
        "changes_requested",
        [("sjones", "changes_requested")],
    )
    # kim approves (an approval action, listing the states again); the change request still outweighs it
    approval = gitlab_reviewers(
        "approval", ("sjones", "requested_changes"), ("kim", "approved"), at="2026-01-16 06:10:00 UTC"
    )
    approval["user"]["username"] = "kim"
    assert "review approved by kim" in deliver(repository, "gitlab", "Merge Request Hook", approval)[1]
    ours.refresh_from_db()
    assert host_state.summary(ours.host_state)["review"] == "changes_requested"
    # the author asks sjones again (re_requested): the change request no longer stands
    again = gitlab_reviewers("update", ("sjones", "unreviewed"), ("kim", "approved"), at="2026-01-16 07:00:00 UTC")
    again["reviewers"][0]["re_requested"] = True
    deliver(repository, "gitlab", "Merge Request Hook", again)
    ours.refresh_from_db()
    summary = host_state.summary(ours.host_state)
    assert (summary["review"], summary["reviewers"]) == ("approved", ["kim"])
    # a merge listing them too is still a merge
    merged = gitlab_reviewers("merge", ("sjones", "approved"), ("kim", "approved"), at="2026-01-16 08:00:00 UTC")
    merged["object_attributes"]["state"] = "merged"
    status, text = deliver(repository, "gitlab", "Merge Request Hook", merged)
    assert status == 202 and "open -> merged" in text, text
    ours.refresh_from_db()
    assert ours.state == "merged"
    assert host_state.summary(ours.host_state)["reviewers"] == ["kim", "sjones"]


@pytest.mark.django_db
def test_another_gitlab_requests_reviewer_states_change_nothing(repository, ours):
    status, text = deliver(
        repository, "gitlab", "Merge Request Hook", gitlab_reviewers("update", ("x", "requested_changes"), number=13)
    )
    assert status == 202 and "nothing to track" in text and "reviewers" not in text, text
    ours.refresh_from_db()
    assert ours.host_state == {} and ours.host_heard is None


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["gitea", "forgejo"])
def test_gitea_and_forgejo_reviews_and_statuses_through_the_endpoint(people, repository, ours, provider):
    review = fixture("gitea/pull_request_review.json")
    review["review"]["type"] = "pull_request_review_rejected"
    review["number"] = review["pull_request"]["number"] = 12
    review["pull_request"]["head"]["ref"] = OURS
    status, text = deliver(repository, provider, "pull_request_rejected", review)
    assert status == 202 and "review changes_requested by example" in text
    commit_status = fixture("gitea/status.json")
    commit_status["sha"] = HEAD
    # older Gitea names a status only in the type header: X-Gitea-Event (and Forgejo's) is empty
    empty = {"X-Gitea-Event": "", "X-Gitea-Event-Type": "status"}
    if provider == "forgejo":
        empty.update({"X-Forgejo-Event": "", "X-Forgejo-Event-Type": "status"})
    status, text = deliver(repository, provider, "status", commit_status, **empty)
    assert status == 202 and "check ci/build passing" in text, text
    ours.refresh_from_db()
    summary = host_state.summary(ours.host_state)
    assert (summary["review"], summary["checks_state"]) == ("changes_requested", "passing")
