"""Server time and SQL queries of the portal's pages at scale: 1,000,000 findings across 100 repositories with 50
scans each, loaded with COPY into a dedicated PostgreSQL database (bench/pages_data.py builds it: its docstring
says what the data holds), then each page requested in-process with Django's test Client.

    python bench/pages.py [--findings 1000000] [--repos 100] [--scans 50] [--runs 20] [--json FILE] [--reuse-db]

Prints, per page, the HTTP status, the median and p95 server time (time.perf_counter around client.get) and the
number of SQL queries (CaptureQueriesContext), against the goal p95 < 200 ms; `--json FILE` also writes them as
one JSON object (bench/run_all.py). Exits non-zero only on errors
(an exception, a 4xx/5xx answer), never on a missed goal. Pages are measured on the largest repository and its
team (the worst case), the migration progress pages among them: the portfolio, the repository dashboard (also
with `?older_than=30`), the repository's and the team's printable reports and the weekly digest's opt-in page.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# its own database, so that it never drops the one another benchmark is using
os.environ.setdefault("ROCPORT_BENCH_DB", "rocport_bench_pages")
from bench import jsonout, portal_db  # noqa: E402
from bench.pages_big_file import BIG_FILE_LINES, BIG_FILE_PATH, add_big_file  # noqa: E402
from bench.pages_data import attach, load, loaded  # noqa: E402

GOAL_MS = 200
# What a page may weigh at first paint (issue: a 10,000-line file's page was 2.2 MB); fragments loaded later count
# on their own.
GOAL_BYTES = 300_000


def targets(data: dict) -> list[tuple[str, str]]:
    """(label, URL) of every page measured, on the largest repository (the worst case)."""
    from django.db import connection
    from django.db.models import Count

    from portal.findings import queries
    from portal.findings.models import Finding

    big = data["repositories"][0]
    open_main = Finding.objects.filter(branch="main", state="open")
    # deep pages: keyset cursors half-way through the team-wide list and through one filtered repository
    middle = open_main.order_by("-severity_rank", "-id")[open_main.count() // 2]
    high = open_main.filter(repository=big, severity="high").order_by("-severity_rank", "-id")
    high_middle = high[high.count() // 2]
    hot = (open_main.filter(repository=big).values("path").annotate(n=Count("id")).order_by("-n"))[5]
    finding = open_main.filter(repository=big, path=hot["path"]).order_by("line").first()
    newest = data["scans"][(big.pk, "main")][-1]
    with connection.cursor() as cursor:  # a warm cache, as a live server would have
        cursor.execute("SELECT count(*) FROM findings_finding")
    cursor_all = queries.cursor_of(middle, "severity")
    cursor_high = queries.cursor_of(high_middle, "severity")
    from urllib.parse import urlencode

    return [
        ("portfolio", "/"),
        ("repository dashboard", f"/repositories/{big.pk}/dashboard/"),
        ("repository page", f"/repositories/{big.pk}/"),
        ("repository list", "/repositories/"),
        ("findings: first page", "/findings/"),
        ("findings: deep page", "/findings/?" + urlencode({"after": cursor_all})),
        ("findings: repo+high, first", f"/findings/?repository={big.pk}&severity=high"),
        (
            "findings: repo+high, deep",
            f"/findings/?repository={big.pk}&severity=high&" + urlencode({"after": cursor_high}),
        ),
        ("findings: rule, team-wide", f"/findings/?rule={finding.rule}"),
        ("findings: path prefix", f"/findings/?repository={big.pk}&path=src/kernels/"),
        ("findings: sort by path", f"/findings/?repository={big.pk}&sort=path"),
        (f"file page ({hot['n']} open)", f"/repositories/{big.pk}/files/{hot['path']}"),
        (f"file page, {BIG_FILE_LINES:,} lines", f"/repositories/{big.pk}/files/{BIG_FILE_PATH}"),
        ("  its translation (htmx)", f"/repositories/{big.pk}/translation/{BIG_FILE_PATH}", {"HX-Request": "true"}),
        (
            "  a gap, 500 lines (htmx)",
            f"/repositories/{big.pk}/lines/{BIG_FILE_PATH}?start=5000&end=6000",
            {"HX-Request": "true"},
        ),
        ("finding page", f"/findings/{finding.pk}/"),
        ("scan page", f"/scans/{newest}/"),
        ("dashboard, older_than=30", f"/repositories/{big.pk}/dashboard/?older_than=30"),
        ("repository report", f"/progress/repositories/{big.pk}/report/"),
        (f"team report ({len(data['repositories'])} repos)", f"/progress/teams/{data['team'].pk}/report/"),
        ("digest settings", "/digests/"),
    ]


def measure(user, pages: list[tuple[str, str]], runs: int) -> tuple[list[tuple], int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(SERVER_NAME="localhost")  # an allowed host without the test environment's instrumentation
    client.force_login(user)
    rows, errors = [], 0
    for label, url, *headers in pages:
        times, status, queries, size = [], 0, 0, 0
        try:
            for i in range(runs + 2):  # two warm-up requests
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    response = client.get(url, headers=headers[0] if headers else None)
                    elapsed = time.perf_counter() - start
                status, queries, size = response.status_code, len(captured), len(response.content)
                if i >= 2:
                    times.append(elapsed * 1000)
        except Exception as exc:  # noqa: BLE001 - a page that crashes is reported, and the run fails
            print(f"ERROR {label} {url}: {exc!r}", file=sys.stderr)
            errors += 1
            rows.append((label, "error", math.nan, math.nan, 0, 0, ""))
            continue
        if status >= 400:
            errors += 1
        ordered = sorted(times)
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
        met = p95 < GOAL_MS and size <= GOAL_BYTES
        note = "placeholder redirect" if status in (301, 302) else ("ok" if met else "MISSED")
        rows.append((label, status, statistics.median(times), p95, queries, size, note))
    return rows, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=1_000_000)
    parser.add_argument("--repos", type=int, default=100)
    parser.add_argument("--scans", type=int, default=50)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reuse-db",
        action="store_true",
        help="measure on the database an earlier run left (ROCPORT_BENCH_DB, built with the same options) instead "
        "of dropping and loading it again: to compare code changes on the same data",
    )
    jsonout.add_argument(parser)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.reuse_db:
        attach()
        data = loaded()
        big_findings = data["big_findings"]
        print(f"reusing database {portal_db.DB}", flush=True)
    else:
        portal_db.setup()
        print(
            f"loading {args.findings} findings, {args.repos} repositories, {args.scans} scans each "
            f"(database {portal_db.DB})",
            flush=True,
        )
        data = load(args, random.Random(args.seed))
    print(
        f"{'attached' if args.reuse_db else 'loaded'} in {time.perf_counter() - started:.0f}s; largest repository: "
        f"{data['sizes'][0]} findings, {len(data['paths'][data['repositories'][0].pk])} files",
        flush=True,
    )
    if not args.reuse_db:
        big_findings = add_big_file(data, random.Random(args.seed))
    print(f"  a {BIG_FILE_LINES:,}-line file with {big_findings} open findings in the largest repository", flush=True)
    pages = targets(data)
    import portal.wsgi  # noqa: F401, E402 - what a gunicorn worker runs at start (its gc.freeze() among it)

    rows, errors = measure(data["user"], pages, args.runs)
    print(f"\n{args.runs} requests per page after 2 warm-ups; goal p95 < {GOAL_MS} ms and ≤ {GOAL_BYTES:,} bytes\n")
    print(f"{'page':<32} {'status':>6} {'median ms':>10} {'p95 ms':>8} {'queries':>8} {'bytes':>9}  goal")
    for label, status, median, p95, queries, size, note in rows:
        print(f"{label:<32} {status!s:>6} {median:>10.1f} {p95:>8.1f} {queries:>8} {size:>9,}  {note}")
    measured = [p95 for _label, _status, _median, p95, _queries, _size, _note in rows if not math.isnan(p95)]
    jsonout.write(
        args.json,
        {
            "findings": args.findings,
            "repositories": args.repos,
            "scans_per_repository": args.scans,
            "runs": args.runs,
            "goal_p95_ms": GOAL_MS,
            "goal_bytes": GOAL_BYTES,
            "errors": errors,
            "largest_repository": {
                "findings": data["sizes"][0],
                "files": len(data["paths"][data["repositories"][0].pk]),
            },
            "rollup_build_seconds": None if data["rollup_seconds"] is None else round(data["rollup_seconds"], 2),
            "max_p95_ms": max(measured) if measured else None,
            "max_bytes": max(row[5] for row in rows),
            "pages": [
                {
                    "page": label,
                    "status": status,
                    "median_ms": None if math.isnan(median) else round(median, 1),
                    "p95_ms": None if math.isnan(p95) else round(p95, 1),
                    "queries": queries,
                    "bytes": size,
                    "goal": note,
                }
                for label, status, median, p95, queries, size, note in rows
            ],
        },
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
