"""Cloning as a hostile-input operation, against git servers on 127.0.0.1."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from portal.repositories.git import CloneError, GitSession, classify
from portal.repositories.urlcheck import validate_clone_url
from tests.portal.servers import GitDaemon, GitHttpServer

CUDA = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"


@pytest.fixture
def served(tmp_path, repo_factory):
    repo = repo_factory("served/project")
    commit = repo.commit("add", **{"k.cu": CUDA})
    daemon = GitDaemon(tmp_path / "served")
    yield repo, commit, daemon
    daemon.stop()


def test_exactly_the_wanted_commit_is_fetched_over_git_daemon(served):
    repo, first, daemon = served
    second = repo.commit("more", **{"b.cu": "int b;\n"})
    with GitSession(daemon.url("project")) as git:
        assert git.resolve("main") == second
        checkout = git.fetch(first, ref="main")
        assert checkout.commit == first
        assert set(checkout.blobs) == {"k.cu"}
        assert (checkout.path / "k.cu").read_text() == CUDA
        root = git.root
    assert not root.exists()  # the temporary directory is removed


def test_a_missing_commit_and_a_missing_branch_are_user_errors(served):
    _, _, daemon = served
    with GitSession(daemon.url("project")) as git:
        with pytest.raises(CloneError) as missing:
            git.fetch("0123456789abcdef0123456789abcdef01234567", ref="main")
        assert missing.value.code == "commit_not_found"
    with GitSession(daemon.url("project")) as git, pytest.raises(CloneError) as branch:
        git.resolve("no-such-branch")
    assert branch.value.code == "ref_not_found"


def test_an_unreachable_host_is_clone_failed():
    with GitSession("git://127.0.0.1:1/nothing") as git, pytest.raises(CloneError) as error:
        git.resolve("main")
    assert error.value.code == "clone_failed"


def test_credentials_are_used_and_bad_ones_are_auth_failed(tmp_path, repo_factory):
    repo = repo_factory("http/project.git")
    commit = repo.commit("add", **{"k.cu": CUDA})
    server = GitHttpServer(tmp_path / "http", "builder", "s3cret-token")
    try:
        with GitSession(server.url("project.git"), ("builder", "s3cret-token")) as git:
            assert git.fetch(commit, ref="main").blobs.keys() == {"k.cu"}
        with GitSession(server.url("project.git"), ("builder", "wrong")) as git, pytest.raises(CloneError) as bad:
            git.resolve("main")
        assert bad.value.code == "auth_failed"
        assert "wrong" not in bad.value.message and "s3cret" not in bad.value.message
    finally:
        server.stop()


@pytest.mark.parametrize(
    "stderr, code",
    [
        # A redirect refused by a server on port 40312: the digits of the URL are not an HTTP 403 (a CI run failed so).
        (
            "fatal: unable to access 'http://127.0.0.1:40312/r.git/': Failed to connect to 127.0.0.1 port 40312",
            "clone_failed",
        ),
        ("fatal: repository 'http://h/team-403/r.git/' not found", "clone_failed"),
        ("fatal: unable to access 'http://h:8080/r.git/': The requested URL returned error: 403", "auth_failed"),
        ("remote: HTTP Basic: Access denied\nfatal: Authentication failed for 'https://h/r.git/'", "auth_failed"),
    ],
)
def test_only_an_http_status_of_403_counts_as_refused_credentials(stderr, code):
    assert classify(stderr, "http://h/r.git").code == code


def test_a_symlink_in_the_repository_is_checked_out_as_a_plain_file(repo_factory):
    repo = repo_factory()
    repo.write("k.cu", CUDA)
    (repo.path / "escape.cu").symlink_to("/etc/passwd")
    commit = repo.commit("symlink")
    with GitSession(repo.url) as git:
        checkout = git.fetch(commit, ref="main")
        escape = checkout.path / "escape.cu"
        assert not escape.is_symlink() and escape.read_text() == "/etc/passwd"
        assert "escape.cu" not in checkout.blobs  # not a regular file in git: never scanned


@override_settings(ROCPORT_CLONE_MAX_BYTES=50_000)
def test_a_repository_over_the_size_limit_is_refused(repo_factory):
    import os

    repo = repo_factory()
    commit = repo.commit("big", **{"blob.bin": os.urandom(400_000).hex()})
    with GitSession(repo.url) as git, pytest.raises(CloneError) as error:
        git.fetch(commit, ref="main")
    assert error.value.code == "repo_too_large"


@override_settings(ROCPORT_CLONE_TIMEOUT=1)
def test_a_clone_past_its_time_limit_is_killed(tmp_path):
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()  # never answers
    try:
        with GitSession(f"git://127.0.0.1:{port}/slow") as git, pytest.raises(CloneError) as error:
            git.resolve("main")
        assert error.value.code == "timeout"
    finally:
        listener.close()


@pytest.mark.parametrize(
    "url, message",
    [
        ("ftp://example.com/repo.git", "https://"),
        ("https://user:pw@example.com/repo.git", "password"),
        ("--upload-pack=touch /tmp/x", "start with '-'"),
        ("ext::sh -c touch% /tmp/pwned", "spaces"),
        ("https://127.0.0.1/repo.git", "private or local address"),
        ("file:///etc", "Local repositories"),
    ],
)
def test_bad_clone_urls_are_refused_with_a_clear_message(url, message):
    with override_settings(ROCPORT_ALLOW_LOCAL_REPOS=False, ROCPORT_ALLOW_PRIVATE_HOSTS=False):
        with pytest.raises(ValidationError) as error:
            validate_clone_url(url)
    assert message in " ".join(error.value.messages)
