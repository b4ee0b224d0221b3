"""manage.py rebuild_rollups: build every branch's rollup of open findings from the findings table (after an
upgrade from a version without rollups, or to repair one edited behind the portal's back). Pages rebuild a
missing or stale rollup on their own; this does all of them up front."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from portal.reporting import rollups


class Command(BaseCommand):
    help = "Rebuild the per-branch rollups of open findings that the dashboards and lists read."

    def handle(self, *args, **options):
        count = rollups.rebuild_all()
        if options["verbosity"]:
            self.stdout.write(f"{count} branch rollups rebuilt")
