"""Scans: the Celery tasks, the pipeline that clones and scans a commit (sharded across workers), the blob cache,
exports and the scan pages. Imports portal.repositories, portal.findings and the scanner."""
