"""Merge request pages: a repository's merge requests with the form that asks for a new one (the reviewed
translations that apply, checked, and those left out with why), one request's page (what the port brings: the
findings it resolves, those left for a person and the progress estimate, portal.ports.story; its state polled while a
worker pushes and opens it, stopping with HTTP 286 at a final state; what to do when it failed; once opened, the
reviews and CI checks the host's webhooks reported and when the host was last heard) and the POSTs that ask for a
request and try a failed one again. Engineers and above post; viewers read; another team's
repository or request is a 404. Every form works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from portal.accounts.access import get_repository_for_user, require_write
from portal.files import patch
from portal.ports import planning, story
from portal.ports.actions import do_open_merge_request, do_retry_merge_request
from portal.ports.models import MergeRequest
from portal.ports.queries import host_ready
from portal.ports.texts import (
    ADVICE,
    NEW_REQUEST_CODES,
    OUTDATED,
    PATCH_CODES,
    RESCAN_CODES,
    SETTINGS_CODES,
    STEPS,
    UNUSABLE,
    WHY_LEFT,
    compile_rows,
    host_lines,
    left_for_people,
)
from portal.repositories.models import Repository

PER_PAGE = 25


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
        "compiled": compile_rows(merge_request),
        "story": story.of_request(merge_request),  # recorded when the branch was pushed
        "steps": [(state, label, i <= reached, i == reached) for i, (state, label) in enumerate(STEPS)],
        "advice": ADVICE.get(code, ""),
        "advice_settings": code in SETTINGS_CODES,
        "advice_rescan": code in RESCAN_CODES,
        "advice_new": code in NEW_REQUEST_CODES,
        "advice_patch": code in PATCH_CODES,
        "host": host_lines(merge_request),
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
