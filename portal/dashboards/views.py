"""The portfolio (the current team's repositories: progress, open findings by risk, work left, newest scan; sort
and search in the query string) and the repository dashboard (progress and its trend, breakdowns, work left,
owners, parse health, branches). Thin guarded views: figures come from portal.reporting.metrics, geometry
from portal.reporting.charts; htmx gets named partials."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRefresh

from portal.accounts.access import get_repository_for_user
from portal.accounts.context import current_membership
from portal.reporting import charts, effort, figures, metrics, overview, stuck
from portal.scans.compile_status import Share

TOP_RULES = 12  # the rest of the rules fold into a <details>: a catalogue-sized table buries the sections below


@require_GET
@login_required
@vary_on_headers("HX-Request")
def portfolio(request):
    membership = current_membership(request)
    search = request.GET.get("q", "").strip()[:200]
    sort = request.GET.get("sort", "name")
    sort = sort if sort in metrics.SORTS else "name"
    rows = metrics.portfolio(membership.team_id) if membership else []
    totals = metrics.team_totals(rows)  # the whole team's, whatever the search shows
    team_outlook = (
        overview.outlook([r.repository.pk for r in rows if r.finished]) if rows and not request.htmx else None
    )
    shown = [r for r in rows if search.casefold() in r.repository.name.casefold()] if search else rows
    context = {
        "membership": membership,
        "team": membership.team if membership else None,
        "rows": metrics.sort_rows(shown, sort),
        "has_repositories": bool(rows),
        "totals": totals,
        "search": search,
        "sort": sort,
        "sorts": _sort_links(search, sort),
        "coverage_ring": charts.ring(totals["progress"].percent),
        "outlook": team_outlook,
        "parse_bar": charts.stacked_bar(totals["parse_modes"]),
        "risks": metrics.RISKS,
    }
    template = "dashboards/portfolio.html#results" if request.htmx else "dashboards/portfolio.html"
    return render(request, template, context)


def _sort_links(search: str, current: str) -> list[tuple[str, str, bool]]:
    """(label, query string, is current) per sort order, keeping the search."""
    labels = {
        "name": _("name"),
        "progress": _("least progress"),
        "open": _("most open findings"),
        "work": _("most work left"),
        "scanned": _("least recently scanned"),
    }
    links = []
    for key in metrics.SORTS:
        query = {**({"q": search} if search else {}), **({"sort": key} if key != "name" else {})}
        links.append((labels[key], f"?{urlencode(query)}", key == current))
    return links


@require_GET
@login_required
@vary_on_headers("HX-Request")
def repository_dashboard(request, pk: int):
    repository, membership = get_repository_for_user(request, pk)
    trend = metrics.trend(repository)
    latest = trend[-1] if trend else None
    previous = trend[-2] if len(trend) > 1 else None
    found = metrics.breakdown(repository, latest["pk"] if latest else None)
    progress = overview.of_repository(repository, found.rollup) if latest else None
    try:
        old_days = min(max(int(request.GET.get("older_than", stuck.OLD_DAYS)), 1), 3650)
    except ValueError:
        old_days = stuck.OLD_DAYS
    work = sorted(found.files.values(), key=lambda w: (-w.hours, w.path))  # as effort.top_work
    top_hours = work[0].hours if work else 0
    labels = [_short_date(row["created"]) for row in trend]
    # floored as the headline and the ring show it: 94.6% is "94%" everywhere on the page
    with_refs = [
        (label, row["progress"].floor) for label, row in zip(labels, trend) if row["progress"].floor is not None
    ]
    health = metrics.parse_health(latest["pk"] if latest else None)
    builds = Share.of(latest["compile"]) if latest else None
    context = {
        "repository": repository,
        "membership": membership,
        "can_scan": membership.can_write,
        "can_manage": membership.can_manage,
        "latest": latest,
        "previous": previous,
        "trend": trend,
        "labels": labels,
        "progress": latest["progress"] if latest else metrics.Progress(),
        "coverage_ring": charts.ring(latest["progress"].percent if latest else None),
        "migration": progress.migration if progress else None,
        "outlook": progress.outlook if progress else None,
        "assignees": stuck.by_assignee(repository) if latest else [],
        "old_high": stuck.old_high(repository, old_days) if latest else None,
        "untouched": progress.untouched if progress else (0, []),
        "progress_delta": _delta(latest, previous),
        "burndown": charts.stacked_columns(
            [(label, row["open_by_risk"]) for label, row in zip(labels, trend)], metrics.RISKS
        ),
        "unconverted_chart": charts.line_chart(
            [(label, row["progress"].unconverted) for label, row in zip(labels, trend)]
        ),
        "progress_chart": charts.line_chart(with_refs, percent=True) if with_refs else None,
        "risks": metrics.RISKS,
        "found": found,
        "rule_max": max((row["n"] for row in found.by_rule), default=0),
        "files": work[: effort.TOP_FILES],
        "files_with_work": len(work),
        "top_hours": top_hours,
        "estimate": effort.total(found.files),
        "formula": effort.formula(),
        "review_hours": figures.REVIEW_HOURS,
        "owners": metrics.owners(repository, found.open_by_path, found.files),
        "health": health,
        "parse_bar": charts.stacked_bar(health["modes"]),
        "branches": metrics.branches(repository),
        # the compile check's "builds for <target>" share, beside the migration progress
        "builds": builds,
        "build_failures": metrics.compile_failures(latest["pk"]) if builds and builds.fails else [],
        "repo_findings": _repo_findings(repository.pk),
    }
    context["any_active"] = any(b["active"] for b in context["branches"])
    context["burndown_rows"] = [
        ([row["open_by_risk"].get(key, 0) for key, _label in metrics.RISKS] + [sum(row["open_by_risk"].values())], row)
        for row in trend
    ]
    # bar lengths in percent of the largest row, for the inline bars
    for row in found.by_rule:
        row["share"] = round(100 * row["n"] / context["rule_max"], 2)
    context["top_rules"], context["more_rules"] = found.by_rule[:TOP_RULES], found.by_rule[TOP_RULES:]
    for item in context["files"]:
        item.share = round(100 * item.hours / top_hours, 2) if top_hours else 0
        item.state = progress.state_of(item.path) if progress else ""
    if latest:
        metrics.fill_parse_modes(latest["pk"], context["files"])
    return render(request, "dashboards/repository.html", context)


@require_GET
@login_required
def repository_branches(request, pk: int):
    """The branches partial, polled while a scan of the repository is running; once none is, the whole page
    reloads (HX-Refresh) so that every figure shows the new scan."""
    repository, membership = get_repository_for_user(request, pk)
    if not request.htmx:
        return redirect(f"{_dashboard_url(repository.pk)}#branches")
    branches = metrics.branches(repository)
    if not any(b["active"] for b in branches):
        return HttpResponseClientRefresh()
    return render(
        request,
        "dashboards/repository.html#branches",
        {"repository": repository, "branches": branches, "any_active": True, "can_scan": membership.can_write},
    )


def _dashboard_url(pk: int) -> str:
    return reverse("dashboards:repository", args=[pk])


def _repo_findings(pk: int) -> str:
    return f"{reverse('findings:list')}?{urlencode({'repository': pk})}"


def _short_date(value) -> str:
    return charts.axis_date(timezone.localtime(value)) if value else ""


def _delta(latest: dict | None, previous: dict | None) -> float | None:
    if not latest or not previous:
        return None
    now, before = latest["progress"].percent, previous["progress"].percent
    return None if now is None or before is None else round(now - before, 1)
