"""One error shape for the whole API: every route under /api/ (walked from the URL configuration, as the access
matrix does) is sent the requests that fail (no credentials, a dead token, another team's token, a read-only
token writing, an unknown id, an id that is not a number, a bad page size, a wrong method, a malformed body), and
every answer of 400 and above must be JSON with a `detail` string, and nothing else besides the documented extras
(`errors` of a 422, `retry_after` of a 429)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from portal.accounts import tokens
from tests.portal.routes import concrete, routes, team_objects

EXTRAS = {"errors", "retry_after"}
UNKNOWN_ID = str(2**62)  # a valid id that no row has


def api_routes() -> list[str]:
    return [route for route in routes() if route.startswith(("api/", "^api"))]


def check_shape(response, what) -> None:
    assert response["Content-Type"].startswith("application/json"), (what, response.status_code, response.content[:200])
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("detail"), str) and body["detail"], (what, body)
    assert set(body) - {"detail"} <= EXTRAS, (what, body)
    if "errors" in body:
        assert response.status_code == 422, (what, body)


def with_ids(url: str, value: str) -> str:
    """The URL with every id in its path replaced by `value`."""
    return re.sub(r"/[0-9]+(?=/)", f"/{value}", url)


@pytest.mark.django_db
def test_every_api_route_answers_every_error_with_a_detail(people):
    _repository, _scan, finding, objects = team_objects(people)
    _, bob = tokens.issue(people.bob, "engineer")
    _, vera_read_only = tokens.issue(people.vera, "reader", read_only=True)
    _, charlie = tokens.issue(people.charlie, "outsider")
    body = {"text": "x", "decision": "false_positive", "reason": "r", "ids": [finding.pk]}
    upload_query = f"?repository={objects['repository']}&commit={'a' * 40}&branch=main"

    def bearer(plain: str) -> Client:
        return Client(headers={"Authorization": f"Bearer {plain}"})

    checked: dict[str, set[int]] = {}
    for route in api_routes():
        url = concrete(route, objects) if route[0] != "^" else "/api/v1/none/"
        url = url.replace("/^", "/none/")
        query = upload_query if route == "api/v1/uploads/" else ""
        attempts = [
            (Client(), method, url + query, {}) for method in ("get", "post", "put", "patch", "delete")
        ]  # anonymous
        attempts += [(bearer("rp_not-a-token"), method, url + query, {}) for method in ("get", "post")]
        json_body = {"data": body, "content_type": "application/json"}
        attempts += [(bearer(charlie), method, url + query, json_body) for method in ("get", "post", "patch")]
        attempts += [(bearer(vera_read_only), method, url + query, json_body) for method in ("post", "patch")]
        attempts += [
            (bearer(bob), "get", with_ids(url, UNKNOWN_ID), {}),
            (bearer(bob), "post", with_ids(url, UNKNOWN_ID) + query, json_body),
            (bearer(bob), "get", with_ids(url, "abc"), {}),
            (bearer(bob), "get", with_ids(url, "9" * 25), {}),
            (bearer(bob), "get", url + "?limit=0", {}),
            (bearer(bob), "get", url + "?limit=100000", {}),
            (bearer(bob), "get", url + "?limit=many", {}),
            (bearer(bob), "post", url + query, {"data": "{", "content_type": "application/json"}),
            (bearer(bob), "post", url, {"data": {}, "content_type": "application/json"}),
            (bearer(bob), "delete", url, {}),
        ]
        for client, method, target, kwargs in attempts:
            response = getattr(client, method)(target, **kwargs)
            if response.status_code >= 400:
                check_shape(response, (route, method, target))
                checked.setdefault(route, set()).add(response.status_code)
    missing = [route for route in api_routes() if route not in checked]
    assert missing == []
    seen = set().union(*checked.values())
    assert {400, 401, 403, 404, 405, 422} <= seen
    assert {400, 401, 403, 404} <= checked["api/v1/uploads/"]  # the CI upload, a plain view, answers alike
