"""manage.py addrepo TEAM NAME URL [--branch B] [--track B ...]: register a repository (URL validated)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from portal.accounts.models import Team
from portal.repositories.models import Repository
from portal.repositories.urlcheck import validate_clone_url


class Command(BaseCommand):
    help = "Register a git repository for a team"

    def add_arguments(self, parser):
        parser.add_argument("team")
        parser.add_argument("name")
        parser.add_argument("url")
        parser.add_argument("--branch", default="main", help="default branch")
        parser.add_argument("--track", action="append", default=[], help="another branch to track")

    def handle(self, team, name, url, branch, track, **options):
        team_obj = Team.objects.filter(name=team).first()
        if team_obj is None:
            raise CommandError(f"no team named {team!r}")
        try:
            url = validate_clone_url(url)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        repo, created = Repository.objects.update_or_create(
            team=team_obj, name=name, defaults={"clone_url": url, "default_branch": branch, "tracked_branches": track}
        )
        self.stdout.write(f"{'created' if created else 'updated'}: repository {repo.name} (id {repo.pk})")
