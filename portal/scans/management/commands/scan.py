"""manage.py scan REPO [--ref BRANCH] [--wait | --sync]: queue a scan (or run it in this process)."""

import time

from django.core.management.base import BaseCommand, CommandError

from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.models import Scan
from portal.scans.pipeline import runner


class Command(BaseCommand):
    help = "Scan a repository's branch"

    def add_arguments(self, parser):
        parser.add_argument("repository", help="repository id or name")
        parser.add_argument("--ref", default="", help="branch (default: the repository's default branch)")
        parser.add_argument("--sync", action="store_true", help="run the scan in this process, not on a worker")
        parser.add_argument("--wait", action="store_true", help="wait for the worker to finish it")

    def handle(self, repository, ref, sync, wait, **options):
        query = (
            Repository.objects.filter(pk=int(repository))
            if repository.isdigit()
            else Repository.objects.filter(name=repository)
        )
        repo = query.first()
        if repo is None:
            raise CommandError(f"no repository {repository!r}")
        scan = do_create_scan(repo, branch=ref, enqueue=not sync)
        if sync:
            runner.run(scan.pk)
        elif wait:
            while not Scan.objects.get(pk=scan.pk).is_final:
                time.sleep(1)
        scan.refresh_from_db()
        self.stdout.write(f"scan {scan.pk}: {scan.status} {scan.error_code} {scan.error_message}".rstrip())
