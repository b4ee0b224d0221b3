"""The account's API tokens page: create (the plain token shown once), list, revoke; CSRF on both forms; one
user's tokens are invisible and unrevocable for another."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.accounts import tokens
from portal.accounts.models import ApiToken
from tests.portal.api_clients import ApiClient
from tests.portal.people import PASSWORD

URL = "/accounts/tokens/"


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.login(username=user.username, password=PASSWORD)
    return client


@pytest.mark.django_db
def test_the_page_needs_a_sign_in_and_is_linked_from_the_header(people):
    assert Client().get(URL).status_code == 302
    portfolio = signed_in(people.vera).get("/")
    assert f'href="{URL}"' in portfolio.content.decode()


@pytest.mark.django_db
def test_the_empty_state_says_what_a_token_is_for(people):
    html = signed_in(people.vera).get(URL).content.decode()
    assert "No tokens yet" in html and "CI" in html and "/api/v1/" in html


@pytest.mark.django_db
def test_a_new_token_is_shown_once_and_works(people):
    client = signed_in(people.bob)
    response = client.post(URL, {"name": "CI of kernels"})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get(user=people.bob)
    html = response.content.decode()
    [plain] = [p for p in html.split('"') if p.startswith(tokens.PREFIX) and len(p) > 40]
    assert html.count(plain) == 1 and "shown only this once" in html
    assert tokens.token_for(plain) == token and not token.read_only and token.name == "CI of kernels"
    assert ApiClient(people.bob, plain=plain).get("/repositories/").status_code == 200

    listed = client.get(URL).content.decode()
    assert plain not in listed and token.prefix in listed and "CI of kernels" in listed
    assert "read and write" in listed


@pytest.mark.django_db
def test_a_read_only_token_is_made_from_the_checkbox(people):
    response = signed_in(people.alice).post(URL, {"name": "dashboards", "read_only": "on"})
    assert response.status_code == 200
    assert ApiToken.objects.get(user=people.alice).read_only
    assert "read-only" in signed_in(people.alice).get(URL).content.decode()


@pytest.mark.django_db
def test_a_token_needs_a_name(people):
    response = signed_in(people.bob).post(URL, {"name": "   "})
    assert response.status_code == 200 and not ApiToken.objects.exists()
    assert "errorlist" in response.content.decode()


@pytest.mark.django_db
def test_revoking_kills_the_token_and_someone_elses_token_is_404(people):
    mine, plain = tokens.issue(people.bob, "ci")
    theirs, their_plain = tokens.issue(people.charlie, "theirs")
    client = signed_in(people.bob)
    assert "theirs" not in client.get(URL).content.decode()
    assert client.post(reverse("accounts:revoke_token", args=[theirs.pk])).status_code == 404
    assert tokens.token_for(their_plain) is not None
    assert client.get(reverse("accounts:revoke_token", args=[mine.pk])).status_code == 405

    response = client.post(reverse("accounts:revoke_token", args=[mine.pk]), follow=True)
    assert response.status_code == 200 and "revoked" in response.content.decode()
    assert tokens.token_for(plain) is None
    assert ApiClient(people.bob, plain=plain).get("/repositories/").status_code == 401
    assert "No tokens yet" in response.content.decode()  # revoked tokens leave the list
    assert client.post(reverse("accounts:revoke_token", args=[mine.pk])).status_code == 404  # already revoked


@pytest.mark.django_db
def test_both_forms_need_the_csrf_token(people):
    token, plain = tokens.issue(people.bob, "ci")
    client = signed_in(people.bob, enforce_csrf_checks=True)
    assert client.post(URL, {"name": "sneaky"}).status_code == 403
    assert client.post(reverse("accounts:revoke_token", args=[token.pk])).status_code == 403
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["ci"] and tokens.token_for(plain) is not None
    csrf = client.get(URL).cookies["csrftoken"].value
    assert client.post(URL, {"name": "real", "csrfmiddlewaretoken": csrf}).status_code == 200
    assert ApiToken.objects.filter(name="real").exists()
