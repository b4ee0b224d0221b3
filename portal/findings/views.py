"""Findings list (filters in the query string, keyset pages, bulk triage) and the finding page (code, rule
documentation, triage, assignment, comments, history). htmx requests get named partials; every interaction
also works as a plain link or form."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from portal.accounts.access import membership_for, require_write
from portal.accounts.context import current_membership
from portal.findings import queries
from portal.findings.actions import do_assign_finding, do_comment_finding, do_triage_findings
from portal.findings.models import Finding
from portal.ports.queries import active_with
from portal.repositories.models import Repository
from portal.scans.models import BlobResult, ScannedFile
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections

CONTEXT_LINES = 6


def _team_ids(request) -> list[int]:
    """The findings list covers the team chosen in the switcher."""
    membership = current_membership(request)
    if membership is None:
        return []
    return [membership.team_id]


@require_GET
@login_required
@vary_on_headers("HX-Request")
def finding_list(request):
    team_ids = _team_ids(request)
    filters = queries.Filters.from_query(request.GET)
    if filters.repository and not Repository.objects.filter(pk=filters.repository, team_id__in=team_ids).exists():
        raise Http404
    scoped = queries.scopes(team_ids, filters)
    base = queries.filtered(team_ids, filters, request.user, scoped)
    arms = queries.per_scope(team_ids, filters, request.user, scoped) if len(scoped) > 1 else None
    rows, next_cursor = queries.page(base, filters, request.GET.get("after", ""), arms)
    membership = current_membership(request)
    context = {
        "filters": filters,
        "rows": rows,
        "total": queries.capped_count(base),
        "count_cap": queries.COUNT_CAP,
        "next_url": f"?{urlencode({**filters.as_query(), 'after': next_cursor})}" if next_cursor else "",
        "first_url": f"?{urlencode(filters.as_query())}",
        "is_deep": bool(request.GET.get("after")),
        "query": urlencode(filters.as_query()),
        "repositories": Repository.objects.filter(team_id__in=team_ids).order_by("name"),
        "can_triage": membership is not None and membership.can_write,
        "triage_choices": Finding.Triage.choices,
        "members": get_user_model().objects.filter(memberships__team_id__in=team_ids).order_by("username"),
    }
    template = "findings/list.html#results" if request.htmx else "findings/list.html"
    return render(request, template, context)


@require_POST
@login_required
def bulk_triage(request):
    membership = current_membership(request)
    if membership is None:
        raise Http404
    require_write(membership)
    filters = queries.Filters.from_query(request.POST)
    base = queries.filtered([membership.team_id], filters, request.user)
    ids = [int(i) for i in request.POST.getlist("ids") if i.isdigit()]
    if request.POST.get("scope") != "all":
        base = base.filter(pk__in=ids)
    decision = request.POST.get("decision", "")
    if decision not in Finding.Triage.values:
        messages.error(request, _("Choose a decision for the selected findings."))
        return redirect(f"{reverse('findings:list')}?{urlencode(filters.as_query())}")
    if request.POST.get("confirm") != "1":
        # nothing changes before the person has seen how many findings the decision takes
        return render(
            request,
            "findings/bulk_confirm.html",
            {
                "count": base.count(),
                "decision": decision,
                "decision_label": Finding.Triage(decision).label,
                "reason": request.POST.get("reason", ""),
                "scope": request.POST.get("scope", "selected"),
                "ids": ids,
                "filters": filters,
                "back_url": f"{reverse('findings:list')}?{urlencode(filters.as_query())}",
            },
        )
    try:
        count = do_triage_findings(
            base, request.POST.get("decision", ""), request.POST.get("reason", ""), acting_user=request.user
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("%(count)d findings triaged.") % {"count": count})
    return redirect(f"{reverse('findings:list')}?{urlencode(filters.as_query())}")


def _finding_for(request, pk: int) -> tuple[Finding, object]:
    finding = get_object_or_404(
        Finding.objects.select_related("repository__team", "assignee", "first_seen", "last_seen", "fixed_in"), pk=pk
    )
    return finding, membership_for(request.user, finding.repository.team_id)


@require_GET
@login_required
def finding_detail(request, pk: int):
    finding, membership = _finding_for(request, pk)
    rule = catalogue().get(finding.rule)
    sections = parse_sections(rule.doc) if rule else {}
    doc = {
        "what": sections.get("What it finds", ""),
        "why": sections.get("Why it breaks on ROCm", ""),
        "instead": sections.get("Use instead", ""),
    }
    return render(
        request,
        "findings/detail.html",
        {
            "finding": finding,
            "membership": membership,
            "can_triage": membership.can_write,
            "code": _code_around(finding),
            "rule": rule,
            "doc": doc,
            "events": _history(finding),
            "triage_choices": Finding.Triage.choices,
            "members": get_user_model().objects.filter(memberships__team=finding.repository.team).order_by("username"),
            # the active merge request that carries the finding's file (the default branch's: what a port changes)
            "merge_request": (
                active_with(finding.repository, finding.path)
                if finding.path != "." and finding.branch == finding.repository.default_branch
                else None
            ),
        },
    )


@require_POST
@login_required
def triage(request, pk: int):
    finding, membership = _finding_for(request, pk)
    require_write(membership)
    error = ""
    try:
        do_triage_findings(
            Finding.objects.filter(pk=finding.pk),
            request.POST.get("decision", ""),
            request.POST.get("reason", ""),
            acting_user=request.user,
        )
    except ValidationError as exc:
        error = " ".join(exc.messages)
    finding.refresh_from_db()
    if request.htmx:
        context = {
            "row": finding,
            "finding": finding,
            "can_triage": True,
            "triage_choices": Finding.Triage.choices,
            "error": error,
        }
        if request.POST.get("context") == "row":
            return render(request, "findings/list.html#row", context)
        # The triage section, and the history with its new event swapped in out of band (hx-swap-oob)
        triage_html = render_to_string("findings/detail.html#triage", context, request)
        history_html = render_to_string(
            "findings/detail.html#history", {"events": _history(finding), "finding": finding, "oob": True}, request
        )
        return HttpResponse(triage_html + history_html)
    if error:
        messages.error(request, error)
    return redirect("findings:detail", pk=finding.pk)


@require_POST
@login_required
def assign(request, pk: int):
    finding, membership = _finding_for(request, pk)
    require_write(membership)
    assignee = None
    if request.POST.get("assignee"):
        assignee = (
            get_user_model()
            .objects.filter(pk=request.POST["assignee"], memberships__team=finding.repository.team)
            .first()
        )
        if assignee is None:
            raise PermissionDenied(_("Only members of the team can be assigned."))
    do_assign_finding(finding, assignee, acting_user=request.user)
    return redirect("findings:detail", pk=finding.pk)


@require_POST
@login_required
def comment(request, pk: int):
    finding, membership = _finding_for(request, pk)
    require_write(membership)
    try:
        do_comment_finding(finding, request.POST.get("text", ""), acting_user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("findings:detail", pk=finding.pk)


def _history(finding: Finding):
    """The finding page's history, newest first."""
    return finding.events.select_related("actor", "scan").order_by("-created", "-id")[:200]


def _code_around(finding: Finding) -> list[tuple[int, str, bool]]:
    """(line number, text, is the finding's line) around the finding, from the stored source of its blob."""
    scanned = (
        ScannedFile.objects.filter(scan_id=finding.last_seen_id, path=finding.path)
        .values_list("blob_sha", flat=True)
        .first()
    )
    if not scanned:
        return []
    source = BlobResult.objects.filter(blob_sha=scanned).exclude(source="").values_list("source", flat=True).first()
    if not source:
        return []
    lines = source.splitlines()
    start = max(1, finding.line - CONTEXT_LINES)
    end = min(len(lines), finding.line + CONTEXT_LINES)
    return [(n, lines[n - 1], n == finding.line) for n in range(start, end + 1)]
