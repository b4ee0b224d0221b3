"""Reporting: every computation over findings, scans and files that the pages, the API, the printable reports and
the weekly digest show, and the rollups that keep it cheap: the work-left estimate (effort), the migration ledger
(ledger), per-branch rollups (rollups), migration progress (figures), its history and forecast (history), where the
migration is stuck (stuck), the dashboards' figures (metrics), what a progress page shows (overview) and the charts'
geometry (charts). A plain package, not a Django app: the models it reads stay in their apps.

One direction: it imports models, itself and a short list of leaf helpers (tests/architecture/test_imports.py,
REPORTING_LEAVES), never a view, task, action or the ingestion; those call it (scan ingestion rebuilds rollups,
triage moves them, views, the API, digests and templatetags read it)."""
