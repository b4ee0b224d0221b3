"""Per-branch rollups (portal.reporting.rollups) against a live aggregation of the findings table: after real
scans through the pipeline (new, fixed, reopened, a second branch inheriting triage), triage of one finding, of a
selection, of everything matching a filter and through the API, a branch deleted on the remote and a repository
deleted; a missing or stale rollup is rebuilt by the page that needs it; the dashboard's query count does not
grow with findings or files."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from portal.findings.models import DISMISSED_TRIAGE, BranchRollup, Finding
from portal.reporting import effort, metrics, rollups
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from tests.portal.api_clients import ApiClient
from tests.portal.people import client_for

DEMO = Path(__file__).resolve().parents[3] / "demo" / "cuda-demo" / "src"
LANE = "__global__ void k(float *x) {{\n{body}}}\n"
BAD = "  x[threadIdx.x % 32] = warpSize;\n"
GOOD = "  x[threadIdx.x % warpSize] = 0;\n"


def live(repository_id: int, branch: str) -> dict:
    """What the rollup must hold, computed here row by row from the findings table (not by the rollup's SQL)."""
    groups: Counter = Counter()
    files: dict[str, list] = defaultdict(lambda: [0, 0, 0.0])
    for f in Finding.objects.filter(repository_id=repository_id, branch=branch, state="open"):
        groups[(f.rule, f.name, f.risk, f.severity, f.severity_rank, f.triage)] += 1
        figures = files[f.path]
        figures[0] += 1
        if f.triage not in DISMISSED_TRIAGE:
            figures[1] += 1
            figures[2] += effort.SEVERITY_HOURS.get(f.severity, 1.0) * effort.RISK_FACTOR.get(f.risk, 1.0)
    return {"open_total": sum(groups.values()), "groups": dict(groups), "files": dict(files)}


def stored(repository_id: int, branch: str) -> dict:
    rollup = BranchRollup.objects.get(repository_id=repository_id, branch=branch)
    return {
        "open_total": rollup.open_total,
        "groups": {tuple(g[:-1]): g[-1] for g in rollup.groups},
        "files": {path: [n, work, pytest.approx(hours)] for path, (n, work, hours) in rollup.files.items()},
    }


def assert_rollup_is_live(repository: Repository, branch: str = "") -> dict:
    branch = branch or repository.default_branch
    expected = live(repository.pk, branch)
    assert stored(repository.pk, branch) == expected
    return expected


def scan(row: Repository, commit: str, branch: str = "main") -> Scan:
    created = do_create_scan(row, branch=branch, commit_sha=commit, enqueue=False)
    pipeline.run(created.pk)
    created.refresh_from_db()
    assert created.status == ScanStatus.FINISHED, (created.error_code, created.error_message)
    return created


@pytest.fixture
def project(people, repo_factory):
    """A repository scanned once by the real pipeline: the demo's GEMM and softmax kernels and a kernel with two
    hard-coded warp sizes (ROC101), on main."""
    repo = repo_factory()
    commit = repo.commit(
        "port",
        **{
            "src__gemm.cu": (DEMO / "gemm.cu").read_text(),
            "src__softmax.cu": (DEMO / "softmax.cu").read_text(),
            "src__k.cu": LANE.format(body=BAD + BAD),
        },
    )
    row = Repository.objects.create(team=people.team, name="kernels", clone_url=repo.url, tracked_branches=["develop"])
    first = scan(row, commit)
    return repo, row, first


@pytest.mark.django_db
def test_scans_keep_the_rollup_equal_to_the_findings_new_fixed_and_reopened(project):
    repo, row, first = project
    expected = assert_rollup_is_live(row)
    assert expected["open_total"] >= 4 and len({key[0] for key in expected["groups"]}) >= 2
    assert BranchRollup.objects.get(repository=row, branch="main").scan_id == first.pk

    fixed = scan(row, repo.commit("fix", **{"src__k.cu": LANE.format(body=GOOD)}))
    assert fixed.summary["tracking"]["fixed"] == 2
    after_fix = assert_rollup_is_live(row)
    assert after_fix["open_total"] == expected["open_total"] - 2 and "src/k.cu" not in after_fix["files"]

    reopened = scan(row, repo.commit("regress", **{"src__k.cu": LANE.format(body=BAD)}))
    assert reopened.summary["tracking"]["reopened"] == 1
    assert assert_rollup_is_live(row)["open_total"] == expected["open_total"] - 1
    assert BranchRollup.objects.get(repository=row, branch="main").scan_id == reopened.pk


@pytest.mark.django_db
def test_triage_one_a_selection_everything_matching_and_through_the_api_moves_the_rollup(people, project):
    _repo, row, _first = project
    bob = client_for(people.bob)
    ids = list(Finding.objects.filter(repository=row, state="open").order_by("pk").values_list("pk", flat=True))

    bob.post(reverse("findings:triage", args=[ids[0]]), {"decision": "false_positive", "reason": "host code"})
    assert Finding.objects.get(pk=ids[0]).triage == "false_positive"
    assert_rollup_is_live(row)

    bob.post(
        reverse("findings:bulk"),
        {"ids": ids[1:3], "decision": "wont_fix", "reason": "legacy", "scope": "selected", "confirm": "1"},
    )
    assert_rollup_is_live(row)

    bob.post(reverse("findings:bulk"), {"decision": "confirmed", "rule": "ROC101", "scope": "all", "confirm": "1"})
    assert Finding.objects.filter(repository=row, rule="ROC101", triage="confirmed").count() >= 2
    assert_rollup_is_live(row)

    api = ApiClient(people.bob)
    assert api.post(f"/findings/{ids[1]}/triage/", {"decision": "untriaged"}).status_code == 200
    assert_rollup_is_live(row)
    response = api.post("/findings/triage/", {"ids": ids[:4], "decision": "accepted_risk", "reason": "ok"})
    assert response.status_code == 200 and response.json()["triaged"] == 4
    expected = assert_rollup_is_live(row)
    dismissed = sum(n for key, n in expected["groups"].items() if key[-1] in DISMISSED_TRIAGE)
    assert dismissed >= 4

    # the pages show the moved figures: the portfolio's work left leaves the dismissed findings out
    [portfolio_row] = metrics.portfolio(people.team.pk)
    groups = [
        (risk, severity, n)
        for (_r, _n, risk, severity, _k, triage), n in expected["groups"].items()
        if triage not in DISMISSED_TRIAGE
    ]
    assert portfolio_row.hours == pytest.approx(
        effort.repository_hours(groups, portfolio_row.progress.unconverted, portfolio_row.parse_modes)
    )
    assert portfolio_row.open_total == expected["open_total"]


@pytest.mark.django_db
def test_a_second_branch_inherits_triage_and_each_branch_keeps_its_own_rollup(people, project):
    repo, row, _first = project
    dismissed = Finding.objects.filter(repository=row, rule="ROC101").count()
    client_for(people.bob).post(
        reverse("findings:bulk"),
        {"decision": "false_positive", "reason": "test code", "rule": "ROC101", "scope": "all", "confirm": "1"},
    )
    repo.branch("develop")
    develop = scan(row, repo.commit("more", **{"src__extra.cu": LANE.format(body=BAD)}), branch="develop")
    assert develop.summary["tracking"]["inherited"] == dismissed
    assert_rollup_is_live(row, "main")
    on_develop = assert_rollup_is_live(row, "develop")
    assert on_develop["files"]["src/k.cu"][1] == 0  # inherited as dismissed: no work left there
    assert on_develop["open_total"] == live(row.pk, "main")["open_total"] + 1


@pytest.mark.django_db
def test_a_branch_deleted_on_the_remote_keeps_rollups_equal_to_its_findings(people, project):
    from portal.webhooks.actions import do_receive_delivery

    repo, row, _first = project
    repo.branch("develop")
    scan(row, repo.commit("more", **{"src__extra.cu": LANE.format(body=BAD)}), branch="develop")
    body = json.dumps({"ref": "refs/heads/develop", "before": "a" * 40, "after": "0" * 40, "deleted": True})
    status, message = do_receive_delivery(
        row,
        "github",
        {"X-GitHub-Event": "push", "X-GitHub-Delivery": "d-1", "Content-Type": "application/json"},
        body.encode(),
    )
    assert status == 202 and "deleted" in message
    row.refresh_from_db()
    assert row.gone_branches == ["develop"]
    assert_rollup_is_live(row, "develop")
    assert_rollup_is_live(row, "main")
    # and its figures still move with triage, like any branch's
    client_for(people.bob).post(
        reverse("findings:bulk"), {"decision": "confirmed", "branch": "develop", "scope": "all", "confirm": "1"}
    )
    assert Finding.objects.filter(repository=row, branch="develop", triage="confirmed").exists()
    assert_rollup_is_live(row, "develop")


@pytest.mark.django_db
def test_deleting_a_repository_deletes_its_rollups(project):
    _repo, row, _first = project
    assert BranchRollup.objects.filter(repository=row).exists()
    row.delete()
    assert not BranchRollup.objects.exists()


@pytest.mark.django_db
def test_a_missing_or_stale_rollup_is_rebuilt_by_the_page_and_the_numbers_do_not_change(people, project):
    _repo, row, first = project
    vera = client_for(people.vera)
    dashboard = reverse("dashboards:repository", args=[row.pk])

    def figures():
        response = vera.get(dashboard)
        found = response.context["found"]
        return (
            found.open_total,
            [(r["rule"], r["n"]) for r in found.by_rule],
            response.context["estimate"],
            {p: (w.findings, w.hours) for p, w in found.files.items()},
        )

    shown = figures()
    BranchRollup.objects.all().delete()  # as after an upgrade, before `manage.py rebuild_rollups`
    assert figures() == shown
    assert BranchRollup.objects.get(repository=row, branch="main").scan_id == first.pk
    # a change made behind the rollup's back (an admin edit), then a scan recorded without ingestion: the
    # rollup was built at another scan, so the page rebuilds it rather than trusting it
    edited = Finding.objects.filter(repository=row, rule="ROC101").update(state="fixed")
    Scan.objects.create(repository=row, branch="main", status=ScanStatus.FINISHED, commit_sha="c" * 40)
    open_now, *_rest = figures()
    assert open_now == live(row.pk, "main")["open_total"] == shown[0] - edited
    assert_rollup_is_live(row)
    # the repository list and the portfolio fill in a missing rollup the same way
    BranchRollup.objects.all().delete()
    page = client_for(people.vera).get(reverse("repositories:list"))
    assert [repo.open_findings for repo, _scan in page.context["rows"]] == [open_now]
    BranchRollup.objects.all().delete()
    assert metrics.portfolio(people.team.pk)[0].open_total == open_now
    assert_rollup_is_live(row)


@pytest.mark.django_db
def test_the_rebuild_command_builds_every_branch(people, project):
    from django.core.management import call_command

    _repo, row, first = project
    BranchRollup.objects.all().delete()
    call_command("rebuild_rollups", verbosity=0)
    assert BranchRollup.objects.get(repository=row, branch="main").scan_id == first.pk
    assert_rollup_is_live(row)


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_pages_query_counts_do_not_grow_with_findings_or_files(people, repo_factory):
    repo = repo_factory()
    row = Repository.objects.create(team=people.team, name="grows", clone_url=repo.url)
    scan(row, repo.commit("small", **{"src__k.cu": LANE.format(body=BAD)}))
    vera = client_for(people.vera)
    urls = [
        reverse("dashboards:repository", args=[row.pk]),
        reverse("dashboards:portfolio"),
        reverse("repositories:list"),
        reverse("catalogue:rule", args=["ROC101"]),
    ]
    before = [count_queries(vera, url) for url in urls]
    scan(row, repo.commit("big", **{f"src__m{i}.cu": LANE.format(body=BAD * (1 + i % 4)) for i in range(40)}))
    assert Finding.objects.filter(repository=row, state="open").count() > 80
    assert [count_queries(vera, url) for url in urls] == before
    assert_rollup_is_live(row)
    page = vera.get(reverse("catalogue:rule", args=["ROC101"]))
    assert page.context["open_findings"] == Finding.objects.filter(repository=row, rule="ROC101", state="open").count()


@pytest.mark.django_db(transaction=True)
def test_a_triage_during_an_ingestion_waits_for_it_and_moves_the_figures_it_left(people):
    """Ingestion (here its last steps: a finding fixed, the rollup rebuilt) holds the branch's rollup row until
    it commits; a triage meanwhile waits for the row and applies its delta to what the ingestion wrote, so
    neither change is lost."""
    import threading
    import time

    from django.db import connections, transaction

    from portal.findings.actions import do_triage_findings
    from tests.portal.dashboards.test_dashboards_views import FINDINGS, add_findings

    row = Repository.objects.create(team=people.team, name="racy", clone_url="https://example.com/r.git")
    scan_row = Scan.objects.create(repository=row, branch="main", status=ScanStatus.FINISHED, commit_sha="a" * 40)
    add_findings(row, scan_row, FINDINGS)
    rollups.refresh_after_ingest(scan_row)
    fixed_by_scan, triaged = Finding.objects.filter(repository=row, state="open").order_by("pk")[:2]
    rebuilt, committed = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def ingestion():
        try:
            with transaction.atomic():
                Finding.objects.filter(pk=fixed_by_scan.pk).update(state="fixed")
                rollups.refresh_after_ingest(scan_row)
                rebuilt.set()
                time.sleep(1.0)
            committed.set()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
            rebuilt.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=ingestion)
    thread.start()
    assert rebuilt.wait(10)
    do_triage_findings(Finding.objects.filter(pk=triaged.pk), "wont_fix", "legacy", acting_user=people.bob)
    assert committed.is_set()  # the triage could not finish before the ingestion committed
    thread.join(10)
    assert not errors, errors
    assert Finding.objects.get(pk=fixed_by_scan.pk).state == "fixed"
    assert Finding.objects.get(pk=triaged.pk).triage == "wont_fix"
    assert_rollup_is_live(row)
