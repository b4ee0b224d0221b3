"""Keeping a merge request's state current: from the host's pull request / merge request webhooks (verified by
portal.webhooks before this runs), and from the reconciliation task (portal.ports.tasks) that asks the host,
because a webhook is a hint that can be lost. Only requests ROCport opened are touched: matched by number *and* by the branch ROCport pushed.
When one merges, the push webhook (or the branch-head reconciliation) scans the default branch, and that scan
closes the findings the port fixed, and the files' reviews hold on their new content (TranslationReview's
translation blob): progress moves with no step of its own here."""

from __future__ import annotations

import logging

from django.db import transaction

from portal.ports.models import MergeRequest

log = logging.getLogger(__name__)

FINAL = {"merged": MergeRequest.State.MERGED, "closed": MergeRequest.State.CLOSED}


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
