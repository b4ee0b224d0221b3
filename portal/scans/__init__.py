"""Scans, by concern: pipeline/ (a scan cloned, planned, sharded across workers and ingested), uploads/ (scans made
in CI), exports/ (downloads of a scan's findings, one registry of formats); at the root the models, constants,
signals, actions, the Celery tasks (their names are `portal.scans.tasks.*`) and the scan pages. Imports
portal.repositories, portal.findings and the scanner."""
