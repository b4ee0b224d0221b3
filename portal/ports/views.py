"""Merge request pages: a repository's merge requests with the form that asks for a new one (the reviewed
translations that apply, checked, and those left out with why), one request's page (its state polled while a
worker pushes and opens it, stopping with HTTP 286 at a final state; what to do when it failed) and the POSTs
that ask for a request and try a failed one again. Engineers and above post; viewers read; another team's
repository or request is a 404. Every form works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from portal.accounts.access import get_repository_for_user, require_write
from portal.files import patch
from portal.ports import planning
from portal.ports.actions import do_open_merge_request, do_retry_merge_request
from portal.ports.models import MergeRequest
from portal.repositories.models import Repository

PER_PAGE = 25

# error_code (portal.ports.branch, portal.ports.tasks) -> what to do about it. The recorded error_message is the
# worker's English detail; the page shows this advice first and the detail after it.
ADVICE = {
    "no_write_access": gettext_lazy(
        "The repository's credentials can read but not push. Give them write access (in Settings, the repository's "
        "username and token) and try again, or download the patch and apply it yourself."
    ),
    "auth_failed": gettext_lazy(
        "The repository refused its credentials. Update the username and token in Settings, then try again."
    ),
    "target_moved": gettext_lazy(
        "The target branch no longer contains the scanned commit. Scan the branch again, review the new "
        "translations, then open a new merge request."
    ),
    "branch_exists": gettext_lazy(
        "A branch of this name already exists on the host with other commits, and ROCport never overwrites a "
        "branch. Delete that branch on the host, then try again."
    ),
    "host_refused": gettext_lazy(
        "The git host refused to open the merge request (the details say why). Check the commit statuses "
        "connection in Settings: its token needs the right to open merge requests. Then try again."
    ),
    "host_unavailable": gettext_lazy(
        "The git host could not be reached, even after several attempts. Try again later: the branch that was "
        "already pushed is not pushed twice."
    ),
    "reviews_changed": gettext_lazy(
        "A newer scan or a change of review happened after this merge request was asked for. Open a new merge "
        "request from the reviewed translations as they are now."
    ),
    "no_host": gettext_lazy(
        "The git host connection is not set up. Fill in the commit statuses section in Settings (provider, API "
        "URL, project, token), then try again."
    ),
    "fetch_failed": gettext_lazy(
        "Git could not read the target branch. Check the clone URL and the credentials in Settings, then try again."
    ),
    "push_failed": gettext_lazy(
        "The push failed (the details say why). Try again; if it fails the same way, report it."
    ),
    "git_failed": gettext_lazy(
        "Git failed while preparing the branch (the details say why): often the host was briefly unavailable. "
        "Try again; nothing was pushed."
    ),
    "timeout": gettext_lazy(
        "Git took longer than the time allowed (ROCPORT_CLONE_TIMEOUT). Try again when the host is less busy."
    ),
    "nothing_to_commit": gettext_lazy(
        "The reviewed translations change no file, so there is nothing to commit. Nothing needs to be done."
    ),
    "bad_branch": gettext_lazy("ROCport refused to push to this branch. This is on our side: report it."),
}
# The codes whose advice links to the repository's settings, to a new scan, or offers the patch.
SETTINGS_CODES = {"no_write_access", "auth_failed", "host_refused", "no_host", "fetch_failed"}
RESCAN_CODES = {"target_moved"}
NEW_REQUEST_CODES = {"reviews_changed", "target_moved"}
PATCH_CODES = {"no_write_access", "auth_failed", "host_refused", "no_host", "push_failed", "branch_exists"}

# The steps a request goes through, for the progress line of its page.
STEPS = (
    (MergeRequest.State.QUEUED, gettext_lazy("queued")),
    (MergeRequest.State.PUSHING, gettext_lazy("pushing the branch")),
    (MergeRequest.State.PUSHED, gettext_lazy("branch pushed")),
    (MergeRequest.State.OPEN, gettext_lazy("merge request open")),
)


# Why a reviewed file was left out, as portal.ports.actions records it (English) -> for people.
OUTDATED = "reviewed on an older version of the file: review it again"
UNUSABLE = "the stored text is not the file's exact bytes: edit it by hand"
WHY_LEFT = {
    OUTDATED: gettext_lazy("reviewed on an older version of the file: review it again"),
    UNUSABLE: gettext_lazy("the stored text is not the file's exact bytes: edit it by hand"),
}


def left_for_people(merge_request: MergeRequest) -> list[tuple[str, str, bool]]:
    """(path, why, whether `why` is the recorded English text rather than a translation)."""
    out = []
    for item in merge_request.left_for_people or []:
        path, why = (list(item) + ["", ""])[:2]
        out.append((path, WHY_LEFT.get(why, why), why not in WHY_LEFT))
    return out


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


def _request_for(repository, mr: int) -> MergeRequest:
    return get_object_or_404(
        MergeRequest.objects.select_related("created_by", "repository__commit_status"), pk=mr, repository=repository
    )


def _new_form(repository, checked: list[str] | None = None, mode: str | None = None) -> dict:
    """The "new merge request" form: what applies (checked unless asked otherwise or already in an active
    request), what is left out and why, and whether the git host is connected."""
    selection = patch.reviewed(repository)
    in_requests: dict[str, MergeRequest] = {}
    for request in (
        MergeRequest.objects.filter(repository=repository, state__in=MergeRequest.ACTIVE)
        .select_related("repository__commit_status")
        .order_by("pk")
    ):
        for path in request.files:
            in_requests[path] = request
    wanted = set(checked) if checked is not None else None
    rows = [
        {
            "path": path,
            "request": in_requests.get(path),
            "checked": (path in wanted) if wanted is not None else path not in in_requests,
        }
        for path in sorted(selection.blobs)
    ]
    left = [(path, WHY_LEFT[OUTDATED]) for path in selection.outdated]
    left += [(path, WHY_LEFT[UNUSABLE]) for path in selection.unusable]
    return {
        "host_ready": host_ready(repository),
        "candidates": rows,
        "left_out": sorted(left),
        "base_commit": selection.commit,
        "mode": mode if mode in (planning.IN_PLACE, planning.SIDE_BY_SIDE) else repository.port_mode,
        "modes": Repository.PortMode.choices,
    }


def _list_context(request, repository, membership) -> dict:
    requests = (
        MergeRequest.objects.filter(repository=repository)
        .select_related("created_by", "repository__commit_status")
        .order_by("-created", "-pk")
    )
    return {
        "repository": repository,
        "membership": membership,
        "page": Paginator(requests, PER_PAGE).get_page(request.GET.get("page")),
        "form_error": "",
    }


@require_GET
@login_required
def merge_request_list(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    context = _list_context(request, repository, membership)
    context.update(_new_form(repository))
    return render(request, "ports/list.html", context)


@require_POST
@login_required
def new_merge_request(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    require_write(membership)
    paths = [p for p in request.POST.getlist("paths") if p]
    mode = request.POST.get("mode") or repository.port_mode
    error = ""
    if not paths:
        error = _("Choose at least one file for the merge request.")
    else:
        try:
            merge_request, created = do_open_merge_request(repository, paths, acting_user=request.user, mode=mode)
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if error:
        # the page again, with the error and the person's choices kept
        context = _list_context(request, repository, membership)
        context.update(_new_form(repository, checked=paths, mode=mode))
        context["form_error"] = error
        return render(request, "ports/list.html", context)
    if created:
        messages.success(
            request,
            _(
                "Merge request asked for: ROCport pushes a new branch and opens the merge request; this page follows it."
            ),
        )
    else:
        messages.success(request, _("This merge request was already requested: here it is."))
    return redirect("ports:detail", pk=repository.pk, mr=merge_request.pk)


def _detail_context(repository, membership, merge_request: MergeRequest) -> dict:
    code = merge_request.error_code
    reached = (
        [state for state, _label in STEPS].index(merge_request.state) if merge_request.state in dict(STEPS) else -1
    )
    return {
        "repository": repository,
        "membership": membership,
        "mr": merge_request,
        "in_flight": merge_request.state in MergeRequest.IN_FLIGHT,
        "left": left_for_people(merge_request),
        "steps": [(state, label, i <= reached, i == reached) for i, (state, label) in enumerate(STEPS)],
        "advice": ADVICE.get(code, ""),
        "advice_settings": code in SETTINGS_CODES,
        "advice_rescan": code in RESCAN_CODES,
        "advice_new": code in NEW_REQUEST_CODES,
        "advice_patch": code in PATCH_CODES,
    }


@require_GET
@login_required
@vary_on_headers("HX-Request")
def merge_request_detail(request, pk: int, mr: int):
    repository, membership = get_repository_for_user(request, pk)
    merge_request = _request_for(repository, mr)
    context = _detail_context(repository, membership, merge_request)
    if request.htmx:
        response = render(request, "ports/detail.html#state", context)
        if not context["in_flight"]:
            # HTTP 286: htmx stops polling; the final partial replaces the live one.
            return HttpResponseStopPolling(response.content)
        return response
    return render(request, "ports/detail.html", context)


@require_POST
@login_required
def retry_merge_request(request, pk: int, mr: int):
    repository, membership = get_repository_for_user(request, pk)
    require_write(membership)
    merge_request = _request_for(repository, mr)
    try:
        do_retry_merge_request(merge_request, acting_user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Trying again: the merge request is queued."))
    return redirect("ports:detail", pk=repository.pk, mr=merge_request.pk)
