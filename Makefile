# The two newcomer commands (see README.md): `make run` and `make test`.
# Both build .venv from nothing with the pinned dependencies of pyproject.toml.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run scan-demo test test-tools format docs bench clean venv serve

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==24.3.1
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Only the virtualenv (.venv with the pinned dependencies and the test tools), nothing started.
venv: $(STAMP)

# The portal as in production, outside Docker: migrate, then gunicorn, a Celery worker and beat, the Procfile's
# three commands (Ctrl-C stops all three). Needs DATABASE_URL (and CELERY_BROKER_URL for Redis; see .env.example);
# `make run` is the all-in-one demo instead. PORT, WEB_CONCURRENCY, WORKER_CONCURRENCY as in the Procfile.
serve: $(STAMP)
	@test -n "$$DATABASE_URL" || { echo "make serve: set DATABASE_URL (see .env.example); make run starts a private PostgreSQL instead" >&2; exit 2; }
	$(PY) manage.py migrate --noinput
	@grep -E '^(web|worker|beat):' Procfile | sed 's/^[a-z]*: //' > $(VENV)/.serve-commands
	bash -c 'trap "kill \$$(jobs -p) 2>/dev/null; wait" INT TERM EXIT; while read -r cmd; do eval "$$cmd &"; done < $(VENV)/.serve-commands; wait -n'

# The portal with the demo repository scanned, a Celery worker and the web server (scripts/run.sh).
run: $(STAMP)
	scripts/run.sh

# The scanner alone on the bundled demo project: the report on the terminal.
scan-demo: $(STAMP)
	$(PY) -m scanner scan demo/cuda-demo --format text --fail-on never

# Debian's packages the tests use (Chromium, a CJK font, hipcc, gettext): installed with apt when missing and root.
test-tools:
	scripts/ensure-test-tools.sh

# What CI runs too (.ci/run starts PostgreSQL and Redis, then calls this): the formatter's check and the linter
# (settings in pyproject.toml's [tool.ruff]), then the tests. `make format` applies both fixes.
test: $(STAMP) test-tools
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	$(PY) -m pytest

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

docs: $(STAMP)
	$(PY) -m scanner docs > docs/rules.md

# Every benchmark under bench/ on generated workloads (their own databases and Redis database 15):
# bench/results.json and bench/results.md, the table also on stdout. About 25 minutes on 2 cores.
bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV)
