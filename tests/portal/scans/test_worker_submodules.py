"""Submodules end to end on a real Celery worker: a repository served by `git daemon` on 127.0.0.1 pins a
CUTLASS-like library as a submodule (a relative URL on the same host). The worker fetches it at its pinned commit,
the kernel that includes its headers is parsed with them (`ast`, nothing stubbed), nothing inside the submodule
is reported, and the submodules on another host or at a local path are refused and named on the scan page and in
the parse reason of the file that needed one."""

from __future__ import annotations

import subprocess

import pytest
from django.urls import reverse

from portal.findings.models import Finding
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import BlobResult, ScannedFile
from tests.hostile.harness import FILE, GITLINK, fast_import
from tests.portal.gitrepos import _ENV
from tests.portal.people import client_for
from tests.portal.servers import GitDaemon
from tests.portal.worker import Worker, wait_final

# A vendored header with code our rules would report in a project's own file (a 32-lane mask, lane % 32).
NUMERIC_H = """#pragma once
namespace cutlass {
struct half_t { unsigned short storage; };
template <typename T, int N> struct Array { T storage[N]; };
__device__ inline float warp_sum(float v) { return v + __shfl_xor_sync(0xffffffff, v, 16); }
__device__ inline int lane_of(int tid) { return tid % 32; }
}  // namespace cutlass
"""
GEMM_CU = """#include <cutlass/numeric.h>

__global__ void scale(float *out, const float *in) {
  cutlass::Array<float, 4> fragment;
  fragment.storage[0] = in[threadIdx.x];
  out[threadIdx.x] = cutlass::warp_sum(fragment.storage[0]);
}
"""
OTHER_CU = """#include <elsewhere/api.h>

__global__ void other(float *out) { out[threadIdx.x] = elsewhere::value(); }
"""


def _publish(repo, base, name: str) -> None:
    subprocess.run(["git", "clone", "--quiet", "--bare", str(repo.path), str(base / name)], env=_ENV, check=True)


@pytest.mark.django_db(transaction=True)
def test_the_worker_reads_a_fetched_submodule_as_headers_and_names_the_refused_ones(people, repo_factory, tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    daemon = GitDaemon(served)
    worker = Worker(tmp_path / "worker.log")
    try:
        cutlass = repo_factory("cutlass")
        pinned = fast_import(cutlass, [("include/cutlass/numeric.h", FILE, NUMERIC_H)])
        _publish(cutlass, served, "cutlass.git")
        elsewhere = f"git://127.0.0.2:{daemon.port}/cutlass.git"  # loopback too, but not the repository's host
        gitmodules = (
            '[submodule "cutlass"]\n\tpath = third_party/cutlass\n\turl = ../cutlass.git\n'
            f'[submodule "elsewhere"]\n\tpath = third_party/elsewhere\n\turl = {elsewhere}\n'
            f'[submodule "local"]\n\tpath = third_party/local\n\turl = file://{cutlass.path}\n'
        )
        project = repo_factory("project")
        commit = fast_import(
            project,
            [
                (".gitmodules", FILE, gitmodules),
                ("src/gemm.cu", FILE, GEMM_CU),
                ("src/other.cu", FILE, OTHER_CU),
                ("third_party/cutlass", GITLINK, pinned),
                ("third_party/elsewhere", GITLINK, pinned),
                ("third_party/local", GITLINK, pinned),
            ],
        )
        _publish(project, served, "project.git")
        repository = Repository.objects.create(
            team=people.team, name="with-submodules", clone_url=daemon.url("project.git")
        )
        scan = wait_final(do_create_scan(repository, commit_sha=commit).pk, timeout=180)
        assert scan.status == "finished", scan.error_message

        outcomes = {entry["path"]: entry for entry in scan.submodules}
        assert outcomes["third_party/cutlass"]["fetched"] is True
        assert outcomes["third_party/cutlass"]["commit"] == pinned
        assert outcomes["third_party/cutlass"]["url"] == daemon.url("cutlass.git")  # the relative URL, resolved
        assert outcomes["third_party/elsewhere"]["fetched"] is False
        assert "'127.0.0.2' is not the repository's host" in outcomes["third_party/elsewhere"]["reason"]
        assert outcomes["third_party/local"]["fetched"] is False
        assert "is a local path, and the repository is not local" in outcomes["third_party/local"]["reason"]

        files = {row.path: row for row in ScannedFile.objects.filter(scan=scan)}
        assert set(files) == {"src/gemm.cu", "src/other.cu"}  # the submodule's files are headers, not results
        assert files["src/gemm.cu"].parse_mode == "ast"
        gemm = BlobResult.objects.get(blob_sha=files["src/gemm.cu"].blob_sha).result["parse"]
        assert gemm["stubbed_headers"] == []
        other = BlobResult.objects.get(blob_sha=files["src/other.cu"].blob_sha).result["parse"]
        assert other["stubbed_headers"] == ["elsewhere/api.h"]
        assert "submodule third_party/elsewhere was not fetched: its host '127.0.0.2'" in other["fallback_reason"]
        assert not Finding.objects.filter(repository=repository, path__startswith="third_party/").exists()

        page = client_for(people.vera).get(reverse("scans:detail", args=[scan.pk])).content.decode()
        assert 'id="scan-submodules"' in page and "third_party/elsewhere" in page
        assert "not the repository&#x27;s host" in page or "not the repository's host" in page
        assert worker.process.poll() is None
    finally:
        worker.stop()
        daemon.stop()
