"""Re-encrypt every stored secret (crypto.ENCRYPTED_FIELDS) under the newest key of ROCPORT_CREDENTIALS_KEYS.

Steps: read every value with the configured keys; if any cannot be read, stop before writing anything (unless
--skip-unreadable) and name them; otherwise rewrite each value not yet under the newest key. Running it again
rewrites nothing. Each value is written with a conditional UPDATE on its old ciphertext, so a secret changed by
a user meanwhile (already under the newest key) is left as it is.
"""

from __future__ import annotations

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError

from portal.repositories import crypto


class Command(BaseCommand):
    help = "Re-encrypt stored repository credentials and commit-status tokens under the newest credentials key."

    def add_arguments(self, parser):
        parser.add_argument(
            "--skip-unreadable",
            action="store_true",
            help="rotate what can be read and leave the unreadable values untouched",
        )

    def handle(self, *args, skip_unreadable: bool = False, **options):
        pending, unreadable, current = [], [], 0
        for label, field in crypto.ENCRYPTED_FIELDS:
            model = apps.get_model(label)
            for pk, token in model.objects.exclude(**{field: ""}).values_list("pk", field).order_by("pk"):
                if crypto.is_current(token):
                    current += 1
                    continue
                try:
                    crypto.decrypt(token)
                except crypto.CredentialsUnreadable:
                    unreadable.append(f"{label} id {pk} ({field})")
                    continue
                pending.append((model, field, pk, token))
        if unreadable and not skip_unreadable:
            raise CommandError(
                f"{len(unreadable)} stored secret(s) cannot be read with any configured key, so nothing was "
                f"changed: {', '.join(unreadable)}. Add the key they were written with to ROCPORT_CREDENTIALS_KEYS "
                f"(after the new one), or run with --skip-unreadable to rotate the others and leave these as they "
                f"are."
            )
        rotated = changed = 0
        for model, field, pk, token in pending:
            # Conditional: a value replaced since it was read is already under the newest key.
            if model.objects.filter(pk=pk, **{field: token}).update(**{field: crypto.rotate(token)}):
                rotated += 1
            else:
                changed += 1
        self.stdout.write(
            f"re-encrypted {rotated}, already under the newest key {current}, changed meanwhile "
            f"{changed}, unreadable and left as they were {len(unreadable)}"
        )
        if unreadable:
            self.stderr.write("unreadable: " + ", ".join(unreadable))
