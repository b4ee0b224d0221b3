"""Plain http:// clone URLs: one rule (portal.repositories.urlcheck.transport_allowed) decides for the URL check and
for the clone's git config, so a URL the form accepts is one git may fetch, and one it refuses git refuses too."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.urls import reverse

from portal.repositories.git import CloneError, GitSession
from portal.repositories.models import Repository
from portal.repositories.urlcheck import validate_clone_url
from tests.portal.people import client_for
from tests.portal.servers import GitHttpServer

CUDA = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"


@pytest.fixture
def http_repo(tmp_path, repo_factory):
    """A real repository served by `git http-backend` on 127.0.0.1 (smart HTTP, basic auth)."""
    repo = repo_factory("http/project.git")
    commit = repo.commit("add", **{"k.cu": CUDA})
    server = GitHttpServer(tmp_path / "http", "builder", "s3cret-token")
    yield server.url("project.git"), commit
    server.stop()


def test_http_is_refused_by_the_url_check_and_by_git_without_the_setting(http_repo):
    url, commit = http_repo
    with override_settings(ROCPORT_ALLOW_PRIVATE_HOSTS=False):
        with pytest.raises(ValidationError) as error:
            validate_clone_url(url)
        message = " ".join(error.value.messages)
        assert "https://" in message and "http://," not in message and "(not http)" in message
        with GitSession(url, ("builder", "s3cret-token")) as git, pytest.raises(CloneError) as refused:
            git.fetch(commit, ref="main")
        assert refused.value.code == "protocol_not_allowed"


@pytest.mark.django_db
def test_http_is_accepted_registered_and_cloned_with_the_setting(http_repo, people):
    url, commit = http_repo
    with override_settings(ROCPORT_ALLOW_PRIVATE_HOSTS=True):
        assert validate_clone_url(url) == url
        response = client_for(people.alice).post(
            reverse("repositories:add", args=[people.team.pk]),
            {
                "name": "over-http",
                "clone_url": url,
                "default_branch": "main",
                "credentials_username": "builder",
                "credentials_secret": "s3cret-token",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        repository = Repository.objects.get(name="over-http")
        with GitSession(repository.clone_url, repository.credentials()) as git:
            assert git.resolve("main") == commit
            checkout = git.fetch(commit, ref="main")
            assert set(checkout.blobs) == {"k.cu"}
            assert (checkout.path / "k.cu").read_text() == CUDA
