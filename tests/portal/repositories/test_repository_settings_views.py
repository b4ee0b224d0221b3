"""The repository settings page: webhooks for everyone on the team, settings for managers, members for admins."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from portal.accounts.models import Membership
from portal.repositories.models import Repository
from tests.portal.people import client_for


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


def url(repository) -> str:
    return reverse("repositories:settings", args=[repository.pk])


@pytest.mark.django_db
def test_everyone_on_the_team_sees_the_endpoints_only_managers_see_the_secret(people, repository):
    vera = client_for(people.vera).get(url(repository))
    assert vera.status_code == 200 and b"/hooks/" in vera.content
    assert repository.webhook_secret.encode() not in vera.content
    assert repository.webhook_secret.encode() in client_for(people.alice).get(url(repository)).content
    assert client_for(people.charlie).get(url(repository)).status_code == 404
    assert Client().get(url(repository)).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    "host, secure, base",
    [
        ("127.0.0.1:18300", False, "http://127.0.0.1:18300"),
        ("rocport.example.com", True, "https://rocport.example.com"),
    ],
)
def test_the_webhook_urls_name_the_address_the_page_was_reached_at(people, settings, repository, host, secure, base):
    settings.SITE_URL = settings.ROCPORT_BASE_URL = "http://127.0.0.1:8000"  # a configured address on another port
    settings.ALLOWED_HOSTS = ["127.0.0.1", "rocport.example.com"]
    page = client_for(people.vera).get(url(repository), headers={"Host": host}, secure=secure).content.decode()
    for provider in ("github", "gitlab", "gitea"):
        assert f"{base}/hooks/{repository.pk}/{provider}/" in page
    assert ":8000" not in page


@pytest.mark.django_db
def test_managers_save_settings_and_credentials_stay_write_only(people, settings, repository):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    data = {
        "action": "repository",
        "clone_url": "https://127.0.0.1/new.git",
        "default_branch": "develop",
        "credentials_username": "ci",
        "credentials_secret": "s3cret-value",
        "tracked": "release, hotfix",
    }
    assert client_for(people.bob).post(url(repository), data).status_code == 403
    assert client_for(people.alice).post(url(repository), data).status_code == 302
    repository.refresh_from_db()
    assert (repository.default_branch, repository.tracked_branches) == ("develop", ["release", "hotfix"])
    assert repository.credentials() == ("ci", "s3cret-value")
    assert b"s3cret-value" not in client_for(people.alice).get(url(repository)).content
    client_for(people.alice).post(url(repository), {**data, "credentials_secret": "", "clear_credentials": "on"})
    repository.refresh_from_db()
    assert repository.credentials() is None


@pytest.mark.django_db
def test_only_admins_manage_members(people, repository):
    admin = get_user_model().objects.create_user("ada", password="x" * 12)
    Membership.objects.create(user=admin, team=people.team, role="admin")
    data = {"action": "member", "username": "charlie", "role": "viewer"}
    assert client_for(people.alice).post(url(repository), data).status_code == 403
    assert client_for(admin).post(url(repository), data).status_code == 302
    assert Membership.objects.get(user=people.charlie, team=people.team).role == "viewer"
    client_for(admin).post(url(repository), {"action": "remove_member", "user": people.charlie.pk})
    assert not Membership.objects.filter(user=people.charlie, team=people.team).exists()


@pytest.mark.django_db
def test_settings_forms_need_a_csrf_token_and_unknown_actions_are_404(people, repository):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.alice)
    assert strict.post(url(repository), {"action": "rotate"}).status_code == 403
    assert client_for(people.alice).post(url(repository), {"action": "explode"}).status_code == 404
    old = repository.webhook_secret
    assert client_for(people.alice).post(url(repository), {"action": "rotate"}).status_code == 302
    repository.refresh_from_db()
    assert repository.webhook_secret != old and repository.previous_webhook_secret == old
