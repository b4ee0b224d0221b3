"""Asking for a merge request, and asking again after a failure. Two clicks make one request: the content's key
(the scanned commit and the files) is unique among active requests, so the second insert finds the first."""

from __future__ import annotations

import hashlib

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from portal.files import patch
from portal.ports import planning, tasks
from portal.ports.models import PREFIX, MergeRequest


def _key(commit: str, files: list[str], mode: str) -> str:
    return hashlib.sha256("\n".join([commit, mode, *sorted(files)]).encode()).hexdigest()


def do_open_merge_request(
    repository, paths: list[str] | None, *, acting_user, mode: str = planning.IN_PLACE
) -> tuple[MergeRequest, bool]:
    """(the request, whether it is new): every approved translation that applies to the newest scan (or those of
    `paths`) on a new branch, in place or side by side (`mode`); queued for a worker."""
    if mode not in (planning.IN_PLACE, planning.SIDE_BY_SIDE):
        raise ValidationError(_("Unknown port mode."))
    config = getattr(repository, "commit_status", None)
    if config is None or not config.token_encrypted or not config.api_url or not config.project:
        raise ValidationError(
            _(
                "Connect the git host first: in Settings, under commit statuses, give the provider, the API URL, the "
                "project and a token that can open merge requests."
            )
        )
    selection = patch.reviewed(repository, paths)
    if not selection.blobs:
        raise ValidationError(
            _("No reviewed translation applies to the newest scan: review a file's translation first.")
        )
    files = sorted(selection.blobs)
    left = [[path, "reviewed on an older version of the file: review it again"] for path in selection.outdated]
    left += [[path, "the stored text is not the file's exact bytes: edit it by hand"] for path in selection.unusable]
    key = _key(selection.commit, files, mode)
    try:
        with transaction.atomic():
            request = MergeRequest.objects.create(
                repository=repository,
                created_by=acting_user,
                base_commit=selection.commit,
                target_branch=repository.default_branch,
                files=files,
                mode=mode,
                left_for_people=left,
                key=key,
            )
            request.branch = f"{PREFIX}{request.pk}"
            request.save(update_fields=["branch"])
            transaction.on_commit(lambda: tasks.open_merge_request.delay(request.pk))
    except IntegrityError:
        existing = MergeRequest.objects.get(repository=repository, key=key, state__in=MergeRequest.ACTIVE)
        return existing, False
    return request, True


def do_retry_merge_request(request: MergeRequest, *, acting_user) -> MergeRequest:
    """A failed request tries again from the step that failed (a pushed branch is not pushed twice)."""
    if request.state != MergeRequest.State.FAILED:
        raise ValidationError(_("Only a failed merge request can be tried again."))
    try:
        with transaction.atomic():
            request.state = MergeRequest.State.QUEUED
            request.save(update_fields=["state", "updated"])
            transaction.on_commit(lambda: tasks.open_merge_request.delay(request.pk))
    except IntegrityError:
        request.state = MergeRequest.State.FAILED  # the row was not changed: neither is the caller's copy
        raise ValidationError(_("Another merge request with the same files is already open.")) from None
    return request
