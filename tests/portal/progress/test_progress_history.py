"""portal.reporting.history.series sums each day once (it summed every repository again for every snapshot): the
same points as the straightforward per-snapshot sum and as a from-scratch carry-forward, on randomized histories
with several repositories moving on the same day, deleted snapshots, quiet days and repositories that start or
stop inside the window."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from portal.progress.models import ProgressSnapshot
from portal.reporting import history

TODAY = date(2026, 11, 2)


def per_snapshot(repository_ids, since: date, until: date) -> list[history.Point]:
    """The former implementation, verbatim in substance: a sum over every repository after each snapshot."""
    ids = list(repository_ids)
    rows = list(
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__gte=since, day__lte=until)
        .order_by("day")
        .values_list("repository_id", "day", "done", "left")
    )
    before = (
        ProgressSnapshot.objects.filter(repository_id__in=ids, day__lt=since)
        .order_by("repository_id", "-day")
        .distinct("repository_id")
        .values_list("repository_id", "done", "left")
    )
    current = {repo: (done, left) for repo, done, left in before}

    def total(day):
        return history.Point(day, sum(d for d, _l in current.values()), sum(left for _d, left in current.values()))

    points: list[history.Point] = []
    if current:
        points.append(total(since))
    for repo, day, done, left in rows:
        current[repo] = (done, left)
        if points and points[-1].day == day:
            points[-1] = total(day)
        else:
            points.append(total(day))
    return points


def carried_forward(snapshots: dict[tuple[int, date], tuple[float, float]], since: date, until: date):
    """From scratch: on `since` (when any repository had a snapshot before) and on each day in the window with a
    snapshot, each repository's newest snapshot on or before that day, summed."""
    days = sorted({day for _repo, day in snapshots if since <= day <= until})
    if any(day < since for _repo, day in snapshots):
        days = [since, *[d for d in days if d != since]]
    out = []
    for day in days:
        newest: dict[int, tuple[date, tuple[float, float]]] = {}
        for (repo, when), figures in snapshots.items():
            if when <= day and (repo not in newest or when > newest[repo][0]):
                newest[repo] = (when, figures)
        out.append((day, sum(f[0] for _w, f in newest.values()), sum(f[1] for _w, f in newest.values())))
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_series_sums_each_day_once_with_the_same_points(people, seed):
    from portal.repositories.models import Repository

    rng = random.Random(seed)
    repositories = [
        Repository.objects.create(team=people.team, name=f"r{seed}-{k}", clone_url=f"https://example.com/{k}.git")
        for k in range(rng.randint(1, 7))
    ]
    snapshots = []
    for repo in repositories:
        start, stop = rng.randint(0, 90), rng.randint(0, 20)  # some start inside the window, some stop before today
        left = rng.uniform(50, 500)
        for back in range(start, stop - 1, -1):
            if rng.random() < 0.4:  # a quiet day
                continue
            left = max(0.0, left - rng.uniform(-5, 12))
            snapshots.append(
                ProgressSnapshot(repository=repo, day=TODAY - timedelta(days=back), done=rng.uniform(0, 300), left=left)
            )
    ProgressSnapshot.objects.bulk_create(snapshots)
    doomed = [s.pk for s in ProgressSnapshot.objects.filter(repository__in=repositories) if rng.random() < 0.1]
    ProgressSnapshot.objects.filter(pk__in=doomed).delete()  # deletions: holes in a repository's history
    kept = {
        (repo, day): (done, left)
        for repo, day, done, left in ProgressSnapshot.objects.filter(repository__in=repositories).values_list(
            "repository_id", "day", "done", "left"
        )
    }
    ids = [r.pk for r in repositories]
    for since, until in ((TODAY - timedelta(days=56), TODAY), (TODAY - timedelta(days=30), TODAY - timedelta(days=7))):
        points = history.series(ids, since, until)
        assert [(p.day, p.done, p.left) for p in points] == [
            (p.day, p.done, p.left) for p in per_snapshot(ids, since, until)
        ]  # identical floats, not merely close
        expected = carried_forward(kept, since, until)
        assert [p.day for p in points] == [day for day, _d, _l in expected]
        for point, (_day, done, left) in zip(points, expected):
            assert (point.done, point.left) == pytest.approx((done, left))
        assert len({p.day for p in points}) == len(points)  # one point per day


@pytest.mark.django_db
def test_series_of_nothing_is_empty(people):
    assert history.series([], TODAY - timedelta(days=56), TODAY) == []
