#!/usr/bin/env bash
# `make run`: the portal on this machine. Without DATABASE_URL / CELERY_BROKER_URL it runs on embedded defaults
# under var/ (SQLite, a Celery worker on kombu's filesystem transport); with them, on PostgreSQL and Redis.
# Rate limits count in a file cache under var/cache on the embedded defaults, in Redis otherwise (CACHE_URL).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PORT="${PORT:-8000}"
export DEBUG="${DEBUG:-1}"                                   # runserver serves the static files
export ROCPORT_ALLOW_LOCAL_REPOS="${ROCPORT_ALLOW_LOCAL_REPOS:-1}"  # the demo repository is a local one

$PY manage.py migrate --noinput
$PY manage.py demo

mkdir -p var
$PY -m celery -A portal worker --beat --loglevel=WARNING --concurrency=1 \
    --schedule var/celerybeat-schedule >var/worker.log 2>&1 &
WORKER=$!
trap 'kill "$WORKER" 2>/dev/null || true' EXIT INT TERM

echo
echo "ROCport is running at http://127.0.0.1:${PORT}/  (sign in as demo / rocport-demo)"
echo "Celery worker log: var/worker.log. Stop with Ctrl-C."
$PY manage.py runserver "127.0.0.1:${PORT}" --noreload
