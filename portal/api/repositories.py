"""API operations on repositories: list, register and update them (managers), their scans (list, start one) and
their statistics over time. Registration and updates go through the pages' forms, so the API validates clone
URLs, branch names and credentials exactly as the UI does."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.utils.translation import gettext as _
from ninja import Query, Router
from ninja.responses import Status

from portal.accounts.access import get_repository_for_user, membership_for
from portal.api import pages
from portal.api import schemas as s
from portal.api.access import memberships, need_engineer, need_manager
from portal.api.scan_shapes import counts, scan_detail, scan_out
from portal.repositories.actions import (
    DUPLICATE_NAME,
    DuplicateName,
    do_create_repository,
    do_save_repository_settings,
)
from portal.repositories.forms import RepositoryForm
from portal.repositories.models import Repository
from portal.repositories.settings_forms import RepositorySettingsForm
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import Scan

router = Router(tags=["repositories"])


def repository_out(repository: Repository, membership) -> dict:
    return {
        "id": repository.pk,
        "team": {"id": repository.team_id, "name": repository.team.name},
        "role": membership.role,
        "name": repository.name,
        "clone_url": repository.clone_url,
        "default_branch": repository.default_branch,
        "tracked_branches": list(repository.tracked_branches),
        "credentials_username": repository.credentials_username,
        "has_credentials": bool(repository.credentials_encrypted),
        "created": repository.created,
    }


def _detail(repository: Repository, membership) -> dict:
    newest = {}
    for name in repository.branches:  # a handful of branches: one indexed query each (scan_branch_recent)
        newest[name] = Scan.objects.filter(repository=repository, branch=name).order_by("-created", "-id").first()
    branches = [
        {"name": name, "is_default": name == repository.default_branch, "newest_scan": scan_out(scan) if scan else None}
        for name, scan in newest.items()
    ]
    return {**repository_out(repository, membership), "branches": branches}


def _form_error(form) -> ValidationError:
    """A form's errors as one sentence per field, naming the field as the API spells it."""
    names = {"tracked": "tracked_branches"}
    parts = [
        f"{names.get(field, field)}: {' '.join(errors)}" if field != "__all__" else " ".join(errors)
        for field, errors in form.errors.items()
    ]
    return ValidationError(" ".join(parts))


@router.get(
    "/repositories/",
    response={200: list[s.RepositoryOut], **s.ERRORS},
    summary="Your teams' repositories, by team and name, `limit` (200) from `offset`",
)
def list_repositories(request, response: HttpResponse, query: Query[s.WholeListQuery]):
    limit = pages.checked(query.limit)
    mine = memberships(request.user)
    repositories = (
        Repository.objects.filter(team_id__in=list(mine)).select_related("team").order_by("team__name", "name", "id")
    )
    response[pages.TOTAL_HEADER] = str(repositories.count())
    return [repository_out(r, mine[r.team_id]) for r in repositories[query.offset : query.offset + limit]]


@router.post(
    "/repositories/", response={201: s.RepositoryDetail, **s.ERRORS}, summary="Register a repository (managers)"
)
def create_repository(request, payload: s.RepositoryIn):
    membership = membership_for(request.user, payload.team)  # 404 for a team that is not yours
    need_manager(membership)
    form = RepositoryForm(
        {
            "name": payload.name,
            "clone_url": payload.clone_url,
            "default_branch": payload.default_branch,
            "credentials_username": payload.credentials_username,
            "credentials_secret": payload.credentials_secret,
        }
    )
    form.instance.team_id = payload.team
    if not form.is_valid():
        raise _form_error(form)
    try:
        repository = do_create_repository(form, payload.team)
    except DuplicateName:
        raise ValidationError(DUPLICATE_NAME) from None
    return Status(201, _detail(Repository.objects.select_related("team").get(pk=repository.pk), membership))


@router.get(
    "/repositories/{repository_id}/",
    response={200: s.RepositoryDetail, **s.ERRORS},
    summary="One repository with the newest scan of each tracked branch",
)
def get_repository(request, repository_id: int = s.path_id()):
    repository, membership = get_repository_for_user(request, repository_id)
    return _detail(repository, membership)


@router.patch(
    "/repositories/{repository_id}/",
    response={200: s.RepositoryDetail, **s.ERRORS},
    summary="Change a repository's settings (managers); credentials are write-only",
)
def update_repository(request, payload: s.RepositoryPatch, repository_id: int = s.path_id()):
    repository, membership = get_repository_for_user(request, repository_id)
    need_manager(membership)
    tracked = repository.tracked_branches if payload.tracked_branches is None else payload.tracked_branches
    data = {
        "clone_url": _given(payload.clone_url, repository.clone_url),
        "default_branch": _given(payload.default_branch, repository.default_branch),
        "credentials_username": _given(payload.credentials_username, repository.credentials_username),
        # the form reads tracked branches as the page's comma-separated field (names cannot hold a comma)
        "tracked": ", ".join(tracked),
        "credentials_secret": payload.credentials_secret or "",
        "clear_credentials": "on" if payload.clear_credentials else "",
    }
    form = RepositorySettingsForm(data, instance=repository)
    if not form.is_valid():
        raise _form_error(form)
    do_save_repository_settings(form)
    return _detail(Repository.objects.select_related("team").get(pk=repository.pk), membership)


def _given(value, current):
    return current if value is None else value


@router.get(
    "/repositories/{repository_id}/scans/",
    response={200: s.ScanPage, **s.ERRORS},
    summary="A repository's scans, newest first, `limit` (50) per page",
)
def list_scans(request, query: Query[s.ScanListQuery], repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    limit = pages.checked(query.limit)
    scans = Scan.objects.filter(repository=repository)
    if query.branch:
        scans = scans.filter(branch=query.branch)
    if query.before:
        before = int(query.before)
        if before > s.MAX_ID:
            raise ValidationError(_("The cursor is not one this API returned."))
        scans = scans.filter(pk__lt=before)
    # Keyset on the id (ids grow with creation): a deep page costs what the first one does.
    rows = list(scans.order_by("-id")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return {"items": [scan_out(scan) for scan in rows], "next": str(rows[-1].pk) if more else None}


@router.post(
    "/repositories/{repository_id}/scans/",
    response={201: s.ScanDetail, **s.ERRORS},
    summary="Start a scan of a tracked branch (engineers)",
)
def start_scan(request, payload: s.ScanIn, repository_id: int = s.path_id()):
    repository, membership = get_repository_for_user(request, repository_id)
    need_engineer(membership)
    branch = payload.branch or repository.default_branch
    if branch not in repository.branches:
        raise ValidationError(
            _("%(branch)s is not a tracked branch of this repository (tracked: %(tracked)s).")
            % {"branch": branch, "tracked": ", ".join(repository.branches)}
        )
    scan = do_create_scan(repository, branch=branch, trigger=ScanTrigger.API)
    return Status(201, scan_detail(scan))


@router.get(
    "/repositories/{repository_id}/statistics/",
    response={200: s.StatisticsOut, **s.ERRORS},
    summary="Progress over time: one point per finished scan of the default branch",
)
def statistics(request, query: Query[s.StatisticsQuery], repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    limit = pages.checked(query.limit, pages.MAX_POINTS)
    # Only the summary's figures are read: it also holds path lists that can be long.
    rows = list(
        Scan.objects.filter(repository=repository, branch=repository.default_branch, status=ScanStatus.FINISHED)
        .order_by("-created", "-id")
        .values(
            "pk",
            "created",
            "finished",
            "commit_sha",
            "summary__open_by_risk",
            "summary__translation",
            "summary__tracking",
        )[:limit]
    )
    rows.reverse()
    points = []
    for row in rows:
        open_by_risk = counts(row["summary__open_by_risk"])
        translation = counts(row["summary__translation"])
        tracking = counts(row["summary__tracking"])
        points.append(
            {
                "scan_id": row["pk"],
                "date": row["finished"] or row["created"],
                "commit_sha": row["commit_sha"],
                "open_by_risk": open_by_risk,
                "open_total": sum(open_by_risk.values()),
                "converted": translation.get("converted", 0),
                "unconverted": translation.get("unconverted", 0),
                "new": tracking.get("new", 0),
                "fixed": tracking.get("fixed", 0),
                "reopened": tracking.get("reopened", 0),
            }
        )
    return {"branch": repository.default_branch, "points": points}
