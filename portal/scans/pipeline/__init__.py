"""The scan pipeline, run by the Celery tasks (portal.scans.tasks) and the demo: the runner that takes one scan
from claim to ingestion (runner), its shards, the blob-cache planning, the stored results, the one-transaction
ingestion, how a scan ends (endings, errors), and the worker-side helpers (a process's checkout, the claim's
heartbeat).

The modules import one way (tests/architecture/test_imports.py): runner -> shards -> ingestion -> planning,
results, endings -> errors. They import portal.scans' models, constants and signals, portal.repositories,
portal.findings and the scanner; never portal.scans.tasks, the pages, uploads or exports.
"""
