"""POST /api/v1/uploads/: a scan made in CI, ingested as a worker's scan is; who may upload; what is refused
(and that a refusal writes nothing)."""

from __future__ import annotations

import json
import os

import pytest
from django.test import Client, override_settings

from portal.findings.models import Finding, FindingEvent
from portal.repositories.models import Repository
from portal.scans.models import Scan, ScannedFile
from portal.scans.signals import scan_ended, scan_started
from portal.scans.uploads.views import remote_key
from tests.portal.uploads_data import COMMIT, bearer, file, finding, post, report, token


@pytest.fixture
def repository(people) -> Repository:
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/gpu/kernels.git")


def nothing_written() -> bool:
    return not Scan.objects.exists() and not Finding.objects.exists() and not ScannedFile.objects.exists()


@pytest.mark.django_db
def test_an_upload_is_recorded_as_a_worker_scan_is(people, repository, django_capture_on_commit_callbacks):
    heard = []

    def listener(signal_name):
        return lambda sender, scan, **kwargs: heard.append((signal_name, scan.pk, scan.status))

    started, ended = listener("started"), listener("ended")
    scan_started.connect(started)
    scan_ended.connect(ended)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = post(
                bearer(token(people.bob)),
                repository,
                report(
                    file("src/k.cu", finding(line=3), finding("ROC120", line=8), converted=5),
                    file(
                        "Dockerfile",
                        finding("ROC230", line=1, text="FROM nvidia/cuda:12.4"),
                        language="dockerfile",
                        mode="text",
                        converted=0,
                    ),
                    file("src/clean.cu", converted=4),
                    tree=["src/k.cu", "Dockerfile", "src/clean.cu", "README.md"],
                ),
            )
    finally:
        scan_started.disconnect(started)
        scan_ended.disconnect(ended)
    assert response.status_code == 201, response.content
    answer = response.json()
    scan = Scan.objects.get(pk=answer["scan"])
    assert answer["url"] == f"http://testserver/scans/{scan.pk}/" and answer["tracking"]["new"] == 3
    assert (scan.trigger, scan.status, scan.commit_sha, scan.branch) == ("upload", "finished", COMMIT, "main")
    assert heard == [("started", scan.pk, "ingesting"), ("ended", scan.pk, "finished")]
    files = {f.path: f for f in ScannedFile.objects.filter(scan=scan)}
    assert set(files) == {"src/k.cu", "Dockerfile", "src/clean.cu"}
    assert files["src/k.cu"].stats["translation"] == {"converted": 5, "unconverted": 1, "changed_lines": 2}
    assert files["Dockerfile"].parse_mode == "text" and files["src/k.cu"].blob_sha == ""
    assert scan.summary["translation"] == {"converted": 9, "unconverted": 3}
    assert scan.summary["open_by_risk"] == {"silent-wrong-result": 3}
    assert scan.summary["upload"] == {"by": "bob", "tool_version": "0.1.0", "tree": True}
    assert sorted(Finding.objects.values_list("path", "rule", "line", "state")) == [
        ("Dockerfile", "ROC230", 1, "open"),
        ("src/k.cu", "ROC101", 3, "open"),
        ("src/k.cu", "ROC120", 8, "open"),
    ]
    assert FindingEvent.objects.filter(kind="created", scan=scan).count() == 3


@pytest.mark.django_db
def test_uploads_track_findings_across_commits(people, repository):
    client = bearer(token(people.bob))
    tree = ["src/k.cu", "src/gone.cu", "src/broken.cu"]
    post(
        client,
        repository,
        report(
            file("src/k.cu", finding(line=3), finding(line=5)),
            file("src/gone.cu", finding(line=1)),
            file("src/broken.cu", finding(line=2)),
            tree=tree,
        ),
    )
    # The next commit: one finding fixed, src/gone.cu deleted, src/broken.cu not parsed (its finding stays open).
    second = post(
        client,
        repository,
        report(
            file("src/k.cu", finding(line=3)), file("src/broken.cu", mode="error"), tree=["src/k.cu", "src/broken.cu"]
        ),
        commit="d" * 40,
    )
    assert second.json()["tracking"] == {
        "new": 0,
        "still_open": 1,
        "fixed": 2,
        "reopened": 0,
        "rerated": 0,
        "moved": 0,
        "carried": 0,
        "untouched": 1,
        "inherited": 0,
    }
    third = post(
        client,
        repository,
        report(file("src/k.cu", finding(line=3), finding(line=5)), tree=["src/k.cu"]),
        commit="e" * 40,
    )
    assert third.json()["tracking"]["reopened"] == 1
    states = dict(Finding.objects.values_list("path", "state").filter(line__in=(1, 2)))
    assert states == {"src/gone.cu": "fixed", "src/broken.cu": "fixed"}  # broken.cu is gone from the third tree


@pytest.mark.django_db
def test_without_the_file_list_or_with_a_rule_switched_off_nothing_is_fixed_by_absence(people, repository):
    client = bearer(token(people.bob))
    post(client, repository, report(file("src/a.cu", finding(line=1)), file("src/b.cu", finding("ROC120", line=2))))
    # No tree: src/a.cu was left out of this scan (or deleted: the portal cannot tell), so its finding stays.
    # The rules list says ROC120 was off, so src/b.cu's finding was not checked either.
    answer = post(client, repository, report(file("src/b.cu"), rules=["ROC101"]), commit="d" * 40).json()
    assert answer["tracking"]["fixed"] == 0 and answer["tracking"]["untouched"] == 2
    assert set(Finding.objects.values_list("state", flat=True)) == {"open"}


@pytest.mark.django_db
def test_the_repository_can_be_named_by_its_remote(people, repository):
    client = bearer(token(people.bob))
    for remote in (
        "git@example.com:gpu/kernels.git",
        "https://ci-token:secret@EXAMPLE.com/gpu/kernels/",
        "ssh://git@example.com:22/gpu/kernels",
    ):
        response = client.post(
            f"/api/v1/uploads/?commit={COMMIT}&branch=main&remote={remote}",
            data=json.dumps(report(file("src/k.cu"))),
            content_type="application/json",
        )
        assert response.status_code == 201, (remote, response.content)
    assert remote_key("git@example.com:gpu/kernels.git") == remote_key("https://example.com/gpu/kernels")
    unknown = client.post(
        f"/api/v1/uploads/?commit={COMMIT}&branch=main&remote=https://example.com/gpu/other",
        data=json.dumps(report(file("src/k.cu"))),
        content_type="application/json",
    )
    assert unknown.status_code == 404


@pytest.mark.django_db
def test_another_teams_repository_is_not_found(people, repository):
    before = Scan.objects.count()
    charlie = bearer(token(people.charlie))
    assert post(charlie, repository, report(file("src/k.cu", finding()))).status_code == 404
    by_remote = charlie.post(
        f"/api/v1/uploads/?commit={COMMIT}&branch=main&remote={repository.clone_url}",
        data=json.dumps(report(file("src/k.cu"))),
        content_type="application/json",
    )
    assert by_remote.status_code == 404
    missing = Repository(pk=repository.pk + 100)
    assert post(bearer(token(people.bob)), missing, report(file("src/k.cu"))).status_code == 404
    assert Scan.objects.count() == before == 0


@pytest.mark.django_db
def test_viewers_read_only_tokens_and_sessions_cannot_upload(people, repository):
    body = report(file("src/k.cu", finding()))
    viewer = post(bearer(token(people.vera)), repository, body)
    assert viewer.status_code == 403 and "Viewers" in viewer.json()["detail"]
    read_only = post(bearer(token(people.bob, read_only=True)), repository, body)
    assert read_only.status_code == 403 and "read-only" in read_only.json()["detail"]
    session = Client(enforce_csrf_checks=True)
    session.force_login(people.bob)  # a session cookie is no credential here: no CSRF surface
    refused = post(session, repository, body)
    assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
    assert post(bearer("rp_revoked-or-made-up"), repository, body).status_code == 401
    assert bearer(token(people.bob)).get("/api/v1/uploads/").status_code == 405
    assert nothing_written()


GOOD = report(file("src/k.cu", finding()))


def mutated(change) -> bytes:
    data = json.loads(json.dumps(GOOD))
    change(data)
    return json.dumps(data).encode()


def set_finding(key, value):
    return lambda data: data["files"][0]["findings"][0].__setitem__(key, value)


MALFORMED = [
    (b"{not json", "not JSON"),
    (b"\xff\xfe\x00garbage", "not"),
    (b"[1, 2]", "JSON object"),
    (b"[" * 100_000, "not JSON"),
    (b'{"schema": "rocport-scan/1", "files": [], "x": NaN}', "not JSON"),
    (mutated(lambda d: d.update(schema="sarif")), "schema"),
    (mutated(lambda d: d.update(files={})), "files: expected a list"),
    (mutated(lambda d: d["files"][0].update(path="/etc/passwd")), "files[0].path"),
    (mutated(lambda d: d["files"][0].update(path="src/../../etc/passwd")), "files[0].path"),
    (mutated(lambda d: d["files"][0].update(path="C:\\src\\k.cu")), "files[0].path"),
    (mutated(lambda d: d["files"].append(d["files"][0])), "appears twice"),
    (mutated(lambda d: d["files"][0]["parse"].update(mode="guessed")), "files[0].parse.mode"),
    (mutated(lambda d: d["files"][0]["stats"].update(lines="many")), "files[0].stats.lines"),
    (mutated(set_finding("line", "3")), "files[0].findings[0].line"),
    (mutated(set_finding("line", -1)), "files[0].findings[0].line"),
    (mutated(set_finding("line", 2**40)), "files[0].findings[0].line"),
    (mutated(set_finding("column", True)), "files[0].findings[0].column"),
    (mutated(set_finding("severity", "urgent")), "files[0].findings[0].severity"),
    (mutated(set_finding("rule", "'; DROP TABLE")), "files[0].findings[0].rule"),
    (mutated(set_finding("message", "nul \x00 byte")), "files[0].findings[0].message"),
    (mutated(set_finding("path", "../outside.cu")), "files[0].findings[0].path"),
    (mutated(set_finding("suppressed", "no")), "files[0].findings[0].suppressed"),
    (mutated(lambda d: d.update(tree=["src/k.cu", "a/./b"])), "tree[1]"),
    (mutated(lambda d: d["files"][0]["translation"].update(stats=None)), "files[0].translation.stats"),
    (mutated(lambda d: d["files"][0].__setitem__("path", "bad\udcffname")), "files[0].path"),  # not UTF-8
    (b"", "empty"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("body, named", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_upload_is_refused_with_a_message_naming_the_fault_and_nothing_is_written(
    people, repository, body, named
):
    response = post(bearer(token(people.bob)), repository, body)
    assert response.status_code == 400, response.content
    assert named in response.json()["detail"]
    assert nothing_written()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params, named",
    [
        ({"commit": "abc"}, "commit"),
        ({"commit": "g" * 40}, "commit"),
        ({"branch": ""}, "branch"),
        ({"branch": "main..x"}, "branch"),
        ({"branch": "a b"}, "branch"),
        ({"repository": "one"}, "repository"),
    ],
)
def test_a_bad_commit_branch_or_repository_is_refused(people, repository, params, named):
    query = {"commit": COMMIT, "branch": "main", **params}
    repo_param = query.pop("repository", repository.pk)
    response = bearer(token(people.bob)).post(
        f"/api/v1/uploads/?repository={repo_param}&commit={query['commit']}&branch={query['branch']}",
        data=json.dumps(GOOD),
        content_type="application/json",
    )
    assert response.status_code == 400 and named in response.json()["detail"]
    assert nothing_written()


@pytest.mark.django_db
@override_settings(ROCPORT_UPLOAD_MAX_BYTES=4096)
def test_an_oversized_upload_is_refused_before_it_is_read(people, repository):
    big = report(file("src/k.cu", *[finding(line=i + 1) for i in range(60)]))
    response = post(bearer(token(people.bob)), repository, big)
    assert response.status_code == 413 and "4096 bytes" in response.json()["detail"]
    assert "ROCPORT_UPLOAD_MAX_BYTES" in response.json()["detail"]
    assert nothing_written()
    small = post(bearer(token(people.bob)), repository, report(file("src/k.cu", finding())))
    assert small.status_code == 201


def identities(repository: Repository) -> set[tuple]:
    return set(
        Finding.objects.filter(repository=repository, branch="main", state="open").values_list(
            "rule", "path", "line", "column", "fingerprint", "occurrence"
        )
    )


def scanned_files(scan: Scan) -> set[tuple]:
    return set(ScannedFile.objects.filter(scan=scan).values_list("path", "language", "parse_mode"))


@pytest.mark.django_db(transaction=True)  # the live server is another process: it sees committed rows only
def test_round_trip_the_cli_upload_finds_what_the_worker_found(people, repo_factory, tmp_path):
    import shutil
    import subprocess
    import sys

    from portal.scans.actions import do_create_scan
    from portal.scans.pipeline import runner as pipeline
    from tests.browser.live import LiveServer
    from tests.portal.worker import ROOT

    origin = repo_factory("cuda-demo")
    shutil.copytree(ROOT / "demo" / "cuda-demo", origin.path, dirs_exist_ok=True)
    commit = origin.commit("the demo project")
    worked = Repository.objects.create(team=people.team, name="cuda-demo", clone_url=origin.url)
    worker_scan = do_create_scan(worked, commit_sha=commit, enqueue=False)
    pipeline.run(worker_scan.pk)
    worker_scan.refresh_from_db()
    assert worker_scan.status == "finished", worker_scan.error_message
    expected = identities(worked)
    assert len(expected) > 20 and any(path == "." for _, path, *_ in expected)  # the repository-level rule too
    uploaded_to = Repository.objects.create(
        team=people.team, name="cuda-demo-ci", clone_url="https://example.com/gpu/cuda-demo.git"
    )
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "--quiet", origin.url, str(checkout)], check=True, capture_output=True)

    plain = token(people.bob)
    server = LiveServer()
    try:

        def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
            return subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "scanner",
                    "scan",
                    str(checkout),
                    "--format",
                    "json",
                    "--upload",
                    server.url("/"),
                    "--fail-on",
                    "never",
                    *args,
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
                env={**os.environ, **env},
            )

        # Into a repository of its own, named by id, the token from the environment.
        first = cli("--repository", str(uploaded_to.pk), ROCPORT_TOKEN=plain)
        # Into the worker's repository, found by the checkout's origin URL, the token as an option.
        second = cli("--token", plain)
    finally:
        server.stop()
    for proc in (first, second):
        assert proc.returncode == 0, proc.stderr + server.log.read_text()[-3000:]
        assert plain not in proc.stdout + proc.stderr

    upload = Scan.objects.get(repository=uploaded_to)
    assert (upload.trigger, upload.status, upload.commit_sha, upload.branch) == ("upload", "finished", commit, "main")
    assert identities(uploaded_to) == expected
    assert scanned_files(upload) == scanned_files(worker_scan)
    for key in ("open_by_risk", "open_by_risk_severity", "translation", "parse_modes", "files", "lines"):
        assert upload.summary[key] == worker_scan.summary[key], key

    again = Scan.objects.filter(repository=worked, trigger="upload").get()
    assert again.summary["tracking"] == {
        "new": 0,
        "still_open": len(expected),
        "fixed": 0,
        "reopened": 0,
        "rerated": 0,
        "moved": 0,
        "carried": 0,
        "untouched": 0,
        "inherited": 0,
    }
    assert identities(worked) == expected
