"""Migration progress through a history the way a team makes one, week after week, with the real scan pipeline on
a real git repository: a baseline scan, a fix, triage, new findings, a review. At each step both figures
(migration progress, automatic translation coverage), the files' states and the forecast are checked against
the definitions in portal/reporting/figures.py, recomputed here from the findings themselves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from portal.files import actions as file_actions
from portal.files.queries import file_version
from portal.findings import actions
from portal.findings.models import Finding
from portal.progress.models import ProgressSnapshot
from portal.reporting import effort, figures, history, metrics, overview, rollups
from tests.portal.scans.test_scan_tracking import BAD, GOOD, LANE, register, scan

HOST = (
    "void run(float *h) {{ float *d; cudaMalloc(&d, 4); cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); cudaFree(d); }}\n"
)
START = datetime(2026, 9, 7, 10, 0, tzinfo=UTC)  # a Monday


def week(n: int):
    return time_machine.travel(START + timedelta(weeks=n), tick=True)


def hours(findings) -> float:
    return sum(rollups.finding_hours(f.severity_rank, f.risk) for f in findings)


def figures_of(row) -> figures.MigrationProgress:
    [portfolio_row] = [r for r in metrics.portfolio(row.team_id) if r.repository.pk == row.pk]
    return portfolio_row.migration


def files_of(row) -> dict[str, figures.FileProgress]:
    found = metrics.breakdown(row, rollups._newest_finished([(row.pk, row.default_branch)])[(row.pk, "main")])
    return figures.per_file(found.rollup, figures.reviews_of([row.pk]).get(row.pk, {}))


def states(row) -> dict[str, str]:
    return {path: item.state for path, item in files_of(row).items()}


def open_hours(row) -> float:
    live = Finding.objects.filter(repository=row, state="open").exclude(triage__in=effort.DISMISSED)
    return hours(live)


def assert_identity(progress: figures.MigrationProgress) -> None:
    assert progress.done + progress.left == pytest.approx(progress.baseline + progress.discovered - progress.descoped)


@pytest.mark.django_db
def test_progress_through_a_history_of_scans_fixes_triage_new_findings_and_reviews(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    review = figures.REVIEW_HOURS

    # week 0, the baseline: a.cu has two findings, b.cu one and CUDA calls, c.cu one finding
    with week(0):
        scan(
            row,
            repo.commit(
                "baseline",
                **{
                    "src__a.cu": LANE.format(body=BAD * 2),
                    "src__b.cu": LANE.format(body=BAD) + HOST,
                    "src__c.cu": LANE.format(body=BAD),
                },
            ),
        )
    findings = {f.path: [] for f in Finding.objects.filter(repository=row)}
    for f in Finding.objects.filter(repository=row).order_by("line"):
        findings[f.path].append(f)
    assert {p: len(fs) for p, fs in findings.items()} == {"src/a.cu": 2, "src/b.cu": 1, "src/c.cu": 1}
    progress = figures_of(row)
    assert progress.known and progress.done == 0 and progress.percent == 0 and progress.floor == 0
    # left: every finding, plus the review of b.cu, the only file with CUDA references
    assert progress.left == pytest.approx(open_hours(row) + review)
    assert progress.baseline == pytest.approx(progress.left) and progress.discovered == pytest.approx(0)
    assert states(row) == {"src/a.cu": "not_started", "src/b.cu": "not_started", "src/c.cu": "not_started"}
    coverage = metrics.portfolio(people.team.pk)[0].progress
    assert coverage.converted >= 3 and coverage.percent > 50  # the other figure: high from day one
    with week(0):
        assert history.forecast(history.series([row.pk], START.date())).status == "not_enough_history"
    baseline = progress.baseline

    # week 1: one of a.cu's two findings is fixed in the code
    with week(1):
        scan(row, repo.commit("fix one", **{"src__a.cu": LANE.format(body=BAD + GOOD)}))
    fixed = list(Finding.objects.filter(repository=row, state="fixed"))
    assert len(fixed) == 1 and fixed[0].path == "src/a.cu"
    progress = figures_of(row)
    assert progress.done == pytest.approx(hours(fixed))
    assert progress.left == pytest.approx(open_hours(row) + review)
    assert progress.baseline == pytest.approx(baseline) and progress.percent > 0
    assert_identity(progress)
    assert states(row) == {"src/a.cu": "in_progress", "src/b.cu": "not_started", "src/c.cu": "not_started"}
    week1 = progress.percent

    # week 2: b.cu's finding is an accepted risk (done), c.cu's a false positive (out of scope)
    with week(2):
        accepted = Finding.objects.filter(repository=row, path="src/b.cu")
        false_positive = Finding.objects.filter(repository=row, path="src/c.cu")
        actions.do_triage_findings(accepted, "accepted_risk", "bounded input", acting_user=people.bob)
        actions.do_triage_findings(false_positive, "false_positive", "guarded", acting_user=people.bob)
    progress = figures_of(row)
    assert progress.done == pytest.approx(hours(fixed) + hours(accepted))
    assert progress.descoped == pytest.approx(hours(false_positive))
    assert progress.left == pytest.approx(open_hours(row) + review)
    assert progress.percent > week1
    assert_identity(progress)
    # b.cu still waits for its translation review; c.cu has nothing left
    assert states(row) == {"src/a.cu": "in_progress", "src/b.cu": "in_progress", "src/c.cu": "done"}
    with week(2):
        forecast = history.forecast(history.series([row.pk], START.date()))
    # three weekly points (weeks 0, 1 and 2), going down: a date, in a range around it
    assert forecast.status == "ok" and forecast.points == 3 and forecast.rate > 0
    assert forecast.earliest <= forecast.likely and (forecast.latest is None or forecast.likely <= forecast.latest)
    left_now = progress.left
    expected = (START + timedelta(weeks=2)).date() + timedelta(days=left_now / forecast.rate * 7)
    assert abs((forecast.likely - expected).days) <= 1
    week2 = progress.percent

    # week 3: new findings in a new file: more work discovered, so progress goes down
    with week(3):
        scan(row, repo.commit("new code", **{"src__d.cu": LANE.format(body=BAD * 3)}))
    progress = figures_of(row)
    new = list(Finding.objects.filter(repository=row, path="src/d.cu"))
    assert len(new) == 3
    assert progress.discovered == pytest.approx(hours(new))
    assert progress.baseline == pytest.approx(baseline) and progress.percent < week2
    assert_identity(progress)
    assert states(row)["src/d.cu"] == "not_started"
    untouched_count, untouched = overview_untouched(row)
    assert untouched_count == 0  # d.cu is new since the baseline; the baseline's files have all been touched

    # week 4: b.cu's translation is reviewed "translation OK" on the file page's action: b.cu is done
    with week(4):
        version = file_version(row, "src/b.cu")
        file_actions.check_review_translation(
            row, "src/b.cu", version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
        )
    progress = figures_of(row)
    assert progress.left == pytest.approx(open_hours(row))  # no review left
    assert progress.done == pytest.approx(hours(fixed) + hours(accepted) + review)
    assert states(row)["src/b.cu"] == "done"
    assert_identity(progress)

    # the history: one snapshot per day something moved, each with the figures of that day
    days = list(ProgressSnapshot.objects.filter(repository=row).order_by("day").values_list("day", "done"))
    assert [d for d, _done in days] == [(START + timedelta(weeks=n)).date() for n in range(5)]
    assert [done for _d, done in days] == sorted(done for _d, done in days)  # done never went down here
    # a regression: a.cu's fixed finding comes back, and its hours move from done to left
    with week(5):
        scan(row, repo.commit("regress", **{"src__a.cu": LANE.format(body=BAD * 2)}))
    regressed = figures_of(row)
    assert regressed.done == pytest.approx(progress.done - hours(fixed))
    assert_identity(regressed)


def overview_untouched(row):
    return figures.untouched(files_of(row))


@pytest.mark.django_db
def test_a_file_nobody_touched_since_the_baseline_is_listed_and_leaves_the_list_once_triaged(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("baseline", **{"src__a.cu": LANE.format(body=BAD), "src__b.cu": LANE.format(body=BAD)}))
    count, files = figures.untouched(files_of(row))
    assert count == 2 and {f.path for f in files} == {"src/a.cu", "src/b.cu"}
    actions.do_triage_findings(
        Finding.objects.filter(repository=row, path="src/a.cu"), "confirmed", "", acting_user=people.bob
    )
    count, files = figures.untouched(files_of(row))
    assert count == 1 and [f.path for f in files] == ["src/b.cu"]
    assert states(row) == {"src/a.cu": "in_progress", "src/b.cu": "not_started"}


def test_the_forecast_needs_two_weeks_and_a_downward_trend():
    today = START.date()
    point = history.Point
    assert history.forecast([], today).status == "not_enough_history"
    one_week = [point(today - timedelta(days=7), 0, 100), point(today, 10, 90)]
    assert history.forecast(one_week, today).status == "not_enough_history"
    flat = [point(today - timedelta(days=7 * k), 0, 100) for k in (3, 2, 1, 0)]
    assert history.forecast(flat, today).status == "not_going_down"
    steady = [point(today - timedelta(days=7 * k), 0, 100 - 10 * (3 - k)) for k in (3, 2, 1, 0)]
    found = history.forecast(steady, today)
    # exactly 10 h a week, 70 h left: 7 weeks, and no spread on a perfect line
    assert found.status == "ok" and found.likely == today + timedelta(days=49)
    assert found.earliest == found.likely == found.latest
    noisy = [point(today - timedelta(days=7 * k), 0, v) for k, v in zip((4, 3, 2, 1, 0), (100, 85, 84, 70, 60))]
    found = history.forecast(noisy, today)
    assert found.status == "ok" and found.earliest < found.likely < found.latest
    assert history.forecast([point(today - timedelta(days=14), 5, 10), point(today, 15, 0)], today).status == "done"
    # a quiet week counts: the newest snapshot carries forward to the end of each week
    quiet = [point(today - timedelta(days=21), 0, 100), point(today - timedelta(days=20), 0, 60)]
    assert history.forecast(quiet, today).status == "ok"


@pytest.mark.django_db
def test_the_team_burndown_adds_each_repository_carried_forward(people):
    from portal.repositories.models import Repository

    today = START.date()
    a = Repository.objects.create(team=people.team, name="a", clone_url="https://example.com/a.git")
    b = Repository.objects.create(team=people.team, name="b", clone_url="https://example.com/b.git")
    ProgressSnapshot.objects.create(repository=a, day=today - timedelta(days=10), done=0, left=50)
    ProgressSnapshot.objects.create(repository=b, day=today - timedelta(days=5), done=5, left=20)
    ProgressSnapshot.objects.create(repository=a, day=today - timedelta(days=2), done=10, left=40)
    points = history.series([a.pk, b.pk], today - timedelta(days=7), today)
    assert [(p.day, p.done, p.left) for p in points] == [
        (today - timedelta(days=7), 0, 50),  # a's state as the window opens
        (today - timedelta(days=5), 5, 70),
        (today - timedelta(days=2), 15, 60),
    ]
    assert overview.outlook([a.pk, b.pk]).points  # the pages' entry point reads the same history


@pytest.mark.django_db
def test_each_repositorys_series_is_its_own_series(people):
    from portal.repositories.models import Repository

    today = START.date()
    a = Repository.objects.create(team=people.team, name="a", clone_url="https://example.com/a.git")
    b = Repository.objects.create(team=people.team, name="b", clone_url="https://example.com/b.git")
    for repo, back, left in ((a, 20, 80), (a, 9, 60), (a, 1, 40), (b, 3, 10)):
        ProgressSnapshot.objects.create(repository=repo, day=today - timedelta(days=back), done=0, left=left)
    since = today - timedelta(days=14)
    each = history.series_each([a.pk, b.pk], since, today)
    for repo in (a, b):
        assert [(p.day, p.left) for p in each[repo.pk]] == [
            (p.day, p.left) for p in history.series([repo.pk], since, today)
        ]


@pytest.mark.django_db
def test_the_dashboard_shows_the_ledgers_page_figures_without_reading_the_ledger(people, repo_factory):
    """figures.store keeps what the dashboard shows of the per-file figures beside the ledger (figures.PAGE);
    they are the ones the whole ledger gives, through triage and reviews, and the page reads only them."""
    from django.test import Client

    repo = repo_factory()
    row = register(people, repo)
    sources = {f"src__k{k}.cu": LANE.format(body=BAD * (k + 1)) + (HOST if k % 2 else "") for k in range(14)}
    with week(0):
        scan(row, repo.commit("baseline", **sources))
    newest = rollups._newest_finished([(row.pk, "main")])[(row.pk, "main")]

    def check() -> None:
        found = metrics.breakdown(row, newest)
        assert "progress" in found.rollup.get_deferred_fields()
        progress = overview.of_repository(row, found.rollup)
        count, waiting = progress.untouched
        states = {work.path: progress.state_of(work.path) for work in effort.top_work(found.files)}
        most_left = progress.most_left(10)
        assert "progress" in found.rollup.get_deferred_fields()  # neither the figures nor the page read it
        full = figures.per_file(found.rollup, figures.reviews_of([row.pk]).get(row.pk, {}))
        expected_count, expected = figures.untouched(full)
        assert count == expected_count and [(f.path, f.state) for f in waiting] == [(f.path, f.state) for f in expected]
        assert [f.left for f in waiting] == pytest.approx([f.left for f in expected])
        assert states == {path: full[path].state if path in full else "" for path in states}
        summed = figures.summarize(full)
        assert progress.migration.files_done == summed.files_done
        assert progress.migration.not_started == summed.not_started
        assert (progress.migration.done, progress.migration.left) == pytest.approx((summed.done, summed.left), abs=1e-3)
        most = sorted((f for f in full.values() if f.left > 0), key=lambda f: (-f.left, f.path))[:10]
        assert [(f.path, f.state) for f in most_left] == [(f.path, f.state) for f in most]
        assert progress.files == full  # what the report reads, loaded on first use

    check()
    actions.do_triage_findings(
        Finding.objects.filter(repository=row, path="src/k3.cu"), "confirmed", "", acting_user=people.bob
    )
    actions.do_triage_findings(
        Finding.objects.filter(repository=row, path="src/k5.cu"), "false_positive", "no", acting_user=people.bob
    )
    check()
    version = file_version(row, "src/k1.cu")
    if version is not None and version.has_translation:
        file_actions.check_review_translation(
            row, "src/k1.cu", version, "ok", version.scanned.blob_sha, version.translation_sha, acting_user=people.bob
        )
    check()

    # a rollup stored before the page figures existed is rebuilt by the first page that reads it
    from portal.findings.models import BranchRollup

    stored = BranchRollup.objects.get(repository=row, branch="main")
    stored.progress = {k: v for k, v in stored.progress.items() if k != figures.PAGE}
    stored.save(update_fields=["progress"])
    assert "progress" not in metrics.breakdown(row, newest).rollup.get_deferred_fields()  # rebuilt, ledger and all
    assert figures.PAGE in BranchRollup.objects.get(repository=row, branch="main").progress
    check()

    client = Client()
    client.force_login(people.bob)
    html = client.get(f"/repositories/{row.pk}/dashboard/").content.decode()
    assert "src/k0.cu" in html
