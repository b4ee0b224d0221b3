"""The compile check in the portal, with the real hipcc: the pipeline stores each file's status, the compiler's
errors as tracked findings and the scan's "builds for" figures; the blob cache keys include the compiler and the
files a unit includes; the file page shows the status beside the diff and the errors inline; the dashboard shows
the share that builds. Without hipcc (ROCPORT_HIPCC naming a file that does not exist) every file says "not
checked" and the check's findings are left as they were. Another team's pages are a 404.

The portal tests run with ROCPORT_COMPILE_CHECK=off (tests/portal/conftest.py); these turn it on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from portal.accounts.models import Team
from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus
from portal.scans.models import BlobResult, Scan, ScannedFile
from portal.scans.pipeline import runner as pipeline
from tests.portal.gitrepos import GitRepo
from tests.portal.people import People, client_for
from tests.tools import needs

pytestmark = [pytest.mark.django_db, needs("hipcc")]

CONFIG = '[parse]\ninclude_dirs = ["include"]\n\n[target]\ntargets = ["gfx90a"]\n'
LANES_PTX = """#pragma once
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(lane));
  return lane;
}
"""
LANES_HIP = """#pragma once
__device__ __forceinline__ unsigned lane_id() { return __lane_id(); }
"""
USES = """#include <cuda_runtime.h>
#include "lanes.cuh"

__global__ void lanes(unsigned *out) { out[threadIdx.x] = lane_id(); }
"""
BUILDS = """#include <cuda_runtime.h>

__global__ void scale(float *x, float s) { x[threadIdx.x] *= s; }

int run(float *x) {
  float *d = nullptr;
  if (cudaMalloc(&d, 256) != cudaSuccess) return 1;
  scale<<<1, 64>>>(d, 2.f);
  return cudaFree(d) == cudaSuccess ? 0 : 1;
}
"""
BALLOT = """// one vote per wavefront, kept in 32 bits
__global__ void count_positive(const float *x, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int ballot = __ballot(x[i] > 0.f);
  if (threadIdx.x == 0) atomicAdd(count, __popc(ballot));
}
"""
FILES = {
    ".rocport.toml": CONFIG,
    "include__lanes.cuh": LANES_PTX,
    "src__uses.cu": USES,
    "src__builds.cu": BUILDS,
    "src__ballot.cu": BALLOT,
}


def scan(repository: Repository, commit: str) -> Scan:
    row = do_create_scan(repository, commit_sha=commit, enqueue=False)
    pipeline.run(row.pk)
    row.refresh_from_db()
    assert row.status == ScanStatus.FINISHED, (row.error_code, row.error_message)
    return row


def statuses(scan_row: Scan) -> dict[str, str]:
    return {
        f.path: f.stats["compile"]["status"] for f in ScannedFile.objects.filter(scan=scan_row) if "compile" in f.stats
    }


def open_compile_findings(repository) -> set[tuple[str, str, int]]:
    return set(
        Finding.objects.filter(repository=repository, rule__startswith="ROC9", state="open").values_list(
            "path", "rule", "line"
        )
    )


@pytest.fixture(scope="module")
def _scanned(django_db_setup, django_db_blocker, tmp_path_factory):
    """The people and the project scanned once with the check on (about 12 s of hipcc), for every test of the
    module: built inside a transaction that stays open until the module ends and is then rolled back. Each test
    runs in a savepoint inside it (pytest-django's `db`, a TestCase), so the scans, findings and cache rows a test
    adds or changes are undone before the next test; the tests read the rows again (`project`, `people`)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            people = People.create()
            git = GitRepo.create(tmp_path_factory.mktemp("compile-check") / "project")
            commit = git.commit("kernels", **FILES)
            repository = Repository.objects.create(team=people.team, name="kernels", clone_url=git.url)
            with override_settings(ROCPORT_COMPILE_CHECK="auto"):
                first = scan(repository, commit)
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield people, git, repository.pk, first.pk
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def people(_scanned, db) -> People:
    shared = _scanned[0]
    users = get_user_model().objects.in_bulk([u.pk for u in (shared.alice, shared.bob, shared.vera, shared.charlie)])
    return People(
        Team.objects.get(pk=shared.team.pk),
        Team.objects.get(pk=shared.other_team.pk),
        *(users[u.pk] for u in (shared.alice, shared.bob, shared.vera, shared.charlie)),
    )


@pytest.fixture
def project(_scanned, db):
    """The git repository (a commit a test adds stays; the tests scan the first commit by its sha), the repository
    and its first scan, as stored (a test's changes to them were rolled back)."""
    _people, git, repository_pk, first_pk = _scanned
    return git, Repository.objects.get(pk=repository_pk), Scan.objects.get(pk=first_pk)


def test_a_scan_stores_each_files_status_its_errors_as_findings_and_the_share(project):
    _git, repository, first = project
    assert statuses(first) == {
        "include/lanes.cuh": "fails",
        "src/uses.cu": "fails",
        "src/builds.cu": "compiles",
        "src/ballot.cu": "fails",
    }
    assert first.summary["compile"] == {"target": "gfx90a", "files": {"fails": 3, "compiles": 1}}
    # each error once, where it is, at the CUDA line
    assert open_compile_findings(repository) == {("include/lanes.cuh", "ROC904", 4), ("src/ballot.cu", "ROC903", 4)}
    ballot = ScannedFile.objects.get(scan=first, path="src/ballot.cu")
    stored = BlobResult.objects.get(blob_sha=ballot.blob_sha).result["compile"]
    assert stored["diagnostics"][0]["kind"] == "type-mismatch" and stored["target"] == "gfx90a"


def test_a_rescan_reuses_results_and_a_header_change_recompiles_only_its_includers(project):
    git, repository, first = project
    with override_settings(ROCPORT_COMPILE_CHECK="auto"):
        again = scan(repository, first.commit_sha)
        assert again.files_reused == again.files_total
        assert statuses(again) == statuses(first)
        fixed = scan(repository, git.commit("lane id from HIP", **{"include__lanes.cuh": LANES_HIP}))
    reused = dict(ScannedFile.objects.filter(scan=fixed).values_list("path", "reused"))
    # src/uses.cu's blob did not change, but the header its unit includes did: it is compiled again
    assert reused == {"include/lanes.cuh": False, "src/uses.cu": False, "src/builds.cu": True, "src/ballot.cu": True}
    assert statuses(fixed) == {
        "include/lanes.cuh": "compiles",
        "src/uses.cu": "compiles",
        "src/builds.cu": "compiles",
        "src/ballot.cu": "fails",
    }
    assert open_compile_findings(repository) == {("src/ballot.cu", "ROC903", 4)}
    assert Finding.objects.get(repository=repository, rule="ROC904").state == "fixed"


def test_without_hipcc_every_file_is_not_checked_and_the_checks_findings_stay_open(project, tmp_path):
    _git, repository, first = project
    with override_settings(ROCPORT_COMPILE_CHECK="auto", ROCPORT_HIPCC=str(tmp_path / "no" / "hipcc")):
        second = scan(repository, first.commit_sha)
    assert second.files_reused == 0  # another compiler (none): another cache key
    assert set(statuses(second).values()) == {"not-checked"}
    assert second.summary["compile"] == {"target": "", "files": {"not-checked": 4}}
    blob = ScannedFile.objects.get(scan=second, path="src/ballot.cu").blob_sha
    newest = BlobResult.objects.filter(blob_sha=blob).order_by("-id").first()
    assert "is not an executable file" in newest.result["compile"]["reason"]
    assert open_compile_findings(repository) == {("include/lanes.cuh", "ROC904", 4), ("src/ballot.cu", "ROC903", 4)}


def test_with_the_check_off_nothing_is_compiled_and_the_cache_is_apart(project):
    _git, repository, first = project
    off = scan(repository, first.commit_sha)  # the tests' default: off
    assert statuses(off) == {} and "compile" not in off.summary
    assert off.files_reused == 0
    assert not any(f.stats.get("compile") for f in ScannedFile.objects.filter(scan=off))


def test_a_check_that_could_not_finish_is_not_cached(people, tmp_path):
    from scanner.model import FileResult, FileStats, ParseHealth, ParseMode

    root = tmp_path / "checkout"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.cu").write_text(BUILDS)
    results = {"timed out": False, "compiles": True}
    for reason, cacheable in results.items():
        result = FileResult("src/a.cu", "cuda", ParseHealth(ParseMode.AST), FileStats())
        result.compile = {
            "status": "not-checked" if not cacheable else "compiles",
            "reason": reason,
            "target": "",
            "counts": {},
            "cacheable": cacheable,
        }
        _data, _translation, cached = pipeline.fresh_result(
            root, result, {"src/a.cu": f"{int(cacheable)}" * 40}, {"src/a.cu": "k"}
        )
        assert (cached is not None) == cacheable, reason


def test_the_file_page_shows_the_status_beside_the_diff_and_the_errors_inline(project, people):
    _git, repository, _first = project
    vera = client_for(people.vera)
    page = vera.get(reverse("files:file", args=[repository.pk, "src/ballot.cu"])).content.decode()
    assert 'data-compile="fails"' in page and "does not build" in page and "for gfx90a" in page
    assert 'class="inline-error" data-kind="type-mismatch"' in page
    assert "64-bit wavefront mask stored in 32 bits" in page
    assert 'href="#L4">CUDA line 4</a>' in page
    header = vera.get(reverse("files:file", args=[repository.pk, "include/lanes.cuh"])).content.decode()
    assert "checked as part of src/uses.cu" in header and "invalid instruction" in header
    source = vera.get(reverse("files:file", args=[repository.pk, "src/uses.cu"])).content.decode()
    assert "errors in files it includes: include/lanes.cuh" in source
    assert reverse("files:file", args=[repository.pk, "include/lanes.cuh"]) + "#L4" in source
    builds = vera.get(reverse("files:file", args=[repository.pk, "src/builds.cu"])).content.decode()
    assert 'data-compile="compiles"' in builds and "inline-error" not in builds
    charlie = client_for(people.charlie)
    assert charlie.get(reverse("files:file", args=[repository.pk, "src/ballot.cu"])).status_code == 404


def test_the_dashboard_shows_the_share_that_builds_beside_the_progress(project, people):
    _git, repository, _first = project
    url = reverse("dashboards:repository", args=[repository.pk])
    page = client_for(people.vera).get(url).content.decode()
    assert 'id="builds" data-builds="25"' in page  # 1 of 4 compiled files builds
    assert "builds for gfx90a" in page and "1 of 4 compiled files build" in page
    assert reverse("files:file", args=[repository.pk, "src/ballot.cu"]) + "#compile" in page
    assert client_for(people.charlie).get(url).status_code == 404


def test_the_setting_takes_auto_or_off_and_nothing_else(tmp_path):
    root = Path(__file__).resolve().parents[3]
    for value, ok in (("auto", True), ("OFF", True), ("maybe", False)):
        proc = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()"],
            capture_output=True,
            text=True,
            cwd=str(root),
            env={
                "DJANGO_SETTINGS_MODULE": "portal.settings",
                "ROCPORT_COMPILE_CHECK": value,
                "ROCPORT_VAR_DIR": str(tmp_path),
                "PATH": "/usr/bin:/bin",
            },
        )
        assert (proc.returncode == 0) is ok, proc.stderr[-500:]
        if not ok:
            assert "ROCPORT_COMPILE_CHECK must be auto or off, not 'maybe'" in proc.stderr
