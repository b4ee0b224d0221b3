"""Test users with different access, built in code."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.test import Client

from portal.accounts.models import Membership, Team

PASSWORD = "correct horse battery"


@dataclass
class People:
    team: Team
    other_team: Team
    alice: object  # manager of team: manages repositories, scans, triages
    bob: object  # engineer on team: scans and triages
    vera: object  # viewer on team: reads only
    charlie: object  # manager of other_team: sees nothing of team

    @classmethod
    def create(cls) -> People:
        User = get_user_model()
        team = Team.objects.create(name="GPU team", slug="gpu-team")
        other = Team.objects.create(name="Other team", slug="other-team")
        users = {}
        for name, t, role in (
            ("alice", team, "manager"),
            ("bob", team, "engineer"),
            ("vera", team, "viewer"),
            ("charlie", other, "manager"),
        ):
            user = User.objects.create_user(name)
            user.password = _password_hash(settings.PASSWORD_HASHERS[0])
            user.save(update_fields=["password"])
            Membership.objects.create(user=user, team=t, role=role)
            users[name] = user
        return cls(team, other, **users)


@functools.cache
def _password_hash(hasher: str) -> str:
    """PASSWORD hashed by the first configured hasher, once per process and hasher: the production PBKDF2 costs
    about half a second a hash, and People.create, which most portal tests use, made four. The stored hash is
    the same kind a user's password gets (same algorithm and iterations, a salt shared by the test users); signing
    in still checks it in full."""
    return make_password(PASSWORD)


def client_for(user, **kwargs) -> Client:
    """A test client signed in as `user` (kwargs go to Client, e.g. headers)."""
    client = Client(**kwargs)
    client.force_login(user)
    return client
