"""API operations on merge requests ROCport made from reviewed translations (portal.ports): a repository's, newest
first in keyset pages; one request with what it left for people, when it failed the advice its page gives
(portal.ports.views, in the reader's language), and the reviews and CI checks the host reported; asking for one and
retrying a failed one through the pages' own actions (portal.ports.actions), engineers and up. Another team's repository or request is a 404."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Query, Router
from ninja.responses import Status

from portal.accounts.access import get_repository_for_user, membership_for
from portal.api import pages
from portal.api import schemas as s
from portal.api.access import need_engineer
from portal.ports.actions import do_open_merge_request, do_retry_merge_request
from portal.ports.host_state import summary
from portal.ports.models import MergeRequest
from portal.ports.texts import ADVICE, left_for_people

router = Router(tags=["merge requests"])


def merge_request_out(request: MergeRequest) -> dict:
    return {
        "id": request.pk,
        "repository_id": request.repository_id,
        "state": request.state,
        "in_flight": request.state in MergeRequest.IN_FLIGHT,
        "mode": request.mode,
        "base_commit": request.base_commit,
        "target_branch": request.target_branch,
        "files": [str(path) for path in request.files or []],
        "branch": request.branch,
        "head_commit": request.head_commit,
        "number": request.number,
        "label": request.label,
        "url": request.url,
        "error_code": request.error_code,
        "error_message": request.error_message,
        "created_by": request.created_by.username if request.created_by_id else None,
        "attempts": request.attempts,
        "created": request.created,
        "updated": request.updated,
    }


def _requests():
    # the label reads the repository's host connection (GitLab says !12)
    return MergeRequest.objects.select_related("created_by", "repository__commit_status")


@router.get(
    "/repositories/{repository_id}/merge-requests/",
    response={200: s.MergeRequestPage, **s.ERRORS},
    summary="A repository's merge requests, newest first, `limit` (50) per page",
)
def list_merge_requests(request, query: Query[s.MergeRequestQuery], repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    limit = pages.checked(query.limit)
    requests = _requests().filter(repository=repository)
    if query.state:
        requests = requests.filter(state=query.state)
    if query.before:
        before = int(query.before)
        if before > s.MAX_ID:
            raise ValidationError(_("The cursor is not one this API returned."))
        requests = requests.filter(pk__lt=before)
    # Keyset on the id (ids grow with creation, the page's newest-first order): as the scans' pages.
    rows = list(requests.order_by("-id")[: limit + 1])
    page = rows[:limit]
    return {"items": [merge_request_out(r) for r in page], "next": str(page[-1].pk) if len(rows) > limit else None}


@router.get(
    "/merge-requests/{merge_request_id}/",
    response={200: s.MergeRequestDetail, **s.ERRORS},
    summary="One merge request: its state, what it left for people, and what to do when it failed",
)
def get_merge_request(request, merge_request_id: int = s.path_id()):
    found, _membership = _request_for_user(request, merge_request_id)
    return merge_request_detail(found)


def merge_request_detail(found: MergeRequest) -> dict:
    return {
        **merge_request_out(found),
        "left_for_people": [{"path": path, "why": str(why)} for path, why, _english in left_for_people(found)],
        "advice": str(ADVICE.get(found.error_code, "")),
        "host": _host(found),
    }


def _host(found: MergeRequest) -> dict:
    """The page's reviews and checks (portal.ports.host_state), without its words: states stay codes here."""
    lines = summary(found.host_state)
    return {
        "review": lines["review"],
        "reviews": [r for r in lines["reviews"] if r["state"] in ("approved", "changes_requested", "commented")],
        "checks_state": lines["checks_state"],
        "checks": [c for c in lines["checks"] if c["state"] in ("passing", "failing", "pending")],
        "checks_commit": lines["checks_commit"],
        "heard": found.host_heard,
    }


def _request_for_user(request, merge_request_id: int):
    found = get_object_or_404(_requests(), pk=merge_request_id)
    return found, membership_for(request.user, found.repository.team_id)  # 404 for another team's request


@router.post(
    "/repositories/{repository_id}/merge-requests/",
    response={200: s.MergeRequestDetail, 201: s.MergeRequestDetail, **s.ERRORS},
    summary="Ask for a merge request of reviewed translations (engineers); the same request again answers 200",
)
def open_merge_request(request, payload: s.MergeRequestIn, repository_id: int = s.path_id()):
    repository, membership = get_repository_for_user(request, repository_id)
    need_engineer(membership)
    paths = [path for path in payload.files if path] if payload.files is not None else None
    if paths is not None and not paths:
        raise ValidationError(_("Choose at least one file for the merge request."))  # as the page's form
    found, created = do_open_merge_request(
        repository, paths, acting_user=request.user, mode=payload.mode or repository.port_mode
    )
    return Status(201 if created else 200, merge_request_detail(_requests().get(pk=found.pk)))


@router.post(
    "/merge-requests/{merge_request_id}/retry/",
    response={200: s.MergeRequestDetail, **s.ERRORS},
    summary="Try a failed merge request again from the step that failed (engineers)",
)
def retry_merge_request(request, merge_request_id: int = s.path_id()):
    found, membership = _request_for_user(request, merge_request_id)
    need_engineer(membership)
    do_retry_merge_request(found, acting_user=request.user)
    return merge_request_detail(_requests().get(pk=found.pk))
