"""Which HIP build counts is decided in the open (issue 30, point 3): the baseline scan keeps the HIP builds the
scanner finds, a later scan that finds another set changes nothing until a manager accepts it on the repository
page (then a rescan re-rates the NVIDIA side), and a `.rocport.toml` declaration wins.

Real PostgreSQL, real git repositories, the real pipeline run in this process (portal.repositories.hip_builds)."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from portal.findings.models import Finding
from portal.repositories.models import HipBuildDecision
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import Scan, ScanShard
from portal.scans.pipeline import checkouts, shards
from portal.scans.pipeline import runner as pipeline
from tests.portal.people import client_for
from tests.portal.scans.test_scan_tracking import register, scan

KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"
CMAKE = (
    "cmake_minimum_required(VERSION 3.18)\n"
    "project(train LANGUAGES CXX CUDA)\n"
    "add_executable(train_cu train.cu)\n"
    "set_target_properties(train_cu PROPERTIES CUDA_ARCHITECTURES 80)\n"
)
# hipcc in the branch a Linux build takes, nvcc only on Windows: the HIP build of the same source.
MAKEFILE = (
    "ifeq ($(OS),Windows_NT)\n"
    "  NVCC := nvcc\n"
    "else\n"
    "  NVCC := hipcc\n"
    "endif\n"
    "\n"
    "train: train.cu\n"
    "\t$(NVCC) -O2 -o train train.cu\n"
)
HIP_BUILD = "Makefile:train"
DESCRIBED = "make target <code>train</code> in Makefile:8 (hipcc)"
NVIDIA_SIDE = "The HIP build make target `train` in Makefile:8 (hipcc) compiles every source the CUDA builds compile"
PENDING = "The scanner now finds a HIP build:"


def cuda_only(repo) -> str:
    return repo.commit("CUDA build", **{"train.cu": KERNEL, "CMakeLists.txt": CMAKE})


def scan_in_shards(repository, commit: str) -> Scan:
    """A scan planned here, one file a shard, whose shards then plan the checkout again from scratch (the checkout and
    its memo dropped, as on another worker): they must pass the decision the planner stored, or their cache keys
    differ from the planner's and they refuse to scan."""
    row = do_create_scan(repository, commit_sha=commit, enqueue=False)
    with override_settings(ROCPORT_SHARD_FILES=1):
        shard_ids = pipeline._plan(pipeline.claim(row.pk))
    assert len(shard_ids) > 1
    outcome = None
    for shard_id in shard_ids:
        checkouts.release()
        outcome = shards.run(shard_id, task_id=shards.new_task_id(), worker="")
        assert outcome is not shards.Outcome.RETRY, ScanShard.objects.get(pk=shard_id).error
    assert outcome is shards.Outcome.LAST
    pipeline.ingest(row.pk)
    checkouts.release()
    row.refresh_from_db()
    assert row.status == ScanStatus.FINISHED, (row.error_code, row.error_message)
    return row


def severities(repository) -> dict:
    return {
        (f.path, f.rule, f.fingerprint, f.occurrence): f.severity for f in Finding.objects.filter(repository=repository)
    }


def roc2(repository) -> list[Finding]:
    return list(Finding.objects.filter(repository=repository, rule__startswith="ROC2", path="CMakeLists.txt"))


def decision_of(repository) -> HipBuildDecision:
    return HipBuildDecision.objects.get(repository=repository)


def page_of(client, repository) -> str:
    response = client.get(reverse("repositories:detail", args=[repository.pk]))
    assert response.status_code == 200
    return response.content.decode()


def decide(client, repository, action: str, found=(HIP_BUILD,), follow: bool = False, **extra):
    return client.post(
        reverse("repositories:hip_builds", args=[repository.pk]),
        {"action": action, "found": list(found), **extra},
        follow=follow,
    )


@pytest.mark.django_db
def test_the_baseline_keeps_the_hip_builds_the_scanner_finds(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    baseline = scan(
        row, repo.commit("both builds", **{"train.cu": KERNEL, "CMakeLists.txt": CMAKE, "Makefile": MAKEFILE})
    )
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.decided_scan_id) == ([HIP_BUILD], "baseline", baseline.pk)
    assert decision.found_scan_id == baseline.pk and decision.considered == [HIP_BUILD]
    builds = baseline.builds
    assert builds["requested"] is None and builds["declared"] is None and builds["accepted"] == [HIP_BUILD]
    assert [(b["id"], b["sources"], b["paths"]) for b in builds["hip"]] == [(HIP_BUILD, 1, ["train.cu"])]
    assert [(b["id"], b["paths"]) for b in builds["nvidia"]] == [("CMakeLists.txt:train_cu", ["train.cu"])]
    assert builds["ported"] and builds["uncovered"] == []
    # the scanner's own findings stood: the CUDA-only build file is the NVIDIA side, and says which build covers it
    assert {f.severity for f in roc2(row)} == {"info"} and all(NVIDIA_SIDE in f.message for f in roc2(row))

    html = page_of(client_for(people.vera), row)
    assert f"the baseline scan #{baseline.pk}" in html and f"<code>{HIP_BUILD}</code>" in html
    assert DESCRIBED in html and "<code>train.cu</code>" in html and "CMakeLists.txt:train_cu" in html
    assert "compile every source the NVIDIA builds compile" in html and PENDING not in html


@pytest.mark.django_db
def test_a_repository_without_a_hip_build_keeps_none_and_says_what_the_scanner_reads(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    baseline = scan(row, cuda_only(repo))
    assert (decision_of(row).accepted, baseline.builds["hip"]) == ([], [])
    html = page_of(client_for(people.alice), row)
    assert "No HIP build found: the scanner reads CMake, Makefiles, setup.py and compile_commands.json" in html
    assert "Accepted: no HIP build." in html and 'id="hip-builds-by-hand"' not in html  # nothing to choose from


@pytest.mark.django_db
def test_a_new_hip_build_changes_nothing_until_a_manager_accepts_it(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    baseline = scan(row, cuda_only(repo))
    before = severities(row)
    assert {f.severity for f in roc2(row)} == {"high", "medium"}

    later = scan_in_shards(row, repo.commit("a HIP build beside the CUDA one", **{"Makefile": MAKEFILE}))
    # never applied silently: the scan used the kept decision (none), so every finding keeps its severity
    assert later.builds["requested"] == [] and later.builds["accepted"] == [] and not later.builds["ported"]
    after = severities(row)
    assert {key: after[key] for key in before} == before
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.decided_scan_id) == ([], "baseline", baseline.pk)
    assert decision.found_scan_id == later.pk

    # the repository page shows the change; only a manager gets the buttons
    html = page_of(client_for(people.alice), row)
    pending = re.search(r'<div class="warn-box" id="hip-builds-pending">(.*?)</div>', html, re.S).group(1)
    assert PENDING in pending and DESCRIBED in pending and 'value="accept"' in pending and 'value="keep"' in pending
    assert "train.cu" in html and "Not every source the NVIDIA builds compile" not in html
    viewer = page_of(client_for(people.vera), row)
    assert PENDING in viewer and 'value="accept"' not in viewer

    # accepting: managers only (an engineer or a viewer is refused, another team's manager sees nothing), by POST
    url = reverse("repositories:hip_builds", args=[row.pk])
    assert decide(client_for(people.vera), row, "accept").status_code == 403
    assert decide(client_for(people.bob), row, "accept").status_code == 403
    assert decide(client_for(people.charlie), row, "accept").status_code == 404
    assert client_for(people.alice).get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    assert strict.post(url, {"action": "accept", "found": [HIP_BUILD]}).status_code == 403
    # a page older than the newest scan is refused
    stale = decide(client_for(people.alice), row, "accept", found=[], follow=True)
    assert "A newer scan found other builds" in stale.content.decode()
    assert decision_of(row).accepted == [] and not Scan.objects.filter(status=ScanStatus.QUEUED).exists()

    # "keep the current decision": nothing changes, nothing is scanned, and the page stops asking
    alice = client_for(people.alice)
    kept = decide(alice, row, "keep", follow=True)
    assert "The current decision is kept." in kept.content.decode()
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.considered) == ([], "baseline", [HIP_BUILD])
    assert PENDING not in page_of(alice, row) and not Scan.objects.filter(status=ScanStatus.QUEUED).exists()

    response = decide(alice, row, "accept")
    rescan = Scan.objects.get(repository=row, status=ScanStatus.QUEUED)
    assert response.status_code == 302 and response.url == reverse("scans:detail", args=[rescan.pk])
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.decided_by) == ([HIP_BUILD], "accepted", people.alice)
    pipeline.run(rescan.pk)
    rescan.refresh_from_db()
    assert rescan.status == ScanStatus.FINISHED and rescan.builds["requested"] == [HIP_BUILD]
    # the NVIDIA side is re-rated and names the HIP build; the kernel is still migration work
    assert roc2(row) and all(f.severity == "info" and NVIDIA_SIDE in f.message for f in roc2(row))
    assert Finding.objects.get(repository=row, path="train.cu", rule="ROC101").severity == "high"
    html = page_of(alice, row)
    assert "accepted by alice" in html and PENDING not in html

    # by hand: among the builds found (another is refused), or none; a change starts a rescan
    assert decide(alice, row, "set", builds=["Makefile:other"]).status_code == 302
    assert decision_of(row).accepted == [HIP_BUILD] and not Scan.objects.filter(status=ScanStatus.QUEUED).exists()
    decide(alice, row, "set")  # nothing checked: no HIP build
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.decided_by) == ([], "manual", people.alice)
    assert Scan.objects.filter(repository=row, status=ScanStatus.QUEUED).count() == 1
    assert "set by hand by alice" in page_of(alice, row)


@pytest.mark.django_db
def test_a_declaration_in_rocport_toml_wins(people, repo_factory):
    repo = repo_factory()
    row = register(people, repo)
    scan(row, repo.commit("both builds", **{"train.cu": KERNEL, "CMakeLists.txt": CMAKE, "Makefile": MAKEFILE}))
    assert {f.severity for f in roc2(row)} == {"info"}

    declared = scan(row, repo.commit("we do not trust it yet", **{".rocport.toml": "[port]\nhip_builds = []\n"}))
    # the repository's word over the portal's kept decision: the CUDA build file is migration work again
    assert (declared.builds["requested"], declared.builds["declared"]) == ([HIP_BUILD], [])
    assert {f.severity for f in roc2(row)} == {"high", "medium"}
    decision = decision_of(row)
    assert (decision.accepted, decision.source, decision.decided_scan_id) == ([], "declared", declared.pk)
    alice = client_for(people.alice)
    html = page_of(alice, row)
    assert f"declared in .rocport.toml (scan #{declared.pk})" in html and PENDING not in html
    assert 'id="hip-builds-by-hand"' not in html
    refused = decide(alice, row, "set", builds=[HIP_BUILD], follow=True)
    assert "declares its HIP builds in .rocport.toml" in refused.content.decode()
    assert decision_of(row).accepted == []

    # declared from the first scan on: the baseline is the declaration
    other = repo_factory("declared")
    other_row = register(people, other)
    first = scan(
        other_row,
        other.commit(
            "declared",
            **{
                "train.cu": KERNEL,
                "CMakeLists.txt": CMAKE,
                "Makefile": MAKEFILE,
                ".rocport.toml": "[port]\nhip_builds = []\n",
            },
        ),
    )
    assert (decision_of(other_row).accepted, decision_of(other_row).source) == ([], "declared")
    assert first.builds["accepted"] == [] and {f.severity for f in roc2(other_row)} == {"high", "medium"}
