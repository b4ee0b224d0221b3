"""API clients for the test people: each one a Django test client carrying a real personal token of its user."""

from __future__ import annotations

import json

from django.test import Client

from portal.accounts import tokens


class ApiClient:
    """Bearer-token requests with JSON bodies; `.json` of the last answer is returned with its status."""

    def __init__(self, user, read_only: bool = False, plain: str | None = None) -> None:
        if plain is None:
            _, plain = tokens.issue(user, "tests", read_only=read_only)
        self.plain = plain
        self.client = Client(headers={"Authorization": f"Bearer {plain}"})

    def get(self, url: str, /, **query):
        return self.client.get(f"/api/v1{url}", query)

    def post(self, url: str, body=None):
        return self.client.post(
            f"/api/v1{url}", json.dumps(body if body is not None else {}), content_type="application/json"
        )

    def patch(self, url: str, body=None):
        return self.client.patch(
            f"/api/v1{url}", json.dumps(body if body is not None else {}), content_type="application/json"
        )


def clients(people) -> dict[str, ApiClient]:
    """alice (manager), bob (engineer), vera (viewer) of people.team; charlie (manager of another team)."""
    return {name: ApiClient(getattr(people, name)) for name in ("alice", "bob", "vera", "charlie")}
