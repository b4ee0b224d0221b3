"""Test users with different access, built in code."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
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
            user = User.objects.create_user(name, password=PASSWORD)
            Membership.objects.create(user=user, team=t, role=role)
            users[name] = user
        return cls(team, other, **users)


def client_for(user, **kwargs) -> Client:
    """A test client signed in as `user` (kwargs go to Client, e.g. headers)."""
    client = Client(**kwargs)
    client.force_login(user)
    return client
