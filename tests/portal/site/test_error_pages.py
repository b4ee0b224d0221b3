"""Django's own error pages are English only: ours say what happened in the reader's language and where to go."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import include, path, reverse

from portal.repositories.models import Repository
from tests.portal.people import client_for


def _broken_view(request):
    raise RuntimeError("a bug in a view")


# The portal's URLs and one view that fails, for the 500 page (tests only).
urlpatterns = [path("broken/", _broken_view), path("", include("portal.urls"))]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, heading", [("en-US", "<h1>Not found</h1>"), ("zh-CN", "<h1>未找到</h1>")], ids=["en", "zh"]
)
def test_a_missing_or_foreign_page_answers_404_in_the_readers_language(people, language, heading):
    foreign = Repository.objects.create(team=people.other_team, name="theirs", clone_url="https://example.com/t.git")
    client = client_for(people.bob, headers={"Accept-Language": language})
    for url in (reverse("repositories:detail", args=[foreign.pk]), "/no/such/page/"):
        response = client.get(url)
        assert response.status_code == 404
        assert heading in response.content.decode() and 'href="/"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language, heading", [("en-US", "<h1>Not allowed</h1>"), ("zh-CN", "<h1>不允许</h1>")])
def test_a_role_that_may_not_answers_403_in_the_readers_language(people, language, heading):
    repository = Repository.objects.create(team=people.team, name="kernels", clone_url="https://example.com/k.git")
    client = client_for(people.vera, headers={"Accept-Language": language})  # a viewer
    response = client.post(reverse("repositories:scan", args=[repository.pk]))
    assert response.status_code == 403 and heading in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language, heading", [("en-US", "<h1>Server error</h1>"), ("zh-CN", "<h1>服务器错误</h1>")])
@override_settings(ROOT_URLCONF=__name__)
def test_a_failing_view_answers_500_in_the_portals_layout_and_the_readers_language(people, language, heading):
    client = Client(headers={"Accept-Language": language}, raise_request_exception=False)
    client.force_login(people.bob)
    response = client.get("/broken/")
    html = response.content.decode()
    assert response.status_code == 500
    assert heading in html and 'href="/"' in html and "rocport.css" in html  # the base layout, not Django's page
    assert "RuntimeError" not in html and "a bug in a view" not in html  # nothing of the error itself
