"""manage.py adduser never takes the password on its command line: a prompt (getpass, twice) or standard input."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from portal.accounts.models import Team

pytestmark = pytest.mark.django_db
SECRET = "a long enough passphrase 42"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def team():
    return Team.objects.create(name="gpu", slug="gpu")


def _user(name="ana"):
    return get_user_model().objects.filter(username=name).first()


def test_a_password_on_the_command_line_is_refused_and_nothing_is_written(team):
    with pytest.raises(CommandError) as error:
        call_command("adduser", "ana", "--team", "gpu", "--password", SECRET, stdout=io.StringIO())
    assert "visible to other users" in str(error.value) and SECRET not in str(error.value)
    assert _user() is None


def test_the_password_is_read_from_standard_input(team):
    out = io.StringIO()
    call_command("adduser", "ana", "--team", "gpu", "--password-stdin", stdin=io.StringIO(SECRET + "\n"), stdout=out)
    assert _user().check_password(SECRET)
    assert SECRET not in out.getvalue() and "password set" in out.getvalue()
    with pytest.raises(CommandError, match="no password on standard input"):
        call_command("adduser", "ana", "--team", "gpu", "--password-stdin", stdin=io.StringIO(""))
    with pytest.raises(CommandError, match="refused"):
        call_command("adduser", "ana", "--team", "gpu", "--password-stdin", stdin=io.StringIO("short\n"))
    assert _user().check_password(SECRET)  # unchanged by the refused ones


def test_the_password_prompt_asks_twice_at_a_terminal(team, monkeypatch):
    answers = iter([SECRET, SECRET, SECRET, "another one entirely"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("adduser", "ana", "--team", "gpu", "--password", stdin=_Terminal(), stdout=io.StringIO())
    assert _user().check_password(SECRET)
    with pytest.raises(CommandError, match="differ"):
        call_command("adduser", "ana", "--team", "gpu", "--password", stdin=_Terminal())
    with pytest.raises(CommandError, match="password-stdin"):
        call_command("adduser", "bo", "--team", "gpu", "--password", stdin=io.StringIO(SECRET))
    assert _user("bo") is None


def test_without_a_password_option_the_account_gets_none_and_an_existing_one_keeps_its_own(team):
    call_command("adduser", "ana", "--team", "gpu", stdout=io.StringIO())
    assert not _user().has_usable_password() or _user().password == ""
    user = _user()
    user.set_password(SECRET)
    user.save()
    call_command("adduser", "ana", "--team", "gpu", "--role", "manager", stdout=io.StringIO())
    assert _user().check_password(SECRET)
