"""manage.py createteam NAME: a team (idempotent)."""

from django.core.management.base import BaseCommand
from django.utils.text import slugify

from portal.accounts.models import Team


class Command(BaseCommand):
    help = "Create a team"

    def add_arguments(self, parser):
        parser.add_argument("name")

    def handle(self, name, **options):
        team, created = Team.objects.get_or_create(name=name, defaults={"slug": slugify(name)})
        self.stdout.write(f"{'created' if created else 'exists'}: team {team.name} (id {team.pk})")
