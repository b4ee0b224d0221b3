"""The progress history (one snapshot per repository and day) and the forecast drawn from it.

The forecast fits a straight line to the work left at the end of each of the last WEEKS weeks (carrying a
repository's newest snapshot forward over days nothing changed: a quiet week is a week with no progress), and
says when that line reaches zero. Its uncertainty is the slope's: the range runs from the date at the slope plus
Z standard errors (the optimistic end) to the date at the slope minus Z standard errors (the pessimistic one, open
when that slope no longer goes down). Weekly points, not daily ones: days are not independent samples, and a fit
over 56 carried-forward days would claim a precision the history does not have.

Two things move the work left without anyone working, and the burn-down marks them (`markers`): a scan of a default
branch that re-rated findings (the scanner changed its verdict on code nobody touched), and a repository whose
first snapshot falls inside the window (its scope joins a team's line as a step up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import groupby
from operator import itemgetter

from django.db.models import F
from django.utils import timezone

from portal.progress.models import ProgressSnapshot
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan

WEEKS = 8  # the trend's window
MIN_POINTS = 3  # weekly points needed for a slope and its error: at least two weeks of history
Z = 1.28  # the 80% two-sided interval of a normal distribution: a range a manager can plan with
HORIZON = timedelta(days=365 * 5)  # a forecast further out than this says "not in sight" instead of a date


@dataclass
class Point:
    day: date
    done: float
    left: float

    @property
    def percent(self) -> float | None:
        scope = self.done + self.left
        return 100 * self.done / scope if scope else None


def series(repository_ids, since: date, until: date | None = None) -> list[Point]:
    """The summed figures of the repositories for each day from `since` to `until` (today) on which one of them
    has a snapshot, each repository carried forward from its newest snapshot before that day; two queries."""
    return _series(repository_ids, since, until, names=False)[0]


def _series(repository_ids, since: date, until: date | None, names: bool) -> tuple[list[Point], list[tuple]]:
    """`series`, and (with `names`) where repositories joined: (day, name, left) of the first snapshot of each
    repository that has none before `since`."""
    until = until or timezone.localdate()
    ids = list(repository_ids)
    rows = list(
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__gte=since, day__lte=until)
        .order_by("day")
        .values_list("repository_id", "day", "done", "left", *(("repository__name",) if names else ()))
    )
    # each repository's state as the window opens: its newest snapshot before `since`
    before = (
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__lt=since)
        .order_by("repository_id", "-day")
        .distinct("repository_id")
        .values_list("repository_id", "done", "left")
    )
    current = {repo: (done, left) for repo, done, left in before}
    joined: list[tuple] = []
    if names:
        seen = set(current)
        for repo, day, _done, left, name in rows:
            if repo not in seen:
                seen.add(repo)
                joined.append((day, name, left))
    points: list[Point] = []
    if current:
        points.append(_sum(since, current))
    # one sum per day, once all of that day's snapshots are in (a sum per snapshot was quadratic: 100 repositories
    # over 8 weeks took 30 ms); the same additions in the same order, so the same floats
    for day, group in groupby(rows, key=itemgetter(1)):
        for repo, _day, done, left, *_name in group:
            current[repo] = (done, left)
        if points and points[-1].day == day:
            points[-1] = _sum(day, current)
        else:
            points.append(_sum(day, current))
    return points, joined


def series_each(repository_ids, since: date, until: date | None = None) -> dict[int, list[Point]]:
    """`series` of each repository on its own, for all of them in the same two queries (the team report)."""
    until = until or timezone.localdate()
    ids = list(repository_ids)
    out: dict[int, list[Point]] = {pk: [] for pk in ids}
    for repo, done, left in (
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__lt=since)
        .order_by("repository_id", "-day")
        .distinct("repository_id")
        .values_list("repository_id", "done", "left")
    ):
        out[repo].append(Point(since, done, left))
    for repo, day, done, left in (
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__gte=since, day__lte=until)
        .order_by("day")
        .values_list("repository_id", "day", "done", "left")
    ):
        points = out[repo]
        if points and points[-1].day == day:
            points[-1] = Point(day, done, left)
        else:
            points.append(Point(day, done, left))
    return out


RERATED, ADDED = "rerated", "added"


@dataclass
class Marker:
    """Something that moved the work left on `day` without anyone working: findings re-rated by the default
    branches' scans (`count`), or repositories whose scope joined the figures (`names`, their `hours` left)."""

    day: date
    kind: str  # RERATED | ADDED
    count: int = 0
    hours: float = 0.0
    names: tuple[str, ...] = ()


def series_and_markers(repository_ids, since: date, until: date | None = None) -> tuple[list[Point], list[Marker]]:
    """`series` and the markers of its burn-down, by day, in three queries: the series' two (whose snapshots show
    where a repository joined: its first one, when it has none before the window) and the scans that re-rated."""
    until = until or timezone.localdate()
    ids = list(repository_ids)
    points, joined = _series(ids, since, until, names=True)
    rerated: dict[date, int] = {}
    for finished, count in Scan.objects.filter(
        repository_id__in=ids,
        branch=F("repository__default_branch"),
        status=ScanStatus.FINISHED,
        finished__date__gte=since,
        finished__date__lte=until,
        summary__tracking__rerated__gt=0,
    ).values_list("finished", "summary__tracking__rerated"):
        day = timezone.localdate(finished)
        rerated[day] = rerated.get(day, 0) + int(count)
    added: dict[date, list[tuple[str, float]]] = {}
    for day, name, left in joined:
        added.setdefault(day, []).append((name, left))
    out = [Marker(day, RERATED, count=n) for day, n in rerated.items()]
    out += [
        Marker(day, ADDED, hours=sum(h for _n, h in repos), names=tuple(sorted(n for n, _h in repos)))
        for day, repos in added.items()
    ]
    return points, sorted(out, key=lambda m: (m.day, m.kind))


def _sum(day: date, current: dict) -> Point:
    return Point(day, sum(d for d, _l in current.values()), sum(left for _d, left in current.values()))


def at(points: list[Point], day: date) -> Point | None:
    """The figures as they stood at the end of `day` (the newest point on or before it)."""
    found = None
    for point in points:
        if point.day > day:
            break
        found = point
    return found


def weekly(points: list[Point], today: date, weeks: int = WEEKS) -> list[Point]:
    """The figures at the end of each of the last `weeks` weeks and today, oldest first, from the first one
    with a snapshot."""
    out = []
    for back in range(weeks, -1, -1):
        point = at(points, today - timedelta(days=7 * back))
        if point is not None:
            out.append(Point(today - timedelta(days=7 * back), point.done, point.left))
    return out


@dataclass
class Forecast:
    status: str  # "done" | "ok" | "not_enough_history" | "not_going_down" | "not_in_sight"
    rate: float = 0.0  # hours of work left removed per week, on the fitted line
    likely: date | None = None
    earliest: date | None = None
    latest: date | None = None  # None with status "ok": the pessimistic slope does not go down (open range)
    points: int = 0  # weekly points the fit used

    @property
    def has_date(self) -> bool:
        return self.status == "ok"


def forecast(points: list[Point], today: date | None = None) -> Forecast:
    """When the work left reaches zero on the trend of the last WEEKS weeks (see the module's docstring)."""
    today = today or timezone.localdate()
    sample = weekly(points, today)
    if sample and sample[-1].left <= 0:
        return Forecast("done", points=len(sample))
    if len(sample) < MIN_POINTS:
        return Forecast("not_enough_history", points=len(sample))
    xs = [(p.day - today).days / 7 for p in sample]  # weeks, today at 0
    ys = [p.left for p in sample]
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sxx
    residuals = [y - (mean_y + slope * (x - mean_x)) for x, y in zip(xs, ys)]
    error = math.sqrt(sum(r * r for r in residuals) / (n - 2) / sxx) if n > 2 else 0.0
    rate = -slope
    if rate <= 0:
        return Forecast("not_going_down", rate=rate, points=n)
    left = ys[-1]

    def reach(weekly_rate: float) -> date | None:
        if weekly_rate <= 0:
            return None
        days = left / weekly_rate * 7
        return today + timedelta(days=math.ceil(days)) if days <= HORIZON.days else None

    likely = reach(rate)
    if likely is None:
        return Forecast("not_in_sight", rate=rate, points=n)
    earliest = reach(rate + Z * error) or likely
    latest = reach(rate - Z * error) if error else likely
    return Forecast("ok", rate=rate, likely=likely, earliest=earliest, latest=latest, points=n)


def window_start(today: date | None = None) -> date:
    return (today or timezone.localdate()) - timedelta(days=7 * WEEKS)
