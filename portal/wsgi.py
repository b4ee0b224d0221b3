"""WSGI entry point."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
application = get_wsgi_application()

# Objects loaded at start-up (Django, the apps, the URL resolver, templates, the rule catalogue) live as long as the
# worker and never need scanning: collect once, then move them out of the collector's generations, so that a
# request's full (gen-2) collection no longer walks them all (pauses of 34–64 ms measured at 10^6 findings,
# docs/performance.md). gunicorn imports this module in each worker (no --preload in the Procfile).
gc.collect()
gc.freeze()
