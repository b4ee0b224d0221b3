"""manage.py adduser --email ADDRESS: the address the weekly digest and the notifications go to, set when the user
is created or later, and checked before anything is written."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from portal.accounts.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team():
    return Team.objects.create(name="gpu", slug="gpu")


def _user(name="ana"):
    return get_user_model().objects.filter(username=name).first()


def test_a_new_user_gets_the_address_and_the_command_says_so(team):
    out = io.StringIO()
    call_command("adduser", "ana", "--team", "gpu", "--email", "ana@example.test", stdout=out)
    assert _user().email == "ana@example.test"
    assert out.getvalue().strip() == "created: ana (engineer in gpu), email set"  # the address is not echoed


def test_an_existing_user_gets_a_new_address_and_keeps_it_when_none_is_given(team):
    call_command("adduser", "ana", "--team", "gpu", stdout=io.StringIO())
    assert _user().email == ""
    call_command("adduser", "ana", "--team", "gpu", "--email", "Ana@Example.TEST", stdout=io.StringIO())
    assert _user().email == "Ana@example.test"  # the domain part lower-cased, as Django's forms store it
    call_command("adduser", "ana", "--team", "gpu", "--role", "viewer", stdout=io.StringIO())
    assert _user().email == "Ana@example.test"


def test_a_malformed_address_is_refused_and_nothing_is_written(team):
    with pytest.raises(CommandError, match="not an email address"):
        call_command("adduser", "ana", "--team", "gpu", "--email", "ana at example", stdout=io.StringIO())
    assert _user() is None


def test_an_address_longer_than_the_account_keeps_is_refused_and_nothing_is_written(team):
    # Valid for the email check (local part 64, labels of 60) but longer than User.email's 254 characters.
    long = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"
    with pytest.raises(CommandError, match="more than the 254 an account keeps"):
        call_command("adduser", "ana", "--team", "gpu", "--email", long, stdout=io.StringIO())
    assert _user() is None
