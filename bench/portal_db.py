"""Shared set-up for the portal benchmarks: a dedicated PostgreSQL database, migrated, Django configured."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB = os.environ.get("ROCPORT_BENCH_DB", "rocport_bench")
# A Redis database of the benchmarks' own (bench/run_all.py sets it), never the one a developer's portal uses.
BROKER = os.environ.get("ROCPORT_BENCH_BROKER", "redis://127.0.0.1:6379/14")
# Rate limits count in the next database (portal/settings.py derives CACHE_URL from the broker's).


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DB], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DB], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "portal.settings"
    os.environ["CELERY_BROKER_URL"] = BROKER
    os.environ.setdefault("ROCPORT_VAR_DIR", tempfile.mkdtemp(prefix="rocport-bench-var-"))
    os.environ["ROCPORT_ALLOW_LOCAL_REPOS"] = "1"
    # The scanning benchmarks measure the scanner and the pipeline; the compile check (hipcc, about a second per
    # file, on whenever hipcc is installed) has its own benchmark, bench/compile_check.py, which turns it on.
    os.environ.setdefault("ROCPORT_COMPILE_CHECK", "off")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
