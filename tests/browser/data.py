"""Test data built in code for the browser tests: a real git repository with the demo's CUDA sources, scanned by
the real pipeline, so findings, file pages, sources and translations are what users see."""

from __future__ import annotations

from dataclasses import dataclass

from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from tests.portal.gitrepos import GitRepo
from tests.portal.people import People
from tests.portal.worker import ROOT

DEMO = ROOT / "demo" / "cuda-demo"


def demo_files() -> dict[str, str]:
    """The demo's kernels and headers, plus a copy of the kernels under legacy/: > 50 open findings for paging,
    while the copy is scanned once thanks to the blob cache."""
    files = {f"src/{p.name}": p.read_text() for p in sorted((DEMO / "src").glob("*.cu"))}
    files.update({f"include/{p.name}": p.read_text() for p in sorted((DEMO / "include").glob("*.cuh"))})
    files.update({f"legacy/{path}": text for path, text in list(files.items()) if path.startswith("src/")})
    return files


@dataclass
class Project:
    people: People
    git: GitRepo
    repository: Repository
    scan: Scan


def commit_demo(git: GitRepo, changed: dict[str, str] | None = None) -> str:
    """The demo's files committed; `changed`: paths whose text this repository has instead."""
    for path, text in (demo_files() | (changed or {})).items():
        git.write(path, text)
    return git.commit("the demo kernels")


def build_project(people: People, git: GitRepo, *, scanned: bool = True, changed=None) -> Project:
    commit = commit_demo(git, changed)
    repository = Repository.objects.create(team=people.team, name="cuda-demo", clone_url=git.url)
    scan = None
    if scanned:
        scan = do_create_scan(repository, commit_sha=commit, enqueue=False)
        pipeline.run(scan.pk)
        scan.refresh_from_db()
        assert scan.status == "finished", (scan.error_code, scan.error_message)
    return Project(people, git, repository, scan)
