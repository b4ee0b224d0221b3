"""Every answer under /api/ is JSON with a `detail`, also for a path no operation has and a method none takes."""

from __future__ import annotations

import pytest

from tests.portal.people import client_for


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/no-such-thing/",
        "/api/v1/repositories/12/nothing/",
        "/api/v1/",
        "/api/v2/repositories/",
        "/api/",
        "/api",
    ],
)
def test_an_unknown_api_path_is_a_json_404(people, path):
    for client in (client_for(people.bob), client_for(people.bob, enforce_csrf_checks=True)):
        for method in ("get", "post", "delete"):
            response = getattr(client, method)(path)
            assert response.status_code == 404, (method, path)
            assert response["Content-Type"].startswith("application/json"), (method, path, response.content[:200])
            assert response.json()["detail"]


@pytest.mark.django_db
def test_an_unknown_api_path_is_json_without_signing_in():
    from django.test import Client

    response = Client().get("/api/v1/nope/")
    assert response.status_code == 404 and response.json()["detail"]


@pytest.mark.django_db
def test_a_known_path_without_its_slash_is_still_redirected_for_a_get(people):
    client = client_for(people.bob)
    response = client.get("/api/v1/repositories?x=1")
    assert response.status_code == 301 and response["Location"] == "/api/v1/repositories/?x=1"
    posted = client.post("/api/v1/repositories", {}, content_type="application/json")
    assert posted.status_code == 404 and "/api/v1/repositories/" in posted.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("method, path", [("put", "/api/v1/repositories/"), ("get", "/api/v1/uploads/")])
def test_a_wrong_method_is_a_json_405(people, method, path):
    response = getattr(client_for(people.bob), method)(path)
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"] and response["Allow"]
