#!/usr/bin/env python
"""Django's command-line utility for the ROCport portal."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError:
        # Without DATABASE_URL the database is the one `make run` starts: psycopg's "Is the server running locally
        # ...?" does not say so. Any other failure (or that server running) is shown as it is.
        from django.conf import settings

        from portal.local.postgres import not_running_advice

        advice = not_running_advice(settings.DATABASES["default"], settings.VAR_DIR)
        if advice is None:
            raise
        sys.exit(f"manage.py: {advice}")
