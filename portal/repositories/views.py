"""Repository pages: every repository of the user's teams with its newest scan, one repository's scans and webhook
deliveries (its dashboard is portal.dashboards), registration, starting a scan and the settings page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from portal.accounts.access import get_repository_for_user, membership_for, require_manage, require_write
from portal.accounts.models import Membership
from portal.hosts import registry
from portal.reporting import rollups
from portal.repositories import hip_builds
from portal.repositories.actions import (
    DUPLICATE_NAME,
    DuplicateName,
    do_create_repository,
    do_decide_hip_builds,
    do_remove_member,
    do_rotate_webhook_secret,
    do_save_member,
    do_save_repository_settings,
)
from portal.repositories.forms import RepositoryForm
from portal.repositories.models import Repository
from portal.repositories.settings_forms import CommitStatusForm, MemberForm, RepositorySettingsForm
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from portal.statuses.actions import do_save_commit_status_settings
from portal.statuses.models import CommitStatusConfig

_LISTED_SCAN_FIELDS = ("pk", "repository_id", "status", "branch", "commit_sha", "created", "finished")


@require_GET
@login_required
def repository_list(request):
    """Three queries whatever the number of repositories or findings: the newest scan comes from a correlated
    subquery, and the open count from the default branch's rollup (portal.reporting.rollups), annotated on the
    same query; a rollup missing or built at another scan than the newest finished one is rebuilt first."""
    newest = Scan.objects.filter(repository=OuterRef("pk")).order_by("-created", "-id").values("pk")[:1]
    finished = (
        Scan.objects.filter(repository=OuterRef("pk"), branch=OuterRef("default_branch"), status=ScanStatus.FINISHED)
        .order_by("-created", "-id")
        .values("pk")[:1]
    )
    repositories = list(
        Repository.objects.filter(team__memberships__user=request.user)
        .select_related("team")
        .annotate(
            newest_scan_id=Subquery(newest),
            finished_scan_id=Subquery(finished),
            rollup_open=rollups.of_default_branch("open_total"),
            rollup_scan_id=rollups.of_default_branch("scan_id"),
        )
        .order_by("team__name", "name")
    )
    stale = {
        (r.pk, r.default_branch): r.finished_scan_id
        for r in repositories
        if r.finished_scan_id and (r.rollup_open is None or r.rollup_scan_id != r.finished_scan_id)
    }
    rebuilt = {pk: rollup.open_total for (pk, _branch), rollup in rollups.fresh(stale, {}).items()}
    scans = Scan.objects.only(*_LISTED_SCAN_FIELDS).in_bulk(
        {r.newest_scan_id for r in repositories if r.newest_scan_id}
    )
    rows = []
    for repo in repositories:
        repo.open_findings = rebuilt.get(repo.pk, repo.rollup_open or 0) if repo.finished_scan_id else 0
        rows.append((repo, scans.get(repo.newest_scan_id)))
    managed = [m.team for m in request.user.memberships.select_related("team") if m.can_manage]
    return render(request, "repositories/list.html", {"rows": rows, "managed_teams": managed})


@require_GET
@login_required
def repository_detail(request, pk: int):
    """The repository's builds as the newest default-branch scan read them, with the HIP-build decision and any
    change a newer scan found (portal.repositories.hip_builds); its scans (every branch, newest first, 50 per
    page) and its newest webhook deliveries."""
    repository, membership = get_repository_for_user(request, pk)
    scans = repository.scans.defer("builds").order_by("-created", "-id")
    page = Paginator(scans, 50).get_page(request.GET.get("page"))
    deliveries = repository.deliveries.select_related("scan")[:20]
    return render(
        request,
        "repositories/detail.html",
        {
            "repository": repository,
            "page": page,
            "membership": membership,
            "deliveries": deliveries,
            "builds": hip_builds.page(repository),
        },
    )


@require_POST
@login_required
def decide_hip_builds(request, pk: int):
    """A manager's decision on which HIP builds count: `accept` what the newest scan found, `keep` the current
    decision, or `set` it by hand (`builds`: the chosen ids, none for "no HIP build"); `found` carries the ids the
    page showed, so a decision made on an outdated page is refused. A changed decision starts a rescan."""
    repository, membership = get_repository_for_user(request, pk)
    require_manage(membership)
    action = request.POST.get("action", "")
    found = request.POST.getlist("found")
    ids = {"accept": found, "keep": None, "set": request.POST.getlist("builds")}
    if action not in ids:
        raise Http404
    try:
        scan = do_decide_hip_builds(
            repository, ids[action], found=found, by_hand=action == "set", acting_user=request.user
        )
    except hip_builds.Declared:
        messages.error(request, _("This repository declares its HIP builds in .rocport.toml: change them there."))
    except hip_builds.Stale:
        messages.error(request, _("A newer scan found other builds since this page was shown: look again."))
    else:
        if scan is not None:
            messages.success(
                request, _("HIP builds decided; scan %(pk)s applies the decision to the findings.") % {"pk": scan.pk}
            )
            return redirect("scans:detail", pk=scan.pk)
        if action == "set":
            messages.success(request, _("Decision saved: the accepted HIP builds did not change."))
        else:
            messages.success(request, _("The current decision is kept."))
    return redirect("repositories:detail", pk=pk)


@login_required
def add_repository(request, team_id: int):
    membership = membership_for(request.user, team_id)
    if not membership.can_manage:
        raise PermissionDenied("only managers and admins register repositories")
    form = RepositoryForm(request.POST or None)
    form.instance.team_id = team_id
    if request.method == "POST" and form.is_valid():
        try:
            repository = do_create_repository(form, team_id)
        except DuplicateName:
            form.add_error("name", DUPLICATE_NAME)
        else:
            if form.branch_warning:  # one banner, a warning's: registered, but nothing on the remote was checked
                messages.warning(
                    request,
                    _("Repository %(name)s registered with a warning: %(warning)s")
                    % {"name": repository.name, "warning": form.branch_warning},
                )
            else:
                messages.success(
                    request,
                    _("Repository %(name)s registered. Start its first scan from here.") % {"name": repository.name},
                )
            return redirect("dashboards:repository", pk=repository.pk)
    return render(request, "repositories/add.html", {"form": form, "team": membership.team})


@login_required
def repository_settings(request, pk: int):
    """Webhook endpoints and setup steps; for managers the repository's settings (credentials write-only), the
    secret and commit statuses (token write-only); for admins the team's members and roles. Each POST names its
    purpose (`action`); one handler per purpose below, each checking its own role."""
    repository, membership = get_repository_for_user(request, pk)
    page = _SettingsPage(repository)
    if request.method == "POST":
        handler = _SETTINGS_ACTIONS.get(request.POST.get("action", ""))
        if handler is None:
            raise Http404
        done = handler(request, repository, membership, page)
        if done:
            messages.success(request, done)
            return redirect("repositories:settings", pk=pk)
    # The address the reader reached the portal at (its host and port, https behind a TLS proxy that says so),
    # as the git host must reach it too; not a configured one that may name another port.
    endpoints = [
        (
            host.label,
            request.build_absolute_uri(reverse("webhooks:receive", args=[repository.pk, host.id])),
            str(host.setup_text),
        )
        for host in registry.hosts()
    ]
    return render(
        request,
        "repositories/settings.html",
        {
            "repository": repository,
            "membership": membership,
            "endpoints": endpoints,
            "form": page.form,
            "member_form": page.member_form,
            "rejections": repository.webhook_rejections.count(),
            "status_form": page.status_form,
            "status_config": page.status_config,
            "status_post": repository.status_posts.select_related("scan").order_by("-updated", "-id").first(),
            "members": repository.team.memberships.select_related("user").order_by("user__username"),
            "is_admin": membership.role == Membership.Role.ADMIN,
        },
    )


class _SettingsPage:
    """The settings page's forms: unbound, or bound by the handler of the POST that failed validation."""

    def __init__(self, repository: Repository):
        self.form = RepositorySettingsForm(instance=repository)
        self.member_form = MemberForm()
        self.status_config = CommitStatusConfig.objects.filter(repository=repository).first()
        self.status_form = CommitStatusForm(repository=repository, config=self.status_config)


def _rotate_secret(request, repository, membership, page) -> str:
    require_manage(membership)
    do_rotate_webhook_secret(repository)
    return _("New webhook secret; the previous one keeps working for 24 hours.")


def _save_repository(request, repository, membership, page) -> str:
    require_manage(membership)
    page.form = RepositorySettingsForm(request.POST, instance=repository)
    if not page.form.is_valid():
        return ""
    do_save_repository_settings(page.form)
    if page.form.branch_warning:
        messages.warning(request, page.form.branch_warning)
    return _("Settings saved.")


def _save_commit_status(request, repository, membership, page) -> str:
    require_manage(membership)
    page.status_form = CommitStatusForm(request.POST, repository=repository, config=page.status_config)
    if not page.status_form.is_valid():
        return ""
    try:
        do_save_commit_status_settings(repository, **page.status_form.cleaned_data, acting_user=request.user)
    except ValidationError as exc:
        page.status_form.add_error(None, exc)
        return ""
    return _("Commit status settings saved.")


def _save_member(request, repository, membership, page) -> str:
    require_admin(membership)
    page.member_form = MemberForm(request.POST)
    if not page.member_form.is_valid():
        return ""
    do_save_member(repository.team, page.member_form.cleaned_data["username"], page.member_form.cleaned_data["role"])
    return _("Member saved.")


def _remove_member(request, repository, membership, page) -> str:
    require_admin(membership)
    do_remove_member(repository.team, request.POST.get("user"), acting_user=request.user)
    return _("Member removed.")


def require_admin(membership) -> None:
    if membership.role != Membership.Role.ADMIN:
        raise PermissionDenied(_("only team admins manage members"))


_SETTINGS_ACTIONS = {
    "rotate": _rotate_secret,
    "repository": _save_repository,
    "commit_status": _save_commit_status,
    "member": _save_member,
    "remove_member": _remove_member,
}


@require_POST
@login_required
def start_scan(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    require_write(membership)
    branch = request.POST.get("branch") or repository.default_branch
    if branch not in repository.branches:
        raise Http404
    scan = do_create_scan(repository, branch=branch)
    messages.success(request, _("Scan %(pk)s of %(branch)s queued.") % {"pk": scan.pk, "branch": branch})
    return redirect("scans:detail", pk=scan.pk)  # its live progress
