"""What one team's weekly digest says, read (never written) from the progress history, the findings' audit trail
and the default branches' rollups. The week is fixed (Monday to Sunday, UTC): the figures are those at the end of
its Sunday, so a digest sent late (a beat that was down on Monday) says what one sent on time would have said.
Only the files with the most work left are current figures: no history is kept per file.

A fixed number of queries whatever the number of repositories (plus the rebuild of rollups that are stale)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Count, F, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone

from portal.findings.models import FindingEvent
from portal.links import site_url
from portal.progress.models import ProgressSnapshot
from portal.reporting import figures, history, rollups
from portal.repositories.models import Repository
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan

TOP_FILES = 5
KINDS = ("fixed", "created", "reopened")  # the audit trail's kinds the digest counts


def shown(point: history.Point | None) -> str | None:
    """A percentage as the pages show it (figures.shown_percent): "0.4", "37", "100"; None without figures."""
    if point is None:
        return None
    return figures.shown_percent(point.percent, point.left <= 0)


@dataclass
class Counts:
    fixed: int = 0
    created: int = 0
    reopened: int = 0

    def add(self, kind: str, n: int) -> None:
        setattr(self, kind, getattr(self, kind) + n)


@dataclass
class RepositoryWeek:
    name: str
    before: str | None  # percent at the end of the previous week, as shown (figures.shown_percent)
    after: str | None  # percent at the end of the week
    counts: Counts
    url: str


@dataclass
class FileLeft:
    repository: str
    path: str
    hours: float
    state: str
    url: str


@dataclass
class TeamDigest:
    team_name: str
    week: date  # Monday
    before: str | None
    after: str | None
    counts: Counts
    forecast: history.Forecast
    repositories: list[RepositoryWeek] = field(default_factory=list)
    files: list[FileLeft] = field(default_factory=list)
    portfolio_url: str = ""
    settings_url: str = ""

    @property
    def week_end(self) -> date:
        return self.week + timedelta(days=6)


def build(team, week: date) -> TeamDigest:
    """The digest of `team` for the week starting on Monday `week`."""
    week_end = week + timedelta(days=6)
    repositories = list(
        Repository.objects.filter(team=team)
        .only("pk", "name", "default_branch")
        .annotate(finished_id=_newest_finished())
        .order_by("name", "pk")
    )
    ids = [r.pk for r in repositories]
    points = history.series(ids, since=history.window_start(week_end), until=week_end)
    counts = _event_counts(team, week)
    before, after = _repository_points(ids, week)
    rows = [
        RepositoryWeek(
            name=r.name,
            before=shown(before.get(r.pk)),
            after=shown(after.get(r.pk)),
            counts=counts.get(r.pk, Counts()),
            url=site_url(reverse("dashboards:repository", args=[r.pk])),
        )
        for r in repositories
    ]
    total = Counts()
    for row in rows:
        for kind in KINDS:
            total.add(kind, getattr(row.counts, kind))
    return TeamDigest(
        team_name=team.name,
        week=week,
        before=shown(history.at(points, week - timedelta(days=1))),
        after=shown(history.at(points, week_end)),
        counts=total,
        forecast=history.forecast(points, week_end),
        repositories=rows,
        files=top_files(repositories),
        portfolio_url=site_url(reverse("dashboards:portfolio")),
        settings_url=site_url(reverse("accounts:profile") + "#digest"),
    )


def _newest_finished() -> Subquery:
    query = Scan.objects.filter(
        repository=OuterRef("pk"), branch=OuterRef("default_branch"), status=ScanStatus.FINISHED
    )
    return Subquery(query.order_by("-created", "-id").values("pk")[:1])


def _event_counts(team, week: date) -> dict[int, Counts]:
    """Findings fixed, new and reopened on each repository's default branch during the week; one query."""
    start = timezone.make_aware(datetime.combine(week, time.min))
    rows = (
        FindingEvent.objects.filter(
            finding__repository__team=team,
            finding__branch=F("finding__repository__default_branch"),
            kind__in=KINDS,
            created__gte=start,
            created__lt=start + timedelta(days=7),
        )
        .values_list("finding__repository_id", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    out: dict[int, Counts] = {}
    for repository_id, kind, n in rows:
        out.setdefault(repository_id, Counts()).add(kind, n)
    return out


def _repository_points(ids: list[int], week: date) -> tuple[dict, dict]:
    """Each repository's figures at the end of the previous week and of this one (history.at of its own series,
    as two queries for all of them): repository id -> history.Point."""

    def newest_until(day: date) -> dict[int, history.Point]:
        rows = (
            ProgressSnapshot.objects.filter(repository_id__in=ids, day__lte=day)
            .order_by("repository_id", "-day")
            .distinct("repository_id")
            .values_list("repository_id", "day", "done", "left")
        )
        return {pk: history.Point(d, done, left) for pk, d, done, left in rows}

    return newest_until(week - timedelta(days=1)), newest_until(week + timedelta(days=6))


def top_files(repositories) -> list[FileLeft]:
    """The TOP_FILES files with the most work left now across the repositories' default branches (those with a
    finished scan, annotated `finished_id`)."""
    scanned = [r for r in repositories if r.finished_id]
    if not scanned:
        return []
    fresh = rollups.fresh({(r.pk, r.default_branch): r.finished_id for r in scanned})
    reviews = figures.reviews_of([r.pk for r in scanned])
    candidates = []
    for r in scanned:
        for path, item in figures.per_file(fresh[(r.pk, r.default_branch)], reviews.get(r.pk, {})).items():
            if item.left > 0:
                candidates.append((r, path, item))
    candidates.sort(key=lambda c: (-c[2].left, c[0].name, c[1]))
    return [
        FileLeft(
            repository=r.name,
            path=path,
            hours=item.left,
            state=item.state,
            url=site_url(reverse("files:file", args=[r.pk, path])),
        )
        for r, path, item in candidates[:TOP_FILES]
    ]
