"""A verdict that changes says why (issue 30, point 4): a tracked finding seen again with another severity or risk
gets a `rerated` event with both values and the reason (the sentences its new message added), the scan page counts
the re-rated findings, the finding page's history shows them, the migration's baseline keeps the rating each
finding had at the baseline scan, and the burn-down marks re-ratings and the step a new repository's scope adds.

Real PostgreSQL, real git repositories and the real scan pipeline where the scanner's own reason is the point; the
ingestion called directly with a scan's results where the messages must be chosen."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from portal.findings import tracking
from portal.findings.models import RERATED_REASON, Finding, FindingEvent
from portal.progress.models import ProgressSnapshot
from portal.reporting import charts, history, overview, rollups
from portal.repositories.models import Repository
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from tests.portal.people import client_for
from tests.portal.progress.test_migration_progress import assert_identity, figures_of, open_hours, week
from tests.portal.scans.test_scan_tracking import BAD, GOOD, LANE, register, scan

# The repository's build (scanner/build): a lane finding in a source no build compiles is low at most, and its
# message says why (scanner/analysis/port_notes.py); compiled, it is high.
GOOD_SOURCE = LANE.format(body=GOOD)


def cmake(*sources: str) -> str:
    return f"add_library(k {' '.join(sources)})\n"


UNBUILT = "No build of this repository compiles this file ("
NOTE = "HIP-Clang does not compile this line (`#if __CUDA_ARCH__ >= 800`, line 3): the ROCm build takes another branch."


def rerated(finding) -> list[dict]:
    return list(
        FindingEvent.objects.filter(finding=finding, kind="rerated").order_by("id").values_list("data", flat=True)
    )


# --- the scanner's reason, through the pipeline -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_source_no_build_compiles_is_lowered_and_the_event_says_why_then_raised_back(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    sources = {"src__k.cu": LANE.format(body=BAD), "src__other.cu": GOOD_SOURCE}
    scan(row, repo.commit("kernel", **sources, **{"CMakeLists.txt": cmake("src/k.cu", "src/other.cu")}))
    [finding] = Finding.objects.filter(repository=row)
    before = finding.message
    assert (finding.rule, finding.severity) == ("ROC101", "high")

    lowered = scan(row, repo.commit("k.cu out of the build", **{"CMakeLists.txt": cmake("src/other.cu")}))
    finding.refresh_from_db()
    assert finding.severity == "low" and finding.state == "open"
    tracking_counts = lowered.summary["tracking"]
    assert (tracking_counts["rerated"], tracking_counts["still_open"], tracking_counts["new"]) == (1, 1, 0)
    [event] = rerated(finding)
    # only the key that changed (the risk stayed), and the reason is what the new message added, whole
    assert set(event) == {"severity", "reason"} and event["severity"] == ["high", "low"]
    assert event["reason"].startswith(UNBUILT) and finding.message == f"{before} {event['reason']}"
    assert FindingEvent.objects.get(finding=finding, kind="rerated").scan_id == lowered.pk

    # the scan page counts it beside new / fixed / reopened, the finding page shows both values and the reason
    vera = client_for(people.vera)
    page = vera.get(reverse("scans:detail", args=[lowered.pk])).content.decode()
    card = re.search(r'id="scan-rerated"><div class="value">(\d+)</div><div class="label">([^<]+)<', page)
    assert card and card.groups() == ("1", "re-rated")
    history_html = history_of(vera, finding)
    assert re.search(rf"re-rated in scan {lowered.pk}: severity high → low <span", history_html)
    assert UNBUILT in history_html and "risk" not in history_html

    # back in the build: high again, and the new message says nothing the old one did not
    scan(row, repo.commit("k.cu built", **{"CMakeLists.txt": cmake("src/k.cu", "src/other.cu")}))
    finding.refresh_from_db()
    assert finding.severity == "high" and finding.message == before
    assert [e["severity"] for e in rerated(finding)] == [["high", "low"], ["low", "high"]]
    assert rerated(finding)[1]["reason"] == RERATED_REASON
    assert 'severity low → high <span class="rerated-reason">(the rule&#x27;s judgement changed with the code)' in (
        history_of(vera, finding)
    )


def history_of(client, finding) -> str:
    page = client.get(reverse("findings:detail", args=[finding.pk])).content.decode()
    return page[page.index('<ul id="history"') : page.index("</ul>", page.index('<ul id="history"'))]


# --- the ingestion with chosen messages ---------------------------------------------------------------------------


def finding(key: str, severity: str, message: str, risk: str = "silent-wrong-result", rule: str = "ROC101") -> dict:
    return {
        "rule": rule,
        "fingerprint": key,
        "occurrence": 0,
        "name": "warp-lane-modulo",
        "risk": risk,
        "severity": severity,
        "line": 3,
        "column": 3,
        "end_line": 3,
        "end_column": 20,
        "message": message,
        "snippet": "x[threadIdx.x % 32] = 0;",
        "suppressed": False,
    }


def ingest(row, findings: list[dict], *, first: bool = False, path: str = "k.cu"):
    """One scan's results ingested as the pipeline does, inside a transaction, then the scan marked finished."""
    scan_row = Scan.objects.create(repository=row, branch="main", commit_sha="a" * 40, status=ScanStatus.INGESTING)
    outcome = tracking.FileOutcome(path, frozenset({f["rule"] for f in findings} | {"ROC101"}), findings)
    with transaction.atomic():
        report = tracking.ingest(scan_row, [outcome], {path}, {}, first_scan_of_branch=first)
        Scan.objects.filter(pk=scan_row.pk).update(
            status=ScanStatus.FINISHED, finished=timezone.now(), summary={"tracking": report.to_dict()}
        )
    return scan_row, report


def repository(people, name: str = "chosen") -> Repository:
    return Repository.objects.create(team=people.team, name=name, clone_url=f"https://example.com/{name}.git")


@pytest.mark.django_db
def test_the_reason_is_the_sentences_the_new_message_added_in_their_order(people):
    row = repository(people)
    old = "`x % 32` counts warps of 32 threads. Use warpSize."
    ingest(
        row,
        [
            finding("a", "high", old),
            finding("b", "high", old),
            finding("c", "high", old),
            finding("d", "high", old),
        ],
        first=True,
    )
    _scan, report = ingest(
        row,
        [
            # two sentences added around an old one: both, in the new message's order
            finding("a", "info", f"First reason. `x % 32` counts warps of 32 threads. {NOTE} Use warpSize."),
            # the risk only: only its key
            finding("b", "high", old + " Second reason.", risk="performance"),
            # a message that changed but kept its rating: no event
            finding("c", "high", old + " A new remark."),
            # both changed, a sentence dropped and none added: our own words
            finding("d", "medium", "`x % 32` counts warps of 32 threads.", risk="runtime-failure"),
        ],
    )
    assert (report.rerated, report.still_open, report.reopened) == (3, 4, 0)
    assert report.to_dict()["rerated"] == 3
    by_key = {f.fingerprint: f for f in Finding.objects.filter(repository=row)}
    assert rerated(by_key["a"]) == [{"severity": ["high", "info"], "reason": f"First reason. {NOTE}"}]
    assert rerated(by_key["b"]) == [{"risk": ["silent-wrong-result", "performance"], "reason": "Second reason."}]
    assert rerated(by_key["c"]) == []
    assert rerated(by_key["d"]) == [
        {"severity": ["high", "medium"], "risk": ["silent-wrong-result", "runtime-failure"], "reason": RERATED_REASON}
    ]


@pytest.mark.django_db
def test_a_fixed_finding_back_with_another_rating_is_reopened_and_rerated(people):
    row = repository(people)
    ingest(row, [finding("a", "high", "Counts warps of 32.")], first=True)
    _scan, fixed = ingest(row, [])
    assert fixed.fixed == 1
    back, report = ingest(row, [finding("a", "info", f"Counts warps of 32. {NOTE}")])
    assert (report.reopened, report.rerated, report.still_open) == (1, 1, 0)
    [only] = Finding.objects.filter(repository=row)
    assert list(FindingEvent.objects.filter(finding=only).values_list("kind", flat=True)) == [
        "created",
        "fixed",
        "reopened",
        "rerated",
    ]
    assert rerated(only) == [{"severity": ["high", "info"], "reason": NOTE}]
    assert FindingEvent.objects.get(finding=only, kind="rerated").scan_id == back.pk


@pytest.mark.django_db
def test_rerating_costs_the_same_statements_for_two_findings_or_three_hundred(people):
    counts = []
    for name, n in (("few", 2), ("many", 300)):
        row = repository(people, name)
        ingest(row, [finding(f"k{i}", "high", "Counts warps of 32.") for i in range(n)], first=True)
        with CaptureQueriesContext(connection) as queries:
            _scan, report = ingest(row, [finding(f"k{i}", "low", f"Counts warps of 32. {NOTE}") for i in range(n)])
        assert report.rerated == n and FindingEvent.objects.filter(kind="rerated", finding__repository=row).count() == n
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_the_history_shows_a_rerating_in_chinese(people):
    row = repository(people)
    ingest(row, [finding("a", "high", "Use warpSize."), finding("b", "high", "Use warpSize.")], first=True)
    ingest(row, [finding("a", "info", f"Use warpSize. {NOTE}"), finding("b", "low", "Use warpSize.")])
    client = client_for(people.vera, headers={"Accept-Language": "zh-CN"})
    a, b = Finding.objects.filter(repository=row).order_by("fingerprint")
    shown = history_of(client, a)
    assert "重新评级" in shown and "严重程度 高 → 信息" in shown
    assert "HIP-Clang 不编译这一行" in shown and "the ROCm build" not in shown
    other = history_of(client, b)
    assert "严重程度 高 → 低" in other and "规则对这段代码的判断随代码改变" in other


# --- the baseline ---------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_rerating_moves_the_work_left_never_the_baseline(people, repo_factory):
    """Two lane findings (high, silent wrong result: 6 h each) known at the baseline; their files leave the build
    later, which makes them low (0.75 h each). The work left drops by 10.5 h; the baseline stays at what the
    baseline scan knew, in the figures, the snapshots, a rollup rebuilt from scratch and the printed formula; and
    when the files are built again, the baseline is still the same."""
    repo = repo_factory()
    row = register(people, repo)
    built = cmake("src/a.cu", "src/b.cu", "src/other.cu")
    sources = {"src__a.cu": LANE.format(body=BAD), "src__b.cu": LANE.format(body=BAD), "src__other.cu": GOOD_SOURCE}
    with week(0):
        scan(row, repo.commit("baseline", **sources, **{"CMakeLists.txt": built}))
    at_baseline = figures_of(row)
    assert open_hours(row) == pytest.approx(12.0)

    with week(1):
        lowered = scan(row, repo.commit("out of the build", **{"CMakeLists.txt": cmake("src/other.cu")}))
    assert lowered.summary["tracking"]["rerated"] == 2 and lowered.summary["tracking"]["new"] == 0
    after = figures_of(row)
    assert after.baseline == pytest.approx(at_baseline.baseline)
    assert after.left == pytest.approx(at_baseline.left - 2 * (6.0 - 0.75))
    assert after.discovered == pytest.approx(-10.5) and after.lowered == pytest.approx(10.5)
    assert_identity(after)
    snapshots = list(ProgressSnapshot.objects.filter(repository=row).order_by("day").values_list("baseline", "left"))
    assert [b for b, _left in snapshots] == pytest.approx([at_baseline.baseline] * 2)
    assert snapshots[1][1] == pytest.approx(snapshots[0][1] - 10.5)
    rollups.rebuild_all()
    assert figures_of(row).baseline == pytest.approx(at_baseline.baseline)
    page = client_for(people.vera).get(reverse("dashboards:repository", args=[row.pk])).content.decode()
    formula = " ".join(page[page.index('id="progress-formula"') :].split())
    assert f"= {after.baseline:g} − {after.lowered:g} − 0</p>" in formula

    with week(2):
        scan(row, repo.commit("built again", **{"CMakeLists.txt": built}))
    back = figures_of(row)
    assert back.baseline == pytest.approx(at_baseline.baseline) and back.left == pytest.approx(at_baseline.left)
    assert back.discovered == pytest.approx(0)


# --- the burn-down's marks ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_team_burndown_marks_a_rerating_scan_and_the_step_a_new_repository_adds(people):
    today = timezone.localdate()
    a, b = repository(people, "alpha"), repository(people, "beta")
    for back, left in ((30, 100.0), (20, 90.0), (10, 70.0), (3, 60.0)):
        ProgressSnapshot.objects.create(repository=a, day=today - timedelta(days=back), done=0, left=left)
    ProgressSnapshot.objects.create(repository=b, day=today - timedelta(days=10), done=0, left=40.0)
    noon = datetime.combine(today - timedelta(days=3), datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    for branch, count in (("main", 12), ("feature", 5)):  # only the default branch's re-ratings move the line
        Scan.objects.create(
            repository=a,
            branch=branch,
            status=ScanStatus.FINISHED,
            finished=noon,
            summary={"tracking": {"rerated": count}},
        )

    team = overview.outlook([a.pk, b.pk])
    chart = team.chart
    [rerating] = [m for m in chart.marks if m.kind == "rerated"]
    [added] = [m for m in chart.marks if m.kind == "added"]
    days = [p.day for p in team.points]
    on = {p.day: drawn for p, drawn in zip(team.points, chart.points)}
    assert rerating.title == f"{charts.axis_date(today - timedelta(days=3))}: 12 findings re-rated"
    assert rerating.x == on[today - timedelta(days=3)].x
    assert (
        added.title
        == f"{charts.axis_date(today - timedelta(days=10))}: new repository beta: 40 h of work added to the scope"
    )
    # the bracket spans the step: from the line before beta joined (alpha's 90 h) up to the sum (70 + 40 h)
    step = days.index(today - timedelta(days=10))
    ys = sorted(float(v) for v in re.findall(r"M[\d.]+,([\d.]+)H", added.shape))
    assert ys == [chart.points[step].y, chart.points[step - 1].y] and added.x == chart.points[step].x
    assert team.points[step].left == pytest.approx(110) and team.points[step - 1].left == pytest.approx(90)

    # alpha on its own: its re-rating, no step (beta is not in it)
    assert [m.kind for m in overview.outlook([a.pk]).chart.marks] == ["rerated"]
    # beta on its own: its first snapshot is its first point, no step to explain
    assert overview.outlook([b.pk]).chart.marks == []

    # the portfolio's team burn-down draws them (the team's repositories with a finished scan)
    Scan.objects.create(repository=b, branch="main", status=ScanStatus.FINISHED, finished=noon, summary={})
    page = client_for(people.vera).get(reverse("dashboards:portfolio")).content.decode()
    assert 'data-kind="rerated"' in page and 'data-kind="added"' in page
    caption = page[page.index("<figcaption>") : page.index("</figcaption>")]
    assert "12 findings re-rated" in caption and "new repository beta: 40 h of work added to the scope" in caption
    # a window that opens after both joined: their figures are carried in, no step; no re-rating inside it
    assert history.series_and_markers([a.pk, b.pk], today - timedelta(days=2), today)[1] == []
