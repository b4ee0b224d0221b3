"""The scan pipeline in-process against real git repositories and PostgreSQL: tracking across commits."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.findings.models import Finding, FindingEvent
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline

LANE = "__global__ void k(float *x) {{\n{body}}}\n"
BAD = "  x[threadIdx.x % 32] = warpSize;\n"
GOOD = "  x[threadIdx.x % warpSize] = 0;\n"


def scan(repo_row: Repository, commit: str = "", branch: str = "") -> Scan:
    row = do_create_scan(repo_row, branch=branch, commit_sha=commit, enqueue=False)
    pipeline.run(row.pk)
    row.refresh_from_db()
    assert row.status == ScanStatus.FINISHED, (row.error_code, row.error_message)
    return row


def register(people, repo) -> Repository:
    return Repository.objects.create(team=people.team, name=repo.path.name, clone_url=repo.url)


@pytest.mark.django_db
def test_new_then_fixed_then_reopened_keeps_triage(people, repo_factory):
    repo = repo_factory()
    c1 = repo.commit("bad", **{"src__k.cu": LANE.format(body=BAD)})
    row = register(people, repo)
    first = scan(row, c1)
    [finding] = Finding.objects.filter(repository=row)
    assert (finding.rule, finding.state, finding.first_seen_id) == ("ROC101", "open", first.pk)
    finding.triage, finding.triage_reason = Finding.Triage.CONFIRMED, "real bug"
    finding.save()

    c2 = repo.commit("fix", **{"src__k.cu": LANE.format(body=GOOD)})
    second = scan(row, c2)
    finding.refresh_from_db()
    assert (finding.state, finding.fixed_in_id) == ("fixed", second.pk)
    assert second.summary["tracking"]["fixed"] == 1

    c3 = repo.commit("regress", **{"src__k.cu": LANE.format(body=BAD)})
    third = scan(row, c3)
    finding.refresh_from_db()
    assert (finding.state, finding.fixed_in_id, finding.triage) == ("open", None, "confirmed")
    assert third.summary["tracking"]["reopened"] == 1
    assert Finding.objects.filter(repository=row).count() == 1
    kinds = list(FindingEvent.objects.filter(finding=finding).values_list("kind", flat=True))
    assert kinds == ["created", "fixed", "reopened"]


@pytest.mark.django_db
def test_identical_findings_in_one_file_stay_two_and_pair_one_to_one(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("two", **{"k.cu": LANE.format(body=BAD + BAD)}))
    assert sorted(Finding.objects.values_list("occurrence", flat=True)) == [0, 1]
    scan(row, repo.commit("one", **{"k.cu": LANE.format(body=BAD)}))
    assert list(Finding.objects.order_by("occurrence").values_list("occurrence", "state")) == [
        (0, "open"),
        (1, "fixed"),
    ]
    scan(row, repo.commit("three", **{"k.cu": LANE.format(body=BAD * 3)}))
    assert list(Finding.objects.order_by("occurrence").values_list("occurrence", "state")) == [
        (0, "open"),
        (1, "open"),
        (2, "open"),
    ]


@pytest.mark.django_db
def test_a_renamed_file_carries_its_findings(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("add", **{"old__k.cu": LANE.format(body=BAD)}))
    [finding] = Finding.objects.all()
    repo.git("mv", "old/k.cu", "new_k.cu")
    rename = repo.commit("rename")
    result = scan(row, rename)
    finding.refresh_from_db()
    assert (finding.path, finding.state) == ("new_k.cu", "open")
    assert Finding.objects.count() == 1 and result.summary["tracking"]["moved"] == 1


@pytest.mark.django_db
def test_a_file_that_did_not_parse_or_a_disabled_rule_leaves_findings_alone(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("add", **{"k.cu": LANE.format(body=BAD), "b.cu": LANE.format(body=BAD)}))
    # k.cu becomes binary (cannot be analysed); the rule is switched off for b.cu's repository config.
    (repo.path / "k.cu").write_bytes(b"\x00binary" + LANE.format(body=BAD).encode())
    result = scan(row, repo.commit("break", **{".rocport.toml": '[rules]\ndisable = ["ROC101"]\n'}))
    assert set(Finding.objects.values_list("path", "state")) == {("k.cu", "open"), ("b.cu", "open")}
    assert result.summary["tracking"]["untouched"] == 2 and result.summary["tracking"]["fixed"] == 0


@pytest.mark.django_db
def test_a_deleted_file_fixes_its_findings(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("add", **{"k.cu": LANE.format(body=BAD)}))
    repo.git("rm", "--quiet", "k.cu")
    scan(row, repo.commit("delete", **{"other.cu": "int x;\n"}))
    assert list(Finding.objects.values_list("state", flat=True)) == ["fixed"]


@pytest.mark.django_db
def test_a_new_branch_inherits_the_default_branch_triage(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    row.tracked_branches = ["feature"]
    row.save()
    scan(row, repo.commit("add", **{"k.cu": LANE.format(body=BAD)}))
    Finding.objects.update(triage=Finding.Triage.FALSE_POSITIVE, triage_reason="guarded elsewhere")
    repo.branch("feature")
    scan(row, repo.commit("feature work", **{"extra.cu": "int y;\n"}), branch="feature")
    feature = Finding.objects.get(branch="feature")
    assert (feature.triage, feature.triage_reason) == ("false_positive", "guarded elsewhere")


@pytest.mark.django_db
def test_a_rescan_after_a_one_file_change_reuses_the_other_files(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    files = {f"src__f{i}.cu": LANE.format(body=BAD if i % 2 else GOOD) for i in range(12)}
    first = scan(row, repo.commit("many", **files))
    assert (first.files_total, first.files_reused) == (12, 0)
    second = scan(row, repo.commit("one change", **{"src__f3.cu": "// fixed\n" + LANE.format(body=GOOD)}))
    assert (second.files_total, second.files_reused) == (12, 11)
    assert Finding.objects.filter(state="open").count() == 5 and Finding.objects.filter(state="fixed").count() == 1


@pytest.mark.django_db
def test_ingestion_statements_do_not_grow_with_findings(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    small = scan(row, repo.commit("a", **{"k.cu": LANE.format(body=BAD * 2)}))
    repo2 = repo_factory("big")
    row2 = register(people, repo2)
    commit = repo2.commit("b", **{"k.cu": LANE.format(body=BAD * 400)})
    created = do_create_scan(row2, commit_sha=commit, enqueue=False)
    with CaptureQueriesContext(connection) as big_queries:
        pipeline.run(created.pk)
    created.refresh_from_db()
    assert Finding.objects.filter(repository=row2).count() == 400
    assert len(big_queries) < 70, [q["sql"][:80] for q in big_queries.captured_queries]
    del small


@pytest.mark.django_db
def test_a_repository_level_finding_is_tracked_at_the_repository_and_fixed_by_any_file(people, repo_factory):
    """ROC261 speaks for the whole checkout (path "."): opened by host setup without the NUMA fix, closed when
    another file adds it, although the file it was located at did not change."""
    setup = "#!/bin/sh\nsudo amdgpu-install -y --usecase=rocm\nsudo sysctl -w vm.max_map_count=262144\n"
    repo = repo_factory()
    c1 = repo.commit("host setup", **{"deploy__setup_host.sh": setup, "src__k.cu": LANE.format(body=GOOD)})
    row = register(people, repo)
    first = scan(row, c1)
    [finding] = Finding.objects.filter(repository=row, rule="ROC261")
    assert (finding.path, finding.state) == (".", "open")
    assert "deploy/setup_host.sh" in finding.message
    assert first.files.filter(path=".", language="repository").exists()

    c2 = repo.commit("numa off", **{"deploy__sysctl.d__90-amd-gpu.conf": "kernel.numa_balancing=0\n"})
    scan(row, c2)
    finding.refresh_from_db()
    assert finding.state == "fixed"
    # A rescan that reuses every cached per-file result still runs the repository pass.
    c3 = repo.commit("numa on again", **{"deploy__sysctl.d__90-amd-gpu.conf": "vm.swappiness=10\n"})
    scan(row, c3)
    finding.refresh_from_db()
    assert finding.state == "open"
