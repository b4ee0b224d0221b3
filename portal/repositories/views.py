"""Minimal repository pages: the team's repositories with their newest scans, and one repository's scans.
The real dashboards are their own issue; these views are thin and guarded."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, F, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from portal.accounts.access import membership_for, require_write
from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan


def get_repository_for_user(request, pk: int) -> tuple[Repository, object]:
    """(repository, membership); 404 when the user is not in the repository's team, as for a missing one."""
    repository = get_object_or_404(Repository.objects.select_related("team"), pk=pk)
    return repository, membership_for(request.user, repository.team_id)


@require_GET
@login_required
def repository_list(request):
    repositories = (Repository.objects.filter(team__memberships__user=request.user).select_related("team")
                    .annotate(open_findings=Count("findings", filter=Q(findings__state=Finding.State.OPEN,
                                                                       findings__branch=F("default_branch"))))
                    .order_by("team__name", "name"))
    rows = [(repo, repo.scans.first()) for repo in repositories]
    return render(request, "repositories/list.html", {"rows": rows})


@require_GET
@login_required
def repository_detail(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    scans = repository.scans.all()[:50]
    counts = dict(Finding.objects.filter(repository=repository, branch=repository.default_branch,
                                         state=Finding.State.OPEN).values_list("risk").annotate(n=Count("id")))
    return render(request, "repositories/detail.html",
                  {"repository": repository, "scans": scans, "open_by_risk": counts, "membership": membership})


@require_POST
@login_required
def start_scan(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    require_write(membership)
    branch = request.POST.get("branch") or repository.default_branch
    if branch not in repository.branches:
        raise Http404
    scan = do_create_scan(repository, branch=branch)
    messages.success(request, f"Scan {scan.pk} of {branch} queued.")
    return redirect("repositories:detail", pk=repository.pk)
