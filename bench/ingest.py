"""Ingest 100k generated findings into PostgreSQL through the tracking code; compare with a raw COPY.

    python bench/ingest.py [--findings 100000] [--files 2000] [--json FILE]

Reports the seconds and SQL statements of a first ingestion (all new), of a second one (all still open, 1% moved
lines, 1% fixed), and, in the same run, the seconds of a raw COPY of the same rows (every column the first
ingestion wrote) into a table shaped like the findings table, with its indexes. The goal: first ingestion <= 3x COPY.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout, portal_db  # noqa: E402

GOAL_RATIO = 3.0


def findings_for(n: int, files: int, shift: int = 0, drop_every: int = 0) -> list:
    from portal.findings.tracking import FileOutcome

    per_file = n // files
    outcomes = []
    for f in range(files):
        items = []
        for i in range(per_file):
            if drop_every and i % drop_every == 0:
                continue
            items.append(
                {
                    "rule": f"ROC1{i % 40:02d}",
                    "name": "bench-rule",
                    "risk": "build-break",
                    "severity": "medium",
                    "line": i + 1 + (shift if i % 100 == 0 else 0),
                    "column": 3,
                    "end_line": i + 1,
                    "end_column": 9,
                    "message": "generated finding",
                    "snippet": f"x{i};",
                    "fingerprint": f"{f:05d}{i:07d}".ljust(32, "0"),
                    "occurrence": 0,
                    "suppressed": False,
                }
            )
        outcomes.append(FileOutcome(f"src/f{f}.cu", frozenset(f"ROC1{k:02d}" for k in range(40)), items))
    return outcomes


def raw_copy_seconds(first_scan_id: int, into_findings: bool) -> tuple[float, int]:
    """COPY the rows the first ingestion wrote (every column but the id) and commit. `into_findings`: into the
    findings table itself, with its indexes and foreign keys (under another branch name, so the identities do not
    collide; deleted afterwards), which is what any ingestion must pay at least; else into a bare temporary copy
    of it (its indexes, no foreign keys)."""
    from django.db import connection, transaction

    from portal.findings.models import Finding

    fields = [f for f in Finding._meta.concrete_fields if f.column != "id"]
    rows = list(
        Finding.objects.filter(first_seen_id=first_scan_id).order_by("id").values_list(*[f.attname for f in fields])
    )
    branch_at = [f.column for f in fields].index("branch")
    rows = [(*row[:branch_at], "bench-copy", *row[branch_at + 1 :]) for row in rows]
    quoted = ", ".join(f'"{f.column}"' for f in fields)
    target = "findings_finding" if into_findings else "copy_target"
    with connection.cursor() as cursor:
        if not into_findings:
            cursor.execute("CREATE TABLE copy_target (LIKE findings_finding INCLUDING ALL)")
        start = time.perf_counter()
        with transaction.atomic(), cursor.copy(f"COPY {target} ({quoted}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        seconds = time.perf_counter() - start
        if into_findings:
            cursor.execute("DELETE FROM findings_finding WHERE branch = 'bench-copy'")
        else:
            cursor.execute("DROP TABLE copy_target")
    return seconds, len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=2_000)
    jsonout.add_argument(parser)
    args = parser.parse_args()
    portal_db.setup()
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from portal.accounts.models import Team
    from portal.findings import tracking
    from portal.repositories.models import Repository
    from portal.scans.models import Scan

    team = Team.objects.create(name="bench", slug="bench")
    repo = Repository.objects.create(team=team, name="bench", clone_url="https://example.com/x.git")
    paths = {f"src/f{f}.cu" for f in range(args.files)}
    figures: dict = {"findings": args.findings, "files": args.files}
    for key, label, outcomes, first in (
        ("first", "first ingestion (all new)", findings_for(args.findings, args.files), True),
        (
            "second",
            "second ingestion (1% moved, 1% fixed)",
            findings_for(args.findings, args.files, shift=5, drop_every=100),
            False,
        ),
    ):
        scan = Scan.objects.create(repository=repo, branch="main")
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            report = tracking.ingest(scan, outcomes, paths, {}, first_scan_of_branch=first)
        seconds = time.perf_counter() - start
        print(f"{label}: {seconds:.2f}s, {len(queries)} statements; {report.to_dict()}", flush=True)
        figures[f"{key}_seconds"], figures[f"{key}_statements"] = seconds, len(queries)
        figures[f"{key}_report"] = report.to_dict()
        if first:
            first_scan = scan
    bare_seconds, _ = raw_copy_seconds(first_scan.pk, into_findings=False)
    copy_seconds, rows = raw_copy_seconds(first_scan.pk, into_findings=True)
    ratio = figures["first_seconds"] / copy_seconds
    figures.update(
        copy_seconds=copy_seconds,
        copy_rows=rows,
        ratio_to_copy=ratio,
        goal_ratio=GOAL_RATIO,
        bare_copy_seconds=bare_seconds,
        ratio_to_bare_copy=figures["first_seconds"] / bare_seconds,
    )
    print(
        f"raw COPY of the same {rows} rows into the findings table (indexes, foreign keys, commit): "
        f"{copy_seconds:.2f}s; into a bare copy of it without foreign keys: {bare_seconds:.2f}s"
    )
    print(
        f"first ingestion / COPY = {ratio:.1f}x (goal <= {GOAL_RATIO:.0f}x: "
        f"{'met' if ratio <= GOAL_RATIO else 'not met'}); / bare COPY = {figures['ratio_to_bare_copy']:.1f}x"
    )
    jsonout.write(args.json, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
