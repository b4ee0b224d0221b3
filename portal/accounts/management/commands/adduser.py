"""manage.py adduser USERNAME --team TEAM [--role ROLE] [--email ADDRESS] [--password | --password-stdin]: a user
and their membership. `--email` sets the address the weekly digest and the notifications go to (the user can
change it on their profile page); without it an existing user's address is left as it is.

The password never goes on the command line (other users see it in `ps`, the shell keeps it in its history):
`--password` asks for it at a prompt (twice, not echoed), `--password-stdin` reads it from standard input (a pipe,
a file, a secret store: `secret-tool lookup … | manage.py adduser ana --team gpu --password-stdin`). The old form
`--password VALUE` is refused with a message saying so, rather than kept: it leaked the password by design.
"""

import getpass
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from portal.accounts.forms import EMAIL_MAX_LENGTH
from portal.accounts.models import Membership, Team

_PROMPT = object()  # `--password` without a value


class Command(BaseCommand):
    help = "Create a user (or update their password) and add them to a team"
    stealth_options = ("stdin",)  # call_command(..., stdin=...) in tests, as createsuperuser takes it

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--team", required=True)
        parser.add_argument("--role", choices=Membership.Role.values, default=Membership.Role.ENGINEER)
        parser.add_argument(
            "--email", metavar="ADDRESS", help="the user's email address (weekly digest, notifications)"
        )
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--password",
            nargs="?",
            const=_PROMPT,
            default=None,
            help="ask for the password at a prompt (without it the password is left as it is; a new account has none)",
        )
        group.add_argument(
            "--password-stdin", action="store_true", help="read the password from standard input (its first line)"
        )

    def handle(self, username, team, role, password, password_stdin, email=None, **options):
        self.stdin = options.get("stdin") or sys.stdin
        team_obj = Team.objects.filter(name=team).first()
        if team_obj is None:
            raise CommandError(f"no team named {team!r}: create it with `manage.py createteam`")
        if password is not None and password is not _PROMPT:
            raise CommandError(
                "a password on the command line is visible to other users (ps) and kept in shell history: "
                "use --password alone to be asked for it, or --password-stdin to pipe it in"
            )
        User = get_user_model()
        if email is not None:
            email = User.objects.normalize_email(email.strip())
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"{email!r} is not an email address; nothing was changed") from None
            if len(email) > EMAIL_MAX_LENGTH:
                raise CommandError(
                    f"the address has {len(email)} characters, more than the {EMAIL_MAX_LENGTH} an account keeps; "
                    "nothing was changed"
                )
        secret = None
        if password is _PROMPT:
            secret = self._prompt(username)
        elif password_stdin:
            secret = self._read_stdin()
        user = User.objects.filter(username=username).first()
        if secret is not None:
            try:
                validate_password(secret, user or User(username=username))
            except ValidationError as error:
                raise CommandError("the password was refused: " + " ".join(error.messages)) from None
        user, created = User.objects.get_or_create(username=username)
        if secret is not None:
            user.set_password(secret)
        if email is not None:
            user.email = email
        if secret is not None or email is not None:
            user.save()
        Membership.objects.update_or_create(user=user, team=team_obj, defaults={"role": role})
        # "email set", not the address: this output lands in deployment logs, which never carry addresses.
        changed = (", email set" if email is not None else "") + (", password set" if secret is not None else "")
        self.stdout.write(f"{'created' if created else 'updated'}: {username} ({role} in {team_obj.name}){changed}")

    def _prompt(self, username: str) -> str:
        if not self.stdin.isatty():
            raise CommandError("--password asks at a terminal; with no terminal, use --password-stdin")
        first = getpass.getpass(f"Password for {username}: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("the two passwords differ; nothing was changed")
        if not first:
            raise CommandError("the password is empty; nothing was changed")
        return first

    def _read_stdin(self) -> str:
        secret = self.stdin.readline().rstrip("\r\n")
        if not secret:
            raise CommandError("no password on standard input; nothing was changed")
        return secret
