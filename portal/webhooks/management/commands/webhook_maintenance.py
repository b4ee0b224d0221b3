"""manage.py webhook_maintenance [--redeliver] [--reconcile]: run the periodic webhook tasks once, now."""

from django.core.management.base import BaseCommand

from portal.webhooks.tasks import reconcile_heads, redeliver_pending


class Command(BaseCommand):
    help = "Send pending webhook deliveries and/or reconcile tracked branch heads with git ls-remote"

    def add_arguments(self, parser):
        parser.add_argument("--redeliver", action="store_true")
        parser.add_argument("--reconcile", action="store_true")

    def handle(self, redeliver, reconcile, **options):
        both = not redeliver and not reconcile
        if redeliver or both:
            self.stdout.write(f"redelivered: {redeliver_pending()}")
        if reconcile or both:
            self.stdout.write(f"scans started by reconciliation: {reconcile_heads()}")
