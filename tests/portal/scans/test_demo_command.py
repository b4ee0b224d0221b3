"""`manage.py demo`, which `make run` runs at every start: a second run keeps what the first made, and the demo
user's browser sessions with it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from portal.accounts.models import Membership, Team
from portal.repositories.models import Repository
from portal.scans.management.commands.demo import DEMO_PASSWORD, DEMO_USER
from portal.scans.models import Scan


@pytest.mark.django_db
def test_a_second_demo_keeps_the_demo_user_signed_in(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    (tmp_path / "demo-repo" / ".git").mkdir(parents=True)  # what the first run built
    team = Team.objects.create(name="Demo team", slug="demo-team")
    user = get_user_model().objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
    Membership.objects.create(user=user, team=team, role=Membership.Role.MANAGER)
    repository = Repository.objects.create(team=team, name="cuda-demo", clone_url=f"file://{tmp_path}/demo-repo")
    Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)
    browser = Client()
    browser.force_login(user)
    assert browser.get(reverse("dashboards:portfolio")).status_code == 200

    out = StringIO()
    call_command("demo", stdout=out)

    assert "demo already set up" in out.getvalue()
    # A new password hash would have ended the session (Django ties a session to the hash): signed out at restart.
    assert browser.get(reverse("dashboards:portfolio")).status_code == 200
    assert Client().login(username=DEMO_USER, password=DEMO_PASSWORD)


@pytest.mark.django_db
def test_the_demo_gives_the_demo_password_back_when_it_was_changed(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    (tmp_path / "demo-repo" / ".git").mkdir(parents=True)
    team = Team.objects.create(name="Demo team", slug="demo-team")
    get_user_model().objects.create_user(DEMO_USER, password="something else")
    repository = Repository.objects.create(team=team, name="cuda-demo", clone_url=f"file://{tmp_path}/demo-repo")
    Scan.objects.create(repository=repository, branch="main", status="finished", commit_sha="a" * 40)

    call_command("demo", stdout=StringIO())

    assert Client().login(username=DEMO_USER, password=DEMO_PASSWORD)  # the login `make run` prints works
