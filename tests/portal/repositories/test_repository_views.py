"""The minimal repository pages: login, team isolation, roles, methods, CSRF."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from portal.repositories.models import Repository
from portal.scans.models import Scan
from tests.portal.people import PASSWORD, client_for


@pytest.fixture
def repository(people):
    return Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")


@pytest.mark.django_db
def test_pages_need_a_login(repository):
    response = Client().get(reverse("repositories:list"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.django_db
def test_the_login_page_signs_in(people):
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("repositories:list")).status_code == 200


@pytest.mark.django_db
def test_members_see_their_team_repositories_and_outsiders_get_404(people, repository):
    assert b"kernels" in client_for(people.vera).get(reverse("repositories:list")).content
    assert b"kernels" not in client_for(people.charlie).get(reverse("repositories:list")).content
    detail = reverse("repositories:detail", args=[repository.pk])
    assert client_for(people.vera).get(detail).status_code == 200
    assert client_for(people.charlie).get(detail).status_code == 404
    assert client_for(people.alice).get(reverse("repositories:detail", args=[99999])).status_code == 404


@pytest.mark.django_db
def test_engineers_can_start_a_scan_viewers_cannot(people, repository):
    url = reverse("repositories:scan", args=[repository.pk])
    assert client_for(people.vera).post(url).status_code == 403
    assert client_for(people.charlie).post(url).status_code == 404
    response = client_for(people.bob).post(url)
    scan = Scan.objects.get(repository=repository, status="queued")
    assert response.status_code == 302 and response.url == reverse("scans:detail", args=[scan.pk])


@pytest.mark.django_db
def test_starting_a_scan_needs_post_and_a_csrf_token(people, repository):
    url = reverse("repositories:scan", args=[repository.pk])
    assert client_for(people.bob).get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people.bob)
    assert strict.post(url).status_code == 403
    assert not Scan.objects.exists()


@pytest.mark.django_db
def test_managers_register_repositories_and_bad_urls_are_refused_on_the_form(people, settings):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = False
    url = reverse("repositories:add", args=[people.team.pk])
    assert client_for(people.bob).get(url).status_code == 403
    assert client_for(people.charlie).get(url).status_code == 404
    alice = client_for(people.alice)
    bad = alice.post(url, {"name": "r", "clone_url": "https://127.0.0.1/x.git", "default_branch": "main"})
    assert bad.status_code == 200 and b"private or local address" in bad.content
    assert not Repository.objects.exists()
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    good = alice.post(
        url,
        {
            "name": "r",
            "clone_url": "https://127.0.0.1/x.git",
            "default_branch": "main",
            "credentials_username": "ci",
            "credentials_secret": "tok-123",
        },
    )
    assert good.status_code == 302
    repository = Repository.objects.get(name="r")
    assert repository.credentials() == ("ci", "tok-123")
    assert "tok-123" not in repository.credentials_encrypted
    page = alice.get(reverse("repositories:detail", args=[repository.pk]))
    assert b"tok-123" not in page.content


@pytest.mark.django_db
def test_repository_list_costs_the_same_queries_for_one_or_many_repositories(people, django_assert_max_num_queries):
    from portal.reporting import rollups
    from tests.portal.dashboards.test_dashboards_views import add_findings

    for i in range(30):
        repo = Repository.objects.create(team=people.team, name=f"r{i}", clone_url=f"https://example.com/{i}.git")
        scan = Scan.objects.create(repository=repo, branch="main", status="finished", commit_sha=f"{i:040d}")
        add_findings(
            repo,
            scan,
            [(f"f{k % 3}.cu", "ROC101", "performance", "low", "untriaged", "open") for k in range(i + 1)]
            + [("f.cu", "ROC150", "build-break", "low", "untriaged", "fixed")],
        )
        rollups.refresh_after_ingest(scan)  # as tracking.ingest leaves the branch
    client = client_for(people.vera)
    with django_assert_max_num_queries(8):
        page = client.get(reverse("repositories:list"))
    assert page.status_code == 200 and page.content.count(b'class="status-finished"') == 30
    assert reverse("dashboards:repository", args=[repo.pk]).encode() in page.content
    assert {r.name: r.open_findings for r, _ in page.context["rows"]} == {f"r{i}": i + 1 for i in range(30)}


@pytest.mark.django_db
def test_scan_history_is_paginated_and_links_each_scan(people, repository):
    for i in range(60):
        Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha=f"{i:040d}")
    client = client_for(people.vera)
    first = client.get(reverse("repositories:detail", args=[repository.pk]))
    assert len(first.context["page"].object_list) == 50 and b'rel="next"' in first.content
    newest = Scan.objects.order_by("-created", "-id").first()
    assert reverse("scans:detail", args=[newest.pk]).encode() in first.content
    second = client.get(reverse("repositories:detail", args=[repository.pk]), {"page": 2})
    assert len(second.context["page"].object_list) == 10


@pytest.mark.django_db(transaction=True)
def test_a_name_registered_between_the_check_and_the_insert_is_a_form_error_not_a_500(people, monkeypatch):
    # The race the API always handled: the page goes through the same action now (portal.repositories.actions).
    from portal.repositories.forms import RepositoryForm

    original_save = RepositoryForm.save

    def save_after_another_request(form, *args, **kwargs):  # another request registers the name first
        Repository.objects.create(team=people.team, name=form.cleaned_data["name"], clone_url="https://e.com/r.git")
        return original_save(form, *args, **kwargs)

    monkeypatch.setattr(RepositoryForm, "save", save_after_another_request)
    response = client_for(people.alice).post(
        reverse("repositories:add", args=[people.team.pk]),
        {"name": "raced", "clone_url": "https://example.com/r.git", "default_branch": "main"},
    )
    # (the stand-in "other request" shares this request's transaction, so both inserts roll back here)
    assert response.status_code == 200 and b"already has a repository with that name" in response.content


@pytest.mark.django_db
def test_the_list_and_the_portfolio_give_a_scan_the_same_age_its_finish(people, repository):
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    scan = Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)
    Scan.objects.filter(pk=scan.pk).update(created=now - timedelta(days=3), finished=now - timedelta(minutes=5))
    bob = client_for(people.bob)
    listed = bob.get(reverse("repositories:list")).content.decode()
    portfolio = bob.get(reverse("dashboards:portfolio")).content.decode()
    assert "5\xa0minutes ago" in listed and "3\xa0days" not in listed  # the finish, not the creation
    assert "5\xa0minutes ago" in portfolio and "3\xa0days" not in portfolio
