"""Ingest 100k generated findings into PostgreSQL through the tracking code; compare with a raw COPY.

    python bench/ingest.py [--findings 100000]

Reports the seconds and SQL statements of a first ingestion (all new), of a second one (all still open, 1% moved
lines, 1% fixed), and the seconds of a raw COPY of the same rows into the findings table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import portal_db  # noqa: E402


def findings_for(n: int, files: int, shift: int = 0, drop_every: int = 0) -> list:
    from portal.findings.tracking import FileOutcome

    per_file = n // files
    outcomes = []
    for f in range(files):
        items = []
        for i in range(per_file):
            if drop_every and i % drop_every == 0:
                continue
            items.append({"rule": f"ROC1{i % 40:02d}", "name": "bench-rule", "risk": "build-break",
                          "severity": "medium", "line": i + 1 + (shift if i % 100 == 0 else 0), "column": 3,
                          "end_line": i + 1, "end_column": 9, "message": "generated finding", "snippet": f"x{i};",
                          "fingerprint": f"{f:05d}{i:07d}".ljust(32, "0"), "occurrence": 0, "suppressed": False})
        outcomes.append(FileOutcome(f"src/f{f}.cu", frozenset(f"ROC1{k:02d}" for k in range(40)), items))
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=2_000)
    args = parser.parse_args()
    portal_db.setup()
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from portal.accounts.models import Team
    from portal.findings import tracking
    from portal.findings.models import Finding
    from portal.repositories.models import Repository
    from portal.scans.models import Scan

    team = Team.objects.create(name="bench", slug="bench")
    repo = Repository.objects.create(team=team, name="bench", clone_url="https://example.com/x.git")
    paths = {f"src/f{f}.cu" for f in range(args.files)}
    for label, outcomes, first in (("first ingestion (all new)", findings_for(args.findings, args.files), True),
                                   ("second ingestion (1% moved, 1% fixed)",
                                    findings_for(args.findings, args.files, shift=5, drop_every=100), False)):
        scan = Scan.objects.create(repository=repo, branch="main")
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            report = tracking.ingest(scan, outcomes, paths, {}, first_scan_of_branch=first)
        seconds = time.perf_counter() - start
        print(f"{label}: {seconds:.1f}s, {len(queries)} statements; {report.to_dict()}")
        if first:
            first_seconds = seconds
    rows = list(Finding.objects.values_list(
        "repository_id", "branch", "path", "rule", "fingerprint", "occurrence", "name", "risk", "severity", "line",
        "column", "end_line", "end_column", "message", "snippet", "suppressed", "state", "triage", "triage_reason"))
    columns = ("repository_id", "branch", "path", "rule", "fingerprint", "occurrence", "name", "risk", "severity",
               "line", "column", "end_line", "end_column", "message", "snippet", "suppressed", "state", "triage",
               "triage_reason")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE copy_target (LIKE findings_finding INCLUDING ALL)")
        start = time.perf_counter()
        quoted = ", ".join(f'"{c}"' for c in columns)
        with cursor.copy(f"COPY copy_target ({quoted}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        copy_seconds = time.perf_counter() - start
    print(f"raw COPY of the same {len(rows)} rows: {copy_seconds:.2f}s; first ingestion / COPY = "
          f"{first_seconds / copy_seconds:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
