"""What the pages show about progress, assembled once for the dashboard, the portfolio and the report: the
migration's figures, its files by state, the burn-down of the last weeks and the forecast."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format

from portal.dashboards import charts
from portal.progress import figures, history


@dataclass
class Outlook:
    """The history of work left and when it reaches zero, for one repository or a team."""

    points: list[history.Point]
    forecast: history.Forecast
    chart: charts.Burndown


def _label(day) -> str:
    return date_format(day, "M j")


def outlook(repository_ids) -> Outlook:
    today = timezone.localdate()
    points = history.series(repository_ids, history.window_start(today), today)
    found = history.forecast(points, today)
    return Outlook(points, found, charts.burndown(points, found, today, _label))


@dataclass
class RepositoryProgress:
    migration: figures.MigrationProgress
    files: dict[str, figures.FileProgress]
    outlook: Outlook

    @property
    def ring(self) -> charts.Ring:
        return charts.ring(self.migration.percent)


def of_repository(repository, rollup) -> RepositoryProgress:
    """From the default branch's fresh rollup (portal.findings.rollups.fresh), its reviews and its snapshots."""
    reviews = figures.reviews_of([repository.pk]).get(repository.pk, {})
    files = figures.per_file(rollup, reviews) if rollup is not None else {}
    migration = figures.summarize(files) if files or (rollup and (rollup.progress or {}).get("baseline")) else None
    return RepositoryProgress(migration or figures.MigrationProgress(), files, outlook([repository.pk]))


def of_team(totals_by_repository: dict[int, dict]) -> tuple[figures.MigrationProgress, Outlook]:
    """The team's figures (the sum of its repositories' default branches) and outlook."""
    migration = figures.MigrationProgress()
    for totals in totals_by_repository.values():
        migration = migration + figures.MigrationProgress.of_totals(totals)
    return migration, outlook(list(totals_by_repository))
