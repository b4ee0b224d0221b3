"""A merge request's state kept current from the host: pull request / merge request webhooks of the four hosts
(signed, through the real endpoint), only for requests ROCport opened, and the reconciliation that asks the host."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from portal.hosts import webhooks as providers
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository
from tests.portal.webhook_stack import signed

EVENT = {"github": "pull_request", "gitea": "pull_request", "forgejo": "pull_request", "gitlab": "Merge Request Hook"}


def payload(provider: str, number: int, branch: str, state: str) -> dict:
    """The fields each host documents for a pull request event (the rest of a real payload is left out)."""
    if provider == "gitlab":
        gitlab_state = {"open": "opened", "merged": "merged", "closed": "closed"}[state]
        action = {"open": "open", "merged": "merge", "closed": "close"}[state]
        return {
            "object_kind": "merge_request",
            "event_type": "merge_request",
            "object_attributes": {
                "iid": number,
                "state": gitlab_state,
                "action": action,
                "source_branch": branch,
                "target_branch": "main",
            },
        }
    return {
        "action": "closed" if state != "open" else "opened",
        "number": number,
        "pull_request": {
            "number": number,
            "state": "open" if state == "open" else "closed",
            "merged": state == "merged",
            "head": {"ref": branch, "sha": "a" * 40},
            "base": {"ref": "main", "sha": "b" * 40},
        },
    }


@pytest.mark.parametrize("provider", ["github", "gitlab", "gitea", "forgejo"])
@pytest.mark.parametrize("state", ["open", "merged", "closed"])
def test_each_hosts_pull_request_event_is_read(provider, state):
    body = json.dumps(payload(provider, 12, "rocport/port-7", state)).encode()
    push = providers.parse(provider, EVENT[provider], body, "application/json")
    assert (push.kind, push.number, push.branch, push.state) == ("merge_request", 12, "rocport/port-7", state)


@pytest.mark.parametrize("bad", [{}, {"pull_request": []}, {"pull_request": {"number": "12"}}, {"number": True}])
def test_a_pull_request_event_without_a_number_is_refused(bad):
    with pytest.raises(ValueError):
        providers.parse("github", "pull_request", json.dumps(bad).encode(), "application/json")


def deliver(repository: Repository, provider: str, body: dict) -> tuple[int, str]:
    raw = json.dumps(body).encode()
    headers = signed(provider, repository.webhook_secret, raw, event=EVENT[provider])
    response = Client().post(
        reverse("webhooks:receive", args=[repository.pk, provider]),
        data=raw,
        content_type="application/json",
        headers=headers,
    )
    return response.status_code, response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["github", "gitlab", "gitea", "forgejo"])
def test_a_merged_event_marks_rocports_request_merged_and_nothing_else(people, provider):
    repository = Repository.objects.create(team=people.team, name="r", clone_url="https://example.com/r.git")
    ours = MergeRequest.objects.create(
        repository=repository,
        base_commit="c" * 40,
        target_branch="main",
        files=["a.cu"],
        key="k1",
        branch="rocport/port-1",
        number=12,
        state=MergeRequest.State.OPEN,
    )
    # another pull request with the same number on another branch is not ours: nothing changes
    status, text = deliver(repository, provider, payload(provider, 12, "feature/x", "merged"))
    assert status == 202 and "not opened by ROCport" in text
    ours.refresh_from_db()
    assert ours.state == "open"
    status, text = deliver(repository, provider, payload(provider, 12, "rocport/port-1", "merged"))
    assert status == 202 and "open -> merged" in text
    ours.refresh_from_db()
    assert ours.state == "merged"
    # a late "closed" after the merge, or a redelivery, changes nothing more
    deliver(repository, provider, payload(provider, 12, "rocport/port-1", "merged"))
    ours.refresh_from_db()
    assert ours.state == "merged"


@pytest.mark.django_db
def test_a_pull_request_event_with_a_bad_signature_changes_nothing(people):
    repository = Repository.objects.create(team=people.team, name="r", clone_url="https://example.com/r.git")
    ours = MergeRequest.objects.create(
        repository=repository,
        base_commit="c" * 40,
        target_branch="main",
        files=["a.cu"],
        key="k1",
        branch="rocport/port-1",
        number=3,
        state=MergeRequest.State.OPEN,
    )
    raw = json.dumps(payload("github", 3, "rocport/port-1", "merged")).encode()
    headers = signed("github", "not-the-secret", raw, event="pull_request")
    response = Client().post(
        reverse("webhooks:receive", args=[repository.pk, "github"]),
        data=raw,
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 403
    ours.refresh_from_db()
    assert ours.state == "open"
