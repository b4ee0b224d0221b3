"""The default branch is checked on the remote (git ls-remote through GitSession) when a repository is registered or
its clone URL or branch changes; a remote that cannot be reached keeps the registration working, with a warning."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from portal.repositories.models import Repository
from portal.repositories.settings_forms import CommitStatusForm
from tests.portal.api_clients import ApiClient
from tests.portal.people import client_for
from tests.portal.servers import GitHttpServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def remote(repo_factory):
    repo = repo_factory("remote")
    repo.commit("first", **{"k.cu": "int k;\n"})
    repo.branch("release")
    return repo


def _register(client, people, **data):
    body = {"name": "kernels", "default_branch": "main", **data}
    return client.post(reverse("repositories:add", args=[people.team.pk]), body)


def test_a_branch_the_remote_does_not_have_is_refused_naming_its_branches(people, remote):
    alice = client_for(people.alice)
    response = _register(alice, people, clone_url=remote.url, default_branch="mian")
    assert response.status_code == 200
    text = response.content.decode()
    assert "The branch mian does not exist in the repository (its branches: main, release)." in text
    assert not Repository.objects.exists()
    assert _register(alice, people, clone_url=remote.url, default_branch="release").status_code == 302
    assert Repository.objects.get().default_branch == "release"


def test_an_unreachable_remote_registers_with_a_warning(people, settings):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    response = _register(client_for(people.alice), people, clone_url="git://127.0.0.1:1/nothing.git")
    assert response.status_code == 302 and Repository.objects.filter(name="kernels").exists()
    shown = [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]
    assert len(shown) == 1 and shown[0][0] == "warning", shown  # one banner, a warning's, never a success's
    assert "did not answer this server" in shown[0][1] and "first scan will tell" in shown[0][1], shown


def test_credentials_the_remote_refuses_are_refused_on_the_form(people, settings, tmp_path, repo_factory):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    repo_factory("http/project.git").commit("add", **{"k.cu": "int k;\n"})
    server = GitHttpServer(tmp_path / "http", "builder", "s3cret-token")
    try:
        alice = client_for(people.alice)
        common = {"clone_url": server.url("project.git"), "credentials_username": "builder"}
        bad = _register(alice, people, **common, credentials_secret="wrong")
        assert bad.status_code == 200 and "refused the credentials" in bad.content.decode()
        assert "wrong" not in bad.content.decode().replace("wrong-", "")
        assert _register(alice, people, **common, credentials_secret="s3cret-token").status_code == 302
    finally:
        server.stop()


def test_the_settings_page_and_the_api_check_a_changed_branch(people, remote):
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url=remote.url)
    page = reverse("repositories:settings", args=[repository.pk])
    alice = client_for(people.alice)
    data = {"action": "repository", "clone_url": remote.url, "default_branch": "nope", "tracked": ""}
    refused = alice.post(page, data)
    assert refused.status_code == 200 and "The branch nope does not exist" in refused.content.decode()
    assert alice.post(page, {**data, "default_branch": "release"}).status_code == 302
    repository.refresh_from_db()
    assert repository.default_branch == "release"
    api = ApiClient(people.alice)
    answer = api.post(
        "/repositories/",
        {"team": people.team.pk, "name": "other", "clone_url": remote.url, "default_branch": "gone"},
    )
    assert answer.status_code == 400 and "The branch gone does not exist" in answer.json()["detail"]


@pytest.mark.parametrize("clone_url", ["git://127.0.0.1/kernels.git", "https://git.example.com/gpu/kernels.git"])
def test_the_commit_status_api_url_and_project_are_empty_unless_set(people, clone_url):
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url=clone_url)
    form = CommitStatusForm(repository=repository, config=None)
    assert form["api_url"].value() in ("", None) and form["project"].value() in ("", None)
    html = client_for(people.alice).get(reverse("repositories:settings", args=[repository.pk])).content.decode()
    assert "/api/v3" not in html.split('name="api_url"')[1].split(">")[0]
