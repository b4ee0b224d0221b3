"""Keeping a merge request's state current: from the host's pull request / merge request webhooks (verified by
portal.webhooks before this runs), and from the reconciliation task (portal.ports.tasks) that asks the host,
because a webhook is a hint that can be lost; and the reviews and CI checks the host reports (portal.ports.host_state).
Only requests ROCport opened are touched: matched by number *and* by the branch ROCport pushed, or, for a commit
status that names no request, by the commit ROCport pushed (its own commit, on its own branch).
When one merges, the push webhook (or the branch-head reconciliation) scans the default branch, and that scan
closes the findings the port fixed, and the files' reviews hold on their new content (TranslationReview's
translation blob): progress moves with no step of its own here."""

from __future__ import annotations

import logging
import re

from django.db import transaction
from django.utils import timezone

from portal.hosts.payloads import Push
from portal.ports import host_state
from portal.ports.models import MergeRequest

log = logging.getLogger(__name__)

FINAL = {"merged": MergeRequest.State.MERGED, "closed": MergeRequest.State.CLOSED}
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def record_host_state(repository, number: int, branch: str, state: str) -> str:
    """Apply a state the host reported; returns what happened, for the delivery's record."""
    with transaction.atomic():
        request = (
            MergeRequest.objects.select_for_update().filter(repository=repository, number=number, branch=branch).first()
        )
        if request is None:
            return f"merge request {number} was not opened by ROCport; nothing to track"
        new = FINAL.get(state, MergeRequest.State.OPEN if state == "open" else "")
        if not new or new == request.state:
            return f"merge request {number} is {request.state}; no change"
        old, request.state = request.state, new
        request.save(update_fields=["state", "updated"])
    log.info("merge request %s of repository %s: %s -> %s", request.pk, repository.pk, old, new)
    return f"merge request {number}: {old} -> {new}"


def record_request_event(repository, push: Push) -> str:
    """A merge request event (push.kind "merge_request"): its state, then where its reviewers stand when the host
    lists them (GitLab)."""
    said = record_host_state(repository, push.number, push.branch, push.state)
    if (
        not push.reviews
        or not MergeRequest.objects.filter(repository=repository, number=push.number, branch=push.branch).exists()
    ):
        return said
    return f"{said}; {record_review(repository, push).removeprefix(f'merge request {push.number}: ')}"


def _ours(repository, number: int, branch: str) -> MergeRequest | None:
    return MergeRequest.objects.select_for_update().filter(repository=repository, number=number, branch=branch).first()


def record_review(repository, push: Push) -> str:
    """Apply a review the host reported (push.kind "review"), then where each reviewer stands (`push.reviews`, of
    a review or a merge request event); returns what happened, for the delivery's record."""
    with transaction.atomic():
        request = _ours(repository, push.number, push.branch)
        if request is None:
            return f"merge request {push.number} was not opened by ROCport; nothing to track"
        said, changed = [], False
        if push.kind == "review":
            changed = host_state.apply_review(request.host_state, push.actor, push.state, push.at)
            said.append(f"review {push.state} by {push.actor or '?'}")
        for reviewer, standing in push.reviews:
            changed = host_state.apply_standing(request.host_state, reviewer, standing, push.at) or changed
        if push.reviews:
            said.append("reviewers " + ", ".join(f"{reviewer} {standing}" for reviewer, standing in push.reviews))
        request.host_heard = timezone.now()
        request.save(update_fields=["host_state", "host_heard", "updated"])
    return f"merge request {push.number}: " + "; ".join(said) + ("" if changed else "; kept")


def record_check(repository, push: Push) -> str:
    """Apply a CI check the host reported (push.kind "check"): for the request it names, else for the request
    whose pushed commit it reports on."""
    with transaction.atomic():
        if push.number:
            request = _ours(repository, push.number, push.branch)
        elif _SHA.fullmatch(push.after):
            found = MergeRequest.objects.select_for_update().filter(
                repository=repository, head_commit=push.after, number__isnull=False
            )
            request = (found.filter(branch=push.branch) if push.branch else found).first()
        else:
            request = None
        if request is None:
            return (
                f"check {push.actor} of {push.after[:10] or '?'}: not a merge request ROCport opened; nothing to track"
            )
        changed = host_state.apply_check(request.host_state, push.actor, push.state, push.url, push.after, push.at)
        request.host_heard = timezone.now()
        request.save(update_fields=["host_state", "host_heard", "updated"])
    return f"merge request {request.number}: check {push.actor} {push.state}" + ("" if changed else "; kept")
