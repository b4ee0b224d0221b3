"""Reads of merge requests that pages of other apps need (the file and finding pages' badge) and the ports pages'
own checks: one query each, no writes."""

from __future__ import annotations

from portal.ports.models import MergeRequest


def host_ready(repository) -> bool:
    """Whether the git host connection that opens merge requests is filled in (as do_open_merge_request asks)."""
    config = getattr(repository, "commit_status", None)
    return bool(config is not None and config.token_encrypted and config.api_url and config.project)


def active_with(repository, path: str) -> MergeRequest | None:
    """The newest active merge request that carries `path` (the file and finding pages' badge): one query."""
    return (
        MergeRequest.objects.filter(repository=repository, state__in=MergeRequest.ACTIVE, files__contains=[path])
        .select_related("repository__commit_status")
        .order_by("-pk")
        .first()
    )
