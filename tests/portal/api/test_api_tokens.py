"""Personal API tokens: stored as a digest only, resolved from a bearer header, dead once revoked."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from portal.accounts import tokens
from portal.accounts.models import ApiToken


@pytest.mark.django_db
def test_a_token_is_stored_as_a_digest_and_resolves_to_its_user(people):
    token, plain = tokens.issue(people.bob, "ci")
    assert plain.startswith("rp_") and len(plain) > 40
    row = ApiToken.objects.get(pk=token.pk)
    assert plain not in (row.digest, row.prefix, row.name) and plain.startswith(row.prefix)
    request = RequestFactory().get("/", headers={"Authorization": f"Bearer {plain}"})
    assert tokens.token_for_request(request).user == people.bob
    assert ApiToken.objects.get(pk=token.pk).last_used is not None


@pytest.mark.django_db
def test_revoked_unknown_malformed_and_inactive_tokens_resolve_to_nobody(people):
    token, plain = tokens.issue(people.bob, "ci")
    factory = RequestFactory()
    for header in (f"Bearer {plain[:-1]}x", f"Basic {plain}", plain, "Bearer ", "Bearer " + "rp_" + "a" * 500):
        assert tokens.token_for_request(factory.get("/", headers={"Authorization": header})) is None, header
    _, other = tokens.issue(people.vera, "reader", read_only=True)
    people.vera.is_active = False
    people.vera.save()
    assert tokens.token_for(other) is None
    tokens.revoke(token)
    assert tokens.token_for(plain) is None
