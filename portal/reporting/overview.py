"""What the pages show about progress, assembled once for the dashboard, the portfolio and the report: the
migration's figures, its files by state, the burn-down of the last weeks and the forecast."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django.utils import timezone

from portal.reporting import charts, figures, history


@dataclass
class Outlook:
    """The history of work left and when it reaches zero, for one repository or a team."""

    points: list[history.Point]
    forecast: history.Forecast
    chart: charts.Burndown


def _label(day) -> str:
    return charts.axis_date(day)


def outlook(repository_ids) -> Outlook:
    today = timezone.localdate()
    points, marks = history.series_and_markers(repository_ids, history.window_start(today), today)
    found = history.forecast(points, today)
    return Outlook(points, found, charts.burndown(points, found, today, _label, marks))


@dataclass
class RepositoryProgress:
    """`files` (every file's figures) decodes the branch's whole migration ledger and reads its reviews, on first
    use only: what the pages show of them (`untouched`, `state_of`, `most_left`) comes from the ledger's page-ready
    figures (portal.reporting.figures.PAGE) when the rollup has them."""

    migration: figures.MigrationProgress
    outlook: Outlook
    page: dict | None = None
    load_files: Callable[[], dict[str, figures.FileProgress]] | None = None

    @cached_property
    def files(self) -> dict[str, figures.FileProgress]:
        return self.load_files() if self.load_files else {}

    @property
    def untouched(self) -> tuple[int, list[figures.FileProgress]]:
        """As portal.reporting.figures.untouched(files) says it."""
        if self.page and "untouched" in self.page:
            count, rows = self.page["untouched"]
            return count, [figures.file_of_row(row) for row in rows]
        return figures.untouched(self.files)

    def most_left(self, limit: int = figures.PAGE_FILES) -> list[figures.FileProgress]:
        """The files with work left, the most first (the printable report's list)."""
        rows = (self.page or {}).get("most_left")
        if rows is not None and limit <= figures.PAGE_FILES:
            return [figures.file_of_row(row) for row in rows[:limit]]
        ordered = sorted(self.files.values(), key=lambda f: (-f.left, f.path))
        return [f for f in ordered if f.left > 0][:limit]

    def state_of(self, path: str) -> str:
        """The file's migration state, "" when it has no migration work."""
        states = (self.page or {}).get("states") or {}
        if path in states:
            return states[path]
        item = self.files.get(path)
        return item.state if item else ""


def of_repository(repository, rollup) -> RepositoryProgress:
    """From the default branch's fresh rollup (portal.reporting.rollups.fresh, or portal.reporting.metrics.breakdown's
    without its ledger), its reviews and its snapshots. With the ledger's page-ready figures (stored with
    totals["progress"] by figures.store, on the same ledger and reviews) neither the ledger nor the reviews are read
    unless `files` is."""

    def load_files() -> dict[str, figures.FileProgress]:
        if rollup is None:
            return {}
        reviews = figures.reviews_of([repository.pk]).get(repository.pk, {})
        return figures.per_file(rollup, reviews)

    page = _page(rollup)
    if page is not None and (rollup.totals or {}).get("progress"):
        migration = figures.MigrationProgress.of_totals(rollup.totals)
        return RepositoryProgress(migration, outlook([repository.pk]), page, load_files)
    files = load_files()
    migration = figures.summarize(files) if files or (rollup and (rollup.progress or {}).get("baseline")) else None
    progress = RepositoryProgress(migration or figures.MigrationProgress(), outlook([repository.pk]), None, load_files)
    progress.files = files  # computed already: cached_property's slot
    return progress


def _page(rollup) -> dict | None:
    if rollup is None:
        return None
    page = getattr(rollup, "page", None)
    if page is None and "progress" not in rollup.get_deferred_fields():
        page = (rollup.progress or {}).get(figures.PAGE)
    return page if isinstance(page, dict) else None


def of_team(totals_by_repository: dict[int, dict]) -> tuple[figures.MigrationProgress, Outlook]:
    """The team's figures (the sum of its repositories' default branches) and outlook."""
    migration = figures.MigrationProgress()
    for totals in totals_by_repository.values():
        migration = migration + figures.MigrationProgress.of_totals(totals)
    return migration, outlook(list(totals_by_repository))
