"""The reports a manager can forward: one printable page per repository and per team with the migration's
figures, the burn-down and forecast, where it is stuck and the open risks by category. Print CSS lays them out
for paper (the browser's "Save as PDF" makes the PDF); the page is in the reader's language (en or zh-Hans)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from portal.accounts.access import get_repository_for_user, membership_for
from portal.reporting import figures, history, metrics, overview, stuck

TOP_FILES = 10


@require_GET
@login_required
def repository_report(request, pk: int):
    repository, _membership = get_repository_for_user(request, pk)
    trend = metrics.trend(repository)
    latest = trend[-1] if trend else None
    found = metrics.breakdown(repository, latest["pk"]) if latest else None
    progress = overview.of_repository(repository, found.rollup) if found else None
    context = {
        "repository": repository,
        "team": repository.team,
        "now": timezone.now(),
        "latest": latest,
        "migration": progress.migration if progress else figures.MigrationProgress(),
        "coverage": latest["progress"] if latest else metrics.Progress(),
        "outlook": progress.outlook if progress else None,
        "by_risk": found.by_risk if found else [],
        "open_total": found.open_total if found else 0,
        "owners": metrics.owners(repository, found.open_by_path, found.files) if found else None,
        "assignees": stuck.by_assignee(repository) if latest else [],
        "old_high": stuck.old_high(repository) if latest else None,
        "untouched": progress.untouched if progress else (0, []),  # page-ready: the ledger stays unread
        "files": progress.most_left(TOP_FILES) if progress else [],
        "review_hours": figures.REVIEW_HOURS,
    }
    return render(request, "progress/repository_report.html", context)


@require_GET
@login_required
def team_report(request, team_id: int):
    membership = membership_for(request.user, team_id)
    rows = metrics.sort_rows(metrics.portfolio(team_id), "name")
    totals = metrics.team_totals(rows)
    scanned = [r for r in rows if r.finished]
    today = timezone.localdate()
    each = history.series_each([r.repository.pk for r in scanned], history.window_start(today), today)
    repositories = [
        {"row": row, "forecast": history.forecast(each[row.repository.pk], today) if row.finished else None}
        for row in rows
    ]
    context = {
        "team": membership.team,
        "now": timezone.now(),
        "totals": totals,
        "migration": totals["migration"],
        "outlook": overview.outlook([r.repository.pk for r in scanned]) if scanned else None,
        "repositories": repositories,
        "by_risk": totals["open_by_risk"],
    }
    return render(request, "progress/team_report.html", context)
