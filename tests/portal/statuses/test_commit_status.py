"""Commit statuses on the git host: real scans through the pipeline, posted to a stand-in of each provider's status
API on 127.0.0.1 (tests/portal/githosts.py), by the Celery task run eagerly in-process, and once through a real
worker process; retries, refusals, secrecy of the token, and the settings on the repository settings page."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from django.urls import reverse

from portal.celery import app as celery_app
from portal.hosts import statuses as providers
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.pipeline import runner as pipeline
from portal.scans.signals import scan_started
from portal.statuses.actions import do_save_commit_status_settings
from portal.statuses.models import CommitStatusConfig, StatusPost
from portal.statuses.tasks import MAX_RETRIES
from tests.portal.githosts import GitHost
from tests.portal.people import client_for

TOKEN = "ghp_s3cret-status-token-0123456789"
BASE = "https://rocport.example.test"
KERNEL = "__global__ void k(float *x) {\n  x[threadIdx.x % 32] = warpSize;\n}\n"  # ROC101, high
DOCKERFILE = "FROM ubuntu:22.04\nRUN nvidia-smi -L | grep -q A100\n"  # ROC231, medium (a bare print is info)
PROJECTS = {"github": "acme/kernels", "gitlab": "acme/gpu/kernels", "gitea": "acme/kernels", "forgejo": "acme/kernels"}


@pytest.fixture
def eager():
    """The posting task runs in the test's process (the real worker is test_a_real_worker_posts_...)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def hosts():
    started = []

    def start(provider: str, token: str = TOKEN) -> GitHost:
        started.append(GitHost.start(provider, token))
        return started[-1]

    yield start
    for host in started:
        host.stop()


@pytest.fixture(autouse=True)
def base_url(settings):
    settings.ROCPORT_BASE_URL = BASE + "/"


def register(people, repo, host: GitHost, threshold: str = "high") -> Repository:
    row = Repository.objects.create(team=people.team, name=repo.path.name, clone_url=repo.url)
    do_save_commit_status_settings(
        row,
        enabled=True,
        provider=host.provider,
        api_url=host.api_url,
        project=PROJECTS[host.provider],
        threshold=threshold,
        token=TOKEN,
        acting_user=people.alice,
    )
    return row


def run_scan(row, commit: str, capture) -> Scan:
    scan = do_create_scan(row, commit_sha=commit, enqueue=False)
    with capture(execute=True):  # the pipeline announces start and end on commit
        pipeline.run(scan.pk)
    scan.refresh_from_db()
    return scan


def expected_path(provider: str, sha: str) -> str:
    if provider == "gitlab":
        return f"/api/v4/projects/acme%2Fgpu%2Fkernels/statuses/{sha}"
    prefix = "" if provider == "github" else "/api/v1"
    return f"{prefix}/repos/acme/kernels/statuses/{sha}"


AUTH = {
    "github": ("authorization", f"Bearer {TOKEN}"),
    "gitlab": ("private-token", TOKEN),
    "gitea": ("authorization", f"token {TOKEN}"),
    "forgejo": ("authorization", f"token {TOKEN}"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("provider", ["github", "gitlab", "gitea", "forgejo"])
def test_a_scan_posts_pending_then_its_verdict_as_each_provider_documents(
    provider, people, repo_factory, hosts, eager, django_capture_on_commit_callbacks
):
    host = hosts(provider)
    repo = repo_factory()
    c1 = repo.commit("kernel", **{"src__k.cu": KERNEL})
    row = register(people, repo, host)
    first = run_scan(row, c1, django_capture_on_commit_callbacks)
    assert first.status == "finished"

    label = "name" if provider == "gitlab" else "context"
    failure = "failed" if provider == "gitlab" else "failure"
    link = f"{BASE}/scans/{first.pk}/"
    assert host.statuses() == [
        {"state": "pending", "target_url": link, "description": "ROCport is scanning this commit", label: "rocport"},
        {"state": failure, "target_url": link, "description": "1 new high+ finding", label: "rocport"},
    ]
    for request in host.received:
        assert (request.method, request.path) == ("POST", expected_path(provider, c1))
        assert request.headers[AUTH[provider][0]] == AUTH[provider][1]
        assert request.headers["content-type"] == "application/json"
    if provider == "github":
        assert host.received[0].headers["accept"] == "application/vnd.github+json"
    assert list(StatusPost.objects.filter(scan=first).order_by("phase").values_list("phase", "outcome", "state")) == [
        ("ended", "sent", "failure"),
        ("started", "sent", "pending"),
    ]

    # The second commit adds only a medium finding and keeps the high one: nothing new at or above high.
    c2 = repo.commit("docker", Dockerfile=DOCKERFILE)
    second = run_scan(row, c2, django_capture_on_commit_callbacks)
    assert second.summary["tracking"]["new"] == 1
    verdict = host.statuses()[-1]
    assert (verdict["state"], verdict["description"]) == ("success", "No new high+ findings")
    assert verdict["target_url"] == f"{BASE}/scans/{second.pk}/"
    assert host.received[-1].path == expected_path(provider, c2)


@pytest.mark.django_db
def test_the_threshold_decides_which_new_findings_fail_the_status(
    people, repo_factory, hosts, eager, django_capture_on_commit_callbacks
):
    host = hosts("github")
    repo = repo_factory()
    row = register(people, repo, host, threshold="medium")
    run_scan(
        row,
        repo.commit("both", **{"k.cu": KERNEL, "k2.cu": KERNEL.replace("k(", "k2("), "Dockerfile": DOCKERFILE}),
        django_capture_on_commit_callbacks,
    )
    assert host.statuses()[-1]["description"] == "3 new medium+ findings"
    CommitStatusConfig.objects.filter(repository=row).update(threshold="critical")
    run_scan(row, repo.commit("more", **{"k3.cu": KERNEL.replace("k(", "k3(")}), django_capture_on_commit_callbacks)
    assert (host.statuses()[-1]["state"], host.statuses()[-1]["description"]) == ("success", "No new critical findings")


@pytest.mark.django_db
@pytest.mark.parametrize("provider, state", [("github", "error"), ("gitlab", "failed")])
def test_a_failed_scan_posts_an_error(
    provider, state, people, tmp_path, hosts, eager, django_capture_on_commit_callbacks
):
    host = hosts(provider)
    row = Repository.objects.create(team=people.team, name="gone", clone_url=f"file://{tmp_path}/missing")
    do_save_commit_status_settings(
        row,
        enabled=True,
        provider=provider,
        api_url=host.api_url,
        project=PROJECTS[provider],
        threshold="high",
        token=TOKEN,
        acting_user=people.alice,
    )
    scan = run_scan(row, "a" * 40, django_capture_on_commit_callbacks)
    assert (scan.status, scan.error_code) == ("failed", "scan:user:clone-failed")
    [status] = host.statuses()  # it never started scanning: no pending
    assert (status["state"], status["description"]) == (state, "The ROCport scan failed (clone-failed)")
    assert host.received[0].path == expected_path(provider, "a" * 40)


@pytest.mark.django_db
def test_a_failing_host_is_retried_and_the_scan_finishes(
    people, repo_factory, hosts, eager, django_capture_on_commit_callbacks
):
    host = hosts("gitea")
    host.fail_next("500", "drop")  # the pending status: a 500, then the connection closed without an answer
    repo = repo_factory()
    row = register(people, repo, host)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL}), django_capture_on_commit_callbacks)
    assert scan.status == "finished" and scan.summary["tracking"]["new"] == 1
    assert [r.answer for r in host.received] == [500, "drop", 201, 201]
    assert [s["state"] for s in host.statuses()] == ["pending", "failure"]
    started = StatusPost.objects.get(scan=scan, phase="started")
    assert (started.outcome, started.attempts, started.http_status) == ("sent", 3, 201)


@pytest.mark.django_db
def test_a_host_that_stays_down_is_given_up_on_logged_without_the_token(
    people, repo_factory, hosts, eager, django_capture_on_commit_callbacks, caplog
):
    caplog.set_level(logging.DEBUG)
    host = hosts("github")
    host.fail_next(*["500"] * (2 * (MAX_RETRIES + 1)))
    repo = repo_factory()
    row = register(people, repo, host)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL}), django_capture_on_commit_callbacks)
    assert scan.status == "finished"
    assert len(host.received) == 2 * (MAX_RETRIES + 1)  # each status: the first attempt and every retry
    ended = StatusPost.objects.get(scan=scan, phase="ended")
    assert (ended.outcome, ended.attempts, ended.http_status) == ("failed", MAX_RETRIES + 1, 500)
    assert "HTTP 500" in ended.detail and "giving up" in caplog.text
    assert TOKEN not in caplog.text
    client = Client()
    client.force_login(people.alice)
    page = client.get(reverse("repositories:settings", args=[row.pk]))
    assert b"HTTP 500" in page.content and TOKEN.encode() not in page.content


@pytest.mark.django_db
def test_a_refused_token_is_not_retried(people, repo_factory, hosts, eager, django_capture_on_commit_callbacks, caplog):
    host = hosts("github", token="another-token")
    repo = repo_factory()
    row = register(people, repo, host)
    scan = run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL}), django_capture_on_commit_callbacks)
    assert [r.answer for r in host.received] == [401, 401]  # pending and verdict, once each
    post = StatusPost.objects.get(scan=scan, phase="ended")
    assert (post.outcome, post.http_status, post.attempts) == ("failed", 401, 1)
    assert "Bad credentials" in post.detail and TOKEN not in caplog.text


@pytest.mark.django_db
def test_a_signal_sent_twice_posts_once(people, repo_factory, hosts, eager, django_capture_on_commit_callbacks):
    host = hosts("github")
    repo = repo_factory()
    row = register(people, repo, host)
    scan = do_create_scan(row, commit_sha=repo.commit("kernel", **{"k.cu": KERNEL}), enqueue=False)
    with django_capture_on_commit_callbacks(execute=True):
        scan_started.send_robust(sender=Scan, scan=scan)
        scan_started.send_robust(sender=Scan, scan=scan)  # a retried attempt of the same scan
    assert [s["state"] for s in host.statuses()] == ["pending"]


@pytest.mark.django_db
def test_nothing_is_posted_when_statuses_are_off(
    people, repo_factory, hosts, eager, django_capture_on_commit_callbacks
):
    host = hosts("github")
    repo = repo_factory()
    row = register(people, repo, host)
    CommitStatusConfig.objects.filter(repository=row).update(enabled=False)
    run_scan(row, repo.commit("kernel", **{"k.cu": KERNEL}), django_capture_on_commit_callbacks)
    assert host.received == [] and not StatusPost.objects.exists()


@pytest.mark.parametrize(
    "clone_url, provider, api_url, project",
    [
        ("https://github.com/acme/kernels.git", "github", "https://api.github.com", "acme/kernels"),
        ("git@github.com:acme/kernels.git", "github", "https://api.github.com", "acme/kernels"),
        ("https://gitlab.com/acme/gpu/kernels.git", "gitlab", "https://gitlab.com/api/v4", "acme/gpu/kernels"),
        (
            "ssh://git@gitlab.example.com/acme/kernels.git",
            "gitlab",
            "https://gitlab.example.com/api/v4",
            "acme/kernels",
        ),
        ("https://codeberg.org/acme/kernels.git", "forgejo", "https://codeberg.org/api/v1", "acme/kernels"),
        ("https://gitea.example.com/acme/kernels", "gitea", "https://gitea.example.com/api/v1", "acme/kernels"),
    ],
)
def test_defaults_are_derived_from_the_clone_url(clone_url, provider, api_url, project):
    assert providers.guess_provider(clone_url) == provider
    assert providers.default_api_url(provider, clone_url) == api_url
    assert providers.default_project(provider, clone_url) == project


# -- the settings page -------------------------------------------------------------------------------------------


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://github.com/acme/kernels.git")


def settings_url(repository) -> str:
    return reverse("repositories:settings", args=[repository.pk])


FORM = {
    "action": "commit_status",
    "enabled": "on",
    "provider": "github",
    "api_url": "",
    "project": "",
    "threshold": "high",
    "token": TOKEN,
}


@pytest.mark.django_db
def test_a_manager_saves_the_settings_and_the_token_is_write_only(people, repository):
    alice = client_for(people.alice)
    page = alice.get(settings_url(repository))
    assert b"acme/kernels" in page.content and b"https://api.github.com" in page.content  # the derived defaults
    assert alice.post(settings_url(repository), FORM).status_code == 302
    config = CommitStatusConfig.objects.get(repository=repository)
    assert (config.enabled, config.provider, config.api_url, config.project, config.threshold) == (
        True,
        "github",
        "https://api.github.com",
        "acme/kernels",
        "high",
    )
    assert TOKEN not in config.token_encrypted and config.token() == TOKEN  # encrypted at rest
    page = alice.get(settings_url(repository))
    assert TOKEN.encode() not in page.content and b"A token is stored" in page.content
    # Saving again without a token keeps it; the checkbox removes it (and statuses cannot stay on without one).
    assert alice.post(settings_url(repository), {**FORM, "token": "", "threshold": "critical"}).status_code == 302
    config.refresh_from_db()
    assert (config.token(), config.threshold) == (TOKEN, "critical")
    refused = alice.post(settings_url(repository), {**FORM, "token": "", "clear_token": "on"})
    assert refused.status_code == 200 and b"need a token" in refused.content
    config.refresh_from_db()
    assert config.token() == TOKEN  # bad input loses nothing
    alice.post(settings_url(repository), {**FORM, "token": "", "clear_token": "on", "enabled": ""})
    config.refresh_from_db()
    assert (config.enabled, config.token_encrypted) == (False, "")


@pytest.mark.django_db
def test_bad_settings_get_a_clear_error_and_change_nothing(people, repository, settings):
    alice = client_for(people.alice)
    alice.post(settings_url(repository), FORM)
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = False
    for field, value, message in (
        ("api_url", "http://api.github.com", b"https://"),
        ("api_url", "https://127.0.0.1/api/v3", b"private or local address"),
        ("api_url", "https://user:pw@api.github.com", b"no user name"),
        ("project", "only-one-segment", b"owner/repository"),
    ):
        answer = alice.post(settings_url(repository), {**FORM, field: value, "token": "another-token"})
        assert answer.status_code == 200 and message in answer.content, (field, value)
        assert b"another-token" not in answer.content  # not even echoed back into the form
    config = CommitStatusConfig.objects.get(repository=repository)
    assert (config.api_url, config.project, config.token()) == ("https://api.github.com", "acme/kernels", TOKEN)


@pytest.mark.django_db
def test_only_the_team_sees_and_only_managers_change_the_settings(people, repository):
    alice = client_for(people.alice)
    alice.post(settings_url(repository), FORM)
    for outsider in (client_for(people.charlie),):
        assert outsider.get(settings_url(repository)).status_code == 404
        assert outsider.post(settings_url(repository), {**FORM, "token": "stolen"}).status_code == 404
    for member in (people.bob, people.vera):
        client = client_for(member)
        page = client.get(settings_url(repository))
        assert page.status_code == 200 and b"Statuses are posted to GitHub" in page.content
        assert b'name="token"' not in page.content
        assert client.post(settings_url(repository), {**FORM, "token": "mine"}).status_code == 403
    assert CommitStatusConfig.objects.get(repository=repository).token() == TOKEN


@pytest.mark.django_db
def test_the_settings_form_needs_a_csrf_token(people, repository):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    assert strict.post(settings_url(repository), FORM).status_code == 403
    assert not CommitStatusConfig.objects.exists()


# -- a real worker ----------------------------------------------------------------------------------------------


@pytest.fixture
def worker(tmp_path):
    from tests.portal.worker import Worker

    started = []

    def start(**env) -> Worker:
        started.append(Worker(tmp_path / "worker.log", **env))
        return started[-1]

    yield start
    for one in started:
        one.stop()


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_posts_pending_then_the_verdict(people, repo_factory, hosts, worker):
    from tests.portal.worker import wait_final, wait_until

    running = worker(ROCPORT_BASE_URL=BASE)
    host = hosts("forgejo")
    repo = repo_factory()
    row = register(people, repo, host)
    commit = repo.commit("kernel", **{"k.cu": KERNEL})
    scan = wait_final(do_create_scan(row, commit_sha=commit).pk)
    assert scan.status == "finished"
    wait_until(lambda: len(host.received) >= 2, what="both statuses")
    link = f"{BASE}/scans/{scan.pk}/"
    assert host.statuses() == [
        {
            "state": "pending",
            "target_url": link,
            "description": "ROCport is scanning this commit",
            "context": "rocport",
        },
        {"state": "failure", "target_url": link, "description": "1 new high+ finding", "context": "rocport"},
    ]
    assert all(r.headers["authorization"] == f"token {TOKEN}" for r in host.received)
    wait_until(lambda: StatusPost.objects.filter(scan=scan, outcome="sent").count() == 2, what="both recorded")
    assert "posted to forgejo" in running.log.read_text() and TOKEN not in running.log.read_text()


@pytest.mark.parametrize("clone_url", ["git://127.0.0.1/acme/kernels.git", "http://git.example.com/acme/kernels.git"])
def test_no_api_url_is_derived_from_a_git_or_plain_http_clone_url(clone_url):
    for provider in ("github", "gitlab", "gitea", "forgejo"):
        assert providers.default_api_url(provider, clone_url) == ""  # never https://127.0.0.1/api/v3


@pytest.mark.django_db
def test_for_a_git_clone_url_the_settings_form_asks_for_the_api_url(people):
    repository = Repository.objects.create(
        team=people.team, name="kernels", clone_url="git://127.0.0.1/acme/kernels.git"
    )
    alice = client_for(people.alice)
    page = alice.get(settings_url(repository)).content.decode()
    assert "/api/v3" not in page.split('name="api_url"')[1].split(">")[0]  # nothing prefilled
    refused = alice.post(settings_url(repository), FORM)
    assert refused.status_code == 200
    assert "Enter the API base URL" in refused.content.decode() and "derived only from an https or ssh" in (
        refused.content.decode()
    )
    assert not CommitStatusConfig.objects.filter(repository=repository).exists()
    given = {**FORM, "api_url": "https://127.0.0.1/api/v3"}  # the team says where its API is (private: allowed)
    assert alice.post(settings_url(repository), given).status_code == 302
    config = CommitStatusConfig.objects.get(repository=repository)
    assert (config.api_url, config.project) == ("https://127.0.0.1/api/v3", "acme/kernels")
    page = alice.get(settings_url(repository)).content.decode()
    assert "https://127.0.0.1/api/v3" in page.split('name="api_url"')[1].split(">")[0]  # the stored value, shown
