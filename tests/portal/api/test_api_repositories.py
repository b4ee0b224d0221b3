"""API: repositories (list, detail, register, update), their scans (pages, start one), scan detail and statistics
over time, for each role and for another team's manager (404, nothing written)."""

from __future__ import annotations

import pytest

from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanStatus, ScanTrigger
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from tests.portal.api_clients import clients

SECRET = "ghp_not-a-real-token-but-secret"


@pytest.fixture
def api(people):
    return clients(people)


@pytest.fixture
def repo(people):
    repository = Repository.objects.create(
        team=people.team, name="kernels", clone_url="https://example.com/k.git", tracked_branches=["release"]
    )
    repository.set_credentials("ci-bot", SECRET)
    repository.save()
    return repository


@pytest.mark.django_db
def test_the_list_holds_the_callers_teams_with_their_role_and_never_a_credential(people, api, repo):
    other = Repository.objects.create(team=people.other_team, name="theirs", clone_url="https://example.com/t.git")
    response = api["vera"].get("/repositories/")
    assert response.status_code == 200
    [row] = response.json()
    assert (row["id"], row["role"], row["team"]["name"], row["has_credentials"]) == (
        repo.pk,
        "viewer",
        "GPU team",
        True,
    )
    assert SECRET not in response.content.decode() and repo.credentials_encrypted not in response.content.decode()
    assert [r["id"] for r in api["charlie"].get("/repositories/").json()] == [other.pk]


@pytest.mark.django_db
def test_the_detail_lists_each_tracked_branch_with_its_newest_scan(api, repo):
    Scan.objects.create(repository=repo, branch="main", status=ScanStatus.FINISHED, commit_sha="1" * 40)
    newer = Scan.objects.create(repository=repo, branch="main", status=ScanStatus.QUEUED)
    for name in ("alice", "bob", "vera"):
        response = api[name].get(f"/repositories/{repo.pk}/")
        assert response.status_code == 200, name
    branches = {b["name"]: b for b in response.json()["branches"]}
    assert branches["main"]["is_default"] and branches["main"]["newest_scan"]["id"] == newer.pk
    assert branches["release"]["newest_scan"] is None
    assert SECRET not in response.content.decode()


@pytest.mark.django_db
def test_another_teams_repository_is_not_found_for_every_operation(api, repo):
    charlie = api["charlie"]
    before = Scan.objects.count()
    for response in (
        charlie.get(f"/repositories/{repo.pk}/"),
        charlie.get(f"/repositories/{repo.pk}/scans/"),
        charlie.get(f"/repositories/{repo.pk}/statistics/"),
        charlie.post(f"/repositories/{repo.pk}/scans/", {}),
        charlie.patch(f"/repositories/{repo.pk}/", {"clone_url": "https://evil.example/x.git"}),
    ):
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}
    repo.refresh_from_db()
    assert repo.clone_url == "https://example.com/k.git" and Scan.objects.count() == before
    assert api["alice"].get("/repositories/999999/").status_code == 404


@pytest.mark.django_db
def test_a_manager_registers_a_repository_with_write_only_credentials(people, api):
    response = api["alice"].post(
        "/repositories/",
        {
            "team": people.team.pk,
            "name": "solver",
            "clone_url": "https://example.com/solver.git",
            "default_branch": "trunk",
            "credentials_username": "bot",
            "credentials_secret": SECRET,
        },
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["default_branch"], body["has_credentials"], body["role"]) == (
        "solver",
        "trunk",
        True,
        "manager",
    )
    assert SECRET not in response.content.decode()
    repository = Repository.objects.get(pk=body["id"])
    assert repository.team == people.team and repository.credentials() == ("bot", SECRET)
    assert SECRET not in repository.credentials_encrypted


@pytest.mark.django_db
def test_registration_needs_a_manager_of_that_team_and_a_valid_url(people, api, repo):
    body = {"team": people.team.pk, "name": "new", "clone_url": "https://example.com/new.git"}
    assert api["bob"].post("/repositories/", body).status_code == 403
    assert api["vera"].post("/repositories/", body).status_code == 403
    assert api["charlie"].post("/repositories/", body).status_code == 404  # not his team: as if it did not exist
    bad = api["alice"].post("/repositories/", {**body, "clone_url": "ftp://example.com/x"})
    assert bad.status_code == 400 and "clone_url" in bad.json()["detail"] and "https://" in bad.json()["detail"]
    malformed = api["alice"].post("/repositories/", {**body, "clone_url": "https://[not-an-ip/x"})
    assert malformed.status_code == 400 and "not a valid URL" in malformed.json()["detail"]
    duplicate = api["alice"].post("/repositories/", {**body, "name": "kernels"})
    assert duplicate.status_code == 400 and "already has a repository" in duplicate.json()["detail"]
    assert list(Repository.objects.values_list("name", flat=True)) == ["kernels"]


@pytest.mark.django_db
def test_a_manager_updates_branches_and_credentials_and_a_bad_value_changes_nothing(api, repo):
    response = api["alice"].patch(
        f"/repositories/{repo.pk}/", {"tracked_branches": ["release", "next"], "credentials_secret": "rotated-secret"}
    )
    assert response.status_code == 200, response.content
    assert (
        response.json()["tracked_branches"] == ["release", "next"] and "rotated-secret" not in response.content.decode()
    )
    repo.refresh_from_db()
    assert repo.credentials() == ("ci-bot", "rotated-secret") and repo.clone_url == "https://example.com/k.git"

    bad = api["alice"].patch(
        f"/repositories/{repo.pk}/", {"tracked_branches": ["ok", "-bad"], "clone_url": "https://example.com/moved.git"}
    )
    assert bad.status_code == 400 and "tracked_branches" in bad.json()["detail"]
    repo.refresh_from_db()
    assert repo.tracked_branches == ["release", "next"] and repo.clone_url == "https://example.com/k.git"

    assert (
        api["alice"].patch(f"/repositories/{repo.pk}/", {"clear_credentials": True}).json()["has_credentials"] is False
    )
    for name in ("bob", "vera"):
        assert api[name].patch(f"/repositories/{repo.pk}/", {"default_branch": "x"}).status_code == 403, name
    repo.refresh_from_db()
    assert repo.default_branch == "main"


@pytest.mark.django_db
def test_scan_pages_are_keyset_pages_covering_every_scan_once_newest_first(api, repo):
    ids = [Scan.objects.create(repository=repo, branch="main" if i % 3 else "release").pk for i in range(120)]
    seen, cursor, pages = [], "", 0
    while True:
        response = api["vera"].get(f"/repositories/{repo.pk}/scans/", **({"before": cursor} if cursor else {}))
        assert response.status_code == 200
        body = response.json()
        seen += [scan["id"] for scan in body["items"]]
        pages += 1
        if body["next"] is None:
            break
        cursor = body["next"]
    assert pages == 3 and seen == sorted(ids, reverse=True)
    release = api["vera"].get(f"/repositories/{repo.pk}/scans/", branch="release").json()["items"]
    assert {scan["branch"] for scan in release} == {"release"}


@pytest.mark.django_db
def test_engineers_start_a_scan_of_a_tracked_branch_viewers_cannot(api, repo):
    response = api["bob"].post(f"/repositories/{repo.pk}/scans/", {"branch": "release"})
    assert response.status_code == 201, response.content
    scan = Scan.objects.get(pk=response.json()["id"])
    assert (scan.branch, scan.trigger, scan.status) == ("release", ScanTrigger.API, ScanStatus.QUEUED)
    assert response.json()["progress"] == {"files_done": 0, "files_total": 0, "files_reused": 0, "percent": 0}
    default = api["alice"].post(f"/repositories/{repo.pk}/scans/", {})
    assert default.status_code == 201 and default.json()["branch"] == "main"
    untracked = api["bob"].post(f"/repositories/{repo.pk}/scans/", {"branch": "feature/x"})
    assert untracked.status_code == 400 and "not a tracked branch" in untracked.json()["detail"]
    assert api["vera"].post(f"/repositories/{repo.pk}/scans/", {}).status_code == 403
    assert Scan.objects.filter(repository=repo).count() == 2


@pytest.mark.django_db
def test_a_failed_scan_says_why_and_what_to_do_and_another_team_gets_404(api, repo):
    scan = Scan.objects.create(
        repository=repo,
        branch="main",
        status=ScanStatus.FAILED,
        error_code="scan:user:auth-failed",
        error_message="Authentication failed",
    )
    body = api["vera"].get(f"/scans/{scan.pk}/").json()
    assert (body["status"], body["is_final"], body["error_code"]) == ("failed", True, "scan:user:auth-failed")
    assert "credentials" in body["advice"] and body["statistics"] is None
    assert api["charlie"].get(f"/scans/{scan.pk}/").status_code == 404


LANE = "__global__ void k(float *x) {{\n{body}}}\n"
BAD = "  x[threadIdx.x % 32] = warpSize;\n  cudaDeviceSynchronize();\n"
GOOD = "  x[threadIdx.x % warpSize] = 0;\n  cudaDeviceSynchronize();\n"


def _scan(repository, commit):
    row = do_create_scan(repository, commit_sha=commit, enqueue=False)
    pipeline.run(row.pk)
    row.refresh_from_db()
    assert row.status == ScanStatus.FINISHED, (row.error_code, row.error_message)
    return row


@pytest.mark.django_db
def test_scan_statistics_and_the_statistics_over_time_come_from_real_scans(people, api, repo_factory):
    git = repo_factory()
    first_commit = git.commit("bad", **{"src__k.cu": LANE.format(body=BAD)})
    repository = Repository.objects.create(team=people.team, name="real", clone_url=git.url)
    first = _scan(repository, first_commit)
    second = _scan(repository, git.commit("fix", **{"src__k.cu": LANE.format(body=GOOD)}))
    Scan.objects.create(repository=repository, branch="main", status=ScanStatus.FAILED)  # not a point
    Scan.objects.create(repository=repository, branch="other", status=ScanStatus.FINISHED)  # not the default branch

    detail = api["vera"].get(f"/scans/{first.pk}/").json()
    stats = detail["statistics"]
    assert stats["tracking"]["new"] == first.summary["tracking"]["new"] >= 1
    assert stats["open_by_risk"] == first.summary["open_by_risk"] and stats["open_total"] >= 1
    assert stats["translation"] == first.summary["translation"] and stats["translation"]["converted"] >= 1
    assert stats["parse_modes"] == first.summary["parse_modes"] and stats["files"] == 1

    response = api["vera"].get(f"/repositories/{repository.pk}/statistics/")
    assert response.status_code == 200
    points = response.json()["points"]
    assert [p["scan_id"] for p in points] == [first.pk, second.pk]
    assert [p["commit_sha"] for p in points] == [first.commit_sha, second.commit_sha]
    assert points[0]["new"] >= 1 and points[1]["fixed"] == 1 and points[1]["reopened"] == 0
    assert points[1]["open_total"] == points[0]["open_total"] - 1
    assert points[1]["converted"] == second.summary["translation"]["converted"]
    assert (
        api["vera"].get(f"/repositories/{repository.pk}/statistics/", limit=1).json()["points"][0]["scan_id"]
        == second.pk
    )
