"""API operations on migration progress, for a repository's default branch and for a team: the figures, the
forecast, each file's state and the history of the work left.

Nothing is computed here: the figures are the ones the dashboards and printable reports show, from the same
functions (portal.reporting.overview, figures, history; portal.reporting.metrics), so a script and a page never
disagree. Another team's repository or team is a 404, as on the pages."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from ninja import Query, Router

from portal.accounts.access import get_repository_for_user, membership_for
from portal.api import pages
from portal.api import schemas as s
from portal.reporting import figures, history, metrics, overview
from portal.repositories.models import Repository
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan

router = Router(tags=["progress"])


def migration_out(migration: figures.MigrationProgress) -> dict:
    return {
        "known": migration.known,
        "percent": migration.percent,
        "shown": migration.shown,
        "done": migration.done,
        "left": migration.left,
        "descoped": migration.descoped,
        "baseline": migration.baseline,
        "discovered": migration.discovered,
        "files": {
            "not_started": migration.not_started,
            "in_progress": migration.in_progress,
            "done": migration.files_done,
        },
    }


def forecast_out(forecast: history.Forecast) -> dict:
    return {
        "status": forecast.status,
        "rate": forecast.rate,
        "likely": forecast.likely,
        "earliest": forecast.earliest,
        "latest": forecast.latest,
        "points": forecast.points,
    }


def file_out(item: figures.FileProgress) -> dict:
    return {
        "path": item.path,
        "state": item.state,
        "done": item.done,
        "left": item.left,
        "descoped": item.descoped,
        "baseline": item.baseline,
        "touched": item.touched,
        "review": item.review,
    }


def _newest_finished(repository: Repository) -> int | None:
    """The newest finished scan of the default branch: the one the dashboard's figures come from."""
    return (
        Scan.objects.filter(repository=repository, branch=repository.default_branch, status=ScanStatus.FINISHED)
        .order_by("-created", "-id")
        .values_list("pk", flat=True)
        .first()
    )


def _progress(repository: Repository) -> tuple[int | None, overview.RepositoryProgress | None]:
    """As the repository's dashboard and report read it: the default branch's rollup at its newest finished scan."""
    scan_id = _newest_finished(repository)
    if scan_id is None:
        return None, None
    return scan_id, overview.of_repository(repository, metrics.breakdown(repository, scan_id).rollup)


@router.get(
    "/repositories/{repository_id}/progress/",
    response={200: s.RepositoryProgressOut, **s.ERRORS},
    summary="A repository's migration progress, its files by state, the forecast and the files with most work left",
)
def repository_progress(request, repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    scan_id, progress = _progress(repository)
    if progress is None:  # before the first finished scan: no figures, and a forecast that says why there is none
        migration, forecast, most_left = figures.MigrationProgress(), overview.outlook([repository.pk]).forecast, []
    else:
        migration, forecast, most_left = progress.migration, progress.outlook.forecast, progress.most_left()
    return {
        "repository_id": repository.pk,
        "branch": repository.default_branch,
        "scan_id": scan_id,
        "migration": migration_out(migration),
        "forecast": forecast_out(forecast),
        "most_left": [file_out(item) for item in most_left],
    }


@router.get(
    "/repositories/{repository_id}/progress/files/",
    response={200: s.FileProgressPage, **s.ERRORS},
    summary="Each file's migration state and hours, by path, `limit` (50) per page",
)
def repository_files(request, query: Query[s.FileProgressQuery], repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    limit = pages.checked(query.limit)
    _scan_id, progress = _progress(repository)
    files = sorted(progress.files.values(), key=lambda f: f.path) if progress else []
    # Keyset on the path (unique per branch): the next page starts after the last path returned.
    rows = [f for f in files if (query.state is None or f.state == query.state) and f.path > query.after]
    page = rows[:limit]
    return {"items": [file_out(f) for f in page], "next": page[-1].path if len(rows) > limit else None}


def history_out(repository_ids: list[int], weeks: int) -> dict:
    today = timezone.localdate()
    since = today - timedelta(weeks=weeks)
    points, markers = history.series_and_markers(repository_ids, since, today)
    return {
        "since": since,
        "until": today,
        "points": [{"day": p.day, "done": p.done, "left": p.left, "percent": p.percent} for p in points],
        "markers": [
            {"day": m.day, "kind": m.kind, "count": m.count, "hours": m.hours, "names": list(m.names)} for m in markers
        ],
    }


@router.get(
    "/repositories/{repository_id}/progress/history/",
    response={200: s.HistoryOut, **s.ERRORS},
    summary="A repository's work done and left day by day (the burn-down), with what moved it",
)
def repository_history(request, query: Query[s.HistoryQuery], repository_id: int = s.path_id()):
    repository, _membership = get_repository_for_user(request, repository_id)
    return history_out([repository.pk], pages.checked_weeks(query.weeks))


@router.get(
    "/teams/{team_id}/progress/",
    response={200: s.TeamProgressOut, **s.ERRORS},
    summary="A team's migration progress and forecast, and each repository's",
)
def team_progress(request, team_id: int = s.path_id()):
    membership = membership_for(request.user, team_id)  # 404 for a team that is not yours
    totals = metrics.team_default_branch_totals(team_id)  # the scanned repositories' default branches
    migration, outlook = overview.of_team(totals)
    today = timezone.localdate()
    each = history.series_each(list(totals), history.window_start(today), today)  # as the team report
    repositories = []
    for repository in Repository.objects.filter(team_id=team_id).only("pk", "name").order_by("name", "pk"):
        scanned = repository.pk in totals
        repositories.append(
            {
                "id": repository.pk,
                "name": repository.name,
                "scanned": scanned,
                "migration": migration_out(
                    figures.MigrationProgress.of_totals(totals[repository.pk])
                    if scanned
                    else figures.MigrationProgress()
                ),
                "forecast": forecast_out(history.forecast(each[repository.pk], today)) if scanned else None,
            }
        )
    return {
        "team": {"id": membership.team_id, "name": membership.team.name},
        "migration": migration_out(migration),
        "forecast": forecast_out(outlook.forecast),
        "repositories": repositories,
    }


@router.get(
    "/teams/{team_id}/progress/history/",
    response={200: s.HistoryOut, **s.ERRORS},
    summary="A team's work done and left day by day, summed over its repositories, with what moved it",
)
def team_history(request, query: Query[s.HistoryQuery], team_id: int = s.path_id()):
    membership_for(request.user, team_id)
    ids = list(Repository.objects.filter(team_id=team_id).values_list("pk", flat=True))
    return history_out(ids, pages.checked_weeks(query.weeks))
