"""manage.py adduser USERNAME --team TEAM --role ROLE [--password P]: a user and their membership."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from portal.accounts.models import Membership, Team


class Command(BaseCommand):
    help = "Create a user (or update their password) and add them to a team"

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--team", required=True)
        parser.add_argument("--role", choices=Membership.Role.values, default=Membership.Role.ENGINEER)
        parser.add_argument("--password", help="set this password (otherwise the account has none)")

    def handle(self, username, team, role, password, **options):
        team_obj = Team.objects.filter(name=team).first()
        if team_obj is None:
            raise CommandError(f"no team named {team!r}: create it with `manage.py createteam`")
        user, created = get_user_model().objects.get_or_create(username=username)
        if password:
            user.set_password(password)
            user.save()
        Membership.objects.update_or_create(user=user, team=team_obj, defaults={"role": role})
        self.stdout.write(f"{'created' if created else 'updated'}: {username} ({role} in {team_obj.name})")
