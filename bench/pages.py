"""Server time and SQL queries of the portal's pages at scale: 1,000,000 findings across 100 repositories with 50
scans each, loaded with COPY into a dedicated PostgreSQL database, then each page requested in-process with
Django's test Client.

    python bench/pages.py [--findings 1000000] [--repos 100] [--scans 50] [--runs 20] [--json FILE]

Prints, per page, the HTTP status, the median and p95 server time (time.perf_counter around client.get) and the
number of SQL queries (CaptureQueriesContext), against the goal p95 < 200 ms; `--json FILE` also writes them as
one JSON object (bench/run_all.py). Exits non-zero only on errors
(an exception, a 4xx/5xx answer), never on a missed goal. The data is realistic in shape: repository sizes are
skewed (the largest has ~10% of all findings), rules follow the real catalogue (name, risk, severity) with a
long tail, paths cluster in a few hot files, 70% of findings are open, 20% are triaged, 8% live on a second
tracked branch. Each branch's rollup (portal.findings.rollups) is then built at its newest scan by the call
ingestion makes, as if every branch had just been scanned. The file and finding pages read real sources and translations (the demo's CUDA files scanned
and translated by the scanner), shared by every path as BlobResult rows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# its own database, so that it never drops the one another benchmark is using
os.environ.setdefault("ROCPORT_BENCH_DB", "rocport_bench_pages")
from bench import jsonout, portal_db  # noqa: E402

GOAL_MS = 200
# What a page may weigh at first paint (issue: a 10,000-line file's page was 2.2 MB); fragments loaded later count
# on their own.
GOAL_BYTES = 300_000
BIG_FILE_LINES = 10_000
BIG_FILE_PATH = "train/big_train.cu"
DEMO = portal_db.ROOT / "demo" / "cuda-demo"
TOPS = ("src", "src/kernels", "lib/blas", "lib/sparse", "third_party/cub", "tests", "include", "tools")
EXTS = ((".cu", 60), (".cuh", 20), (".cpp", 10), (".h", 10))
TRIAGE = (("untriaged", 80), ("confirmed", 10), ("false_positive", 5), ("accepted_risk", 3), ("wont_fix", 2))
SEVERITY_RANK = {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}
FINDING_COLUMNS = (
    "repository_id",
    "branch",
    "path",
    "rule",
    "fingerprint",
    "occurrence",
    "name",
    "risk",
    "severity",
    "severity_rank",
    "line",
    "column",
    "end_line",
    "end_column",
    "message",
    "snippet",
    "suppressed",
    "state",
    "first_seen_id",
    "last_seen_id",
    "fixed_in_id",
    "triage",
    "triage_reason",
    "assignee_id",
)
SCAN_COLUMNS = (
    "repository_id",
    "branch",
    "ref",
    "commit_sha",
    "trigger",
    "status",
    "error_code",
    "error_message",
    "attempts",
    "files_total",
    "files_done",
    "files_reused",
    "summary",
    "created",
    "started",
    "finished",
    "heartbeat",
)
FILE_COLUMNS = ("scan_id", "path", "blob_sha", "language", "parse_mode", "error", "stats", "reused")


def weighted(rng: random.Random, pairs) -> str:
    values, weights = zip(*pairs)
    return rng.choices(values, weights)[0]


def repository_sizes(total: int, repos: int) -> list[int]:
    """Skewed sizes (weight 1/rank^0.7) summing to `total`."""
    weights = [1 / (k + 1) ** 0.7 for k in range(repos)]
    sizes = [int(total * w / sum(weights)) for w in weights]
    sizes[0] += total - sum(sizes)
    return sizes


def copy_rows(cursor, table: str, columns, rows) -> None:
    quoted = ", ".join(f'"{c}"' for c in columns)
    with cursor.copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def demo_blobs() -> list[str]:
    """BlobResult rows for the demo's CUDA files, scanned and translated by the scanner as the pipeline does;
    returns their blob shas."""
    from portal.scans.models import BlobResult
    from scanner import ScanOptions, scan

    shas = []
    for result in scan(DEMO, ScanOptions(jobs=1, translate=True, translate_backend="builtin")):
        if not result.path.endswith((".cu", ".cuh")) or result.error:
            continue
        data = result.to_dict()
        translation = data.pop("translation", None) or {}
        translated = translation.pop("text", "")
        source = (DEMO / result.path).read_text()
        sha = hashlib.sha1(source.encode()).hexdigest()
        data["path"] = ""
        BlobResult.objects.create(
            blob_sha=sha, cache_key="bench", result=data, translation=translation, source=source, translated=translated
        )
        shas.append(sha)
    return shas


def big_file_source() -> str:
    """BIG_FILE_LINES lines of real CUDA: the demo's kernels one after another, renamed apart, with long lines as
    training code has them (a table of constants)."""
    parts = sorted((DEMO / "src").glob("*.cu"))
    lines: list[str] = []
    round_ = 0
    while len(lines) < BIG_FILE_LINES:
        for part in parts:
            text = part.read_text().replace("__global__ void ", f"__global__ void r{round_}_")
            lines += text.splitlines()
        lines.append(f"static const float table_{round_}[] = {{{', '.join(f'{k}.5f' for k in range(300))}}};")
        round_ += 1
    return "\n".join(lines[:BIG_FILE_LINES]) + "\n"


def add_big_file(data: dict, rng: random.Random) -> int:
    """A 10,000-line file in the largest repository's newest main scan, scanned and translated by the scanner,
    with 300 open findings along it; returns its number of findings."""
    import tempfile

    from portal.findings.models import Finding
    from portal.scans.models import BlobResult, Scan, ScannedFile
    from scanner import ScanOptions, scan

    source = big_file_source()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "big_train.cu").write_text(source)
        [result] = list(scan(Path(tmp), ScanOptions(jobs=1, translate=True, translate_backend="builtin")))
    payload = result.to_dict()
    translation = payload.pop("translation", None) or {}
    translated = translation.pop("text", "")
    sha = hashlib.sha1(source.encode()).hexdigest()
    BlobResult.objects.create(
        blob_sha=sha, cache_key="bench", result=payload, translation=translation, source=source, translated=translated
    )
    big = data["repositories"][0]
    newest = Scan.objects.get(pk=data["scans"][(big.pk, "main")][-1])
    ScannedFile.objects.create(
        scan=newest, path=BIG_FILE_PATH, blob_sha=sha, language="cuda", parse_mode=payload["parse"]["mode"]
    )
    findings = [
        Finding(
            repository=big,
            branch="main",
            path=BIG_FILE_PATH,
            rule="ROC101",
            fingerprint=f"big{n:029d}",
            name="warp-size-lane-arithmetic",
            risk="silent-wrong-result",
            severity="high",
            severity_rank=SEVERITY_RANK["high"],
            line=1 + rng.randrange(BIG_FILE_LINES),
            message="assumes 32 lanes (generated)",
            first_seen=newest,
            last_seen=newest,
        )
        for n in range(300)
    ]
    Finding.objects.bulk_create(findings)
    return len(findings)


def load(args, rng: random.Random) -> dict:
    """The team, its users and repositories (ORM), then scans, scanned files and findings (COPY)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from portal.accounts.models import Membership, Team
    from portal.repositories.models import Repository
    from portal.scans.models import Scan
    from scanner.rules import catalogue

    team = Team.objects.create(name="Bench team", slug="bench")
    users = [get_user_model().objects.create_user(f"user{i}", password="bench-password") for i in range(5)]
    for i, user in enumerate(users):
        Membership.objects.create(user=user, team=team, role="manager" if i == 0 else "engineer")
    repositories = Repository.objects.bulk_create(
        Repository(
            team=team, name=f"repo-{i:03d}", clone_url=f"https://example.com/r{i}.git", tracked_branches=["develop"]
        )
        for i in range(args.repos)
    )
    rules = list(catalogue().values())
    rng.shuffle(rules)
    rule_weights = [1 / (k + 1) for k in range(len(rules))]  # a few rules dominate, a long tail
    blobs = demo_blobs()
    now = timezone.now()
    started = time.perf_counter()
    with connection.cursor() as cursor:
        scan_rows = []
        for repo in repositories:
            for s in range(args.scans):
                created = now - timedelta(days=args.scans - s, minutes=rng.randrange(600))
                branch = "develop" if s % 10 == 9 else "main"
                summary = {"tracking": {"new": rng.randrange(40), "fixed": rng.randrange(20), "reopened": 0}}
                scan_rows.append(
                    (
                        repo.pk,
                        branch,
                        f"refs/heads/{branch}",
                        f"{rng.getrandbits(160):040x}",
                        "push",
                        "finished",
                        "",
                        "",
                        1,
                        0,
                        0,
                        0,
                        json.dumps(summary),
                        created,
                        created,
                        created + timedelta(minutes=3),
                        created + timedelta(minutes=3),
                    )
                )
        copy_rows(cursor, "scans_scan", SCAN_COLUMNS, scan_rows)
        scans: dict[tuple[int, str], list[int]] = {}
        for pk, repo_id, branch in Scan.objects.order_by("created", "id").values_list("id", "repository_id", "branch"):
            scans.setdefault((repo_id, branch), []).append(pk)
        print(f"  {len(scan_rows)} scans: {time.perf_counter() - started:.1f}s", flush=True)

        sizes = repository_sizes(args.findings, args.repos)
        paths_of = {}
        for repo, size in zip(repositories, sizes):
            count = max(20, size // 25)
            paths_of[repo.pk] = [f"{TOPS[k % len(TOPS)]}/m{k // 40}/f{k}{weighted(rng, EXTS)}" for k in range(count)]
        stats = json.dumps({"code_lines": 120, "translation": {"converted": 12, "unconverted": 1, "changed_lines": 9}})

        def files():
            for repo in repositories:
                for branch in ("main", "develop"):
                    for scan_id in scans.get((repo.pk, branch), ()):
                        for k, path in enumerate(paths_of[repo.pk]):
                            yield (scan_id, path, blobs[k % len(blobs)], "cuda", "ast", "", stats, True)

        started = time.perf_counter()
        copy_rows(cursor, "scans_scannedfile", FILE_COLUMNS, files())
        print(
            f"  {sum(len(p) for p in paths_of.values()) * args.scans} scanned files (every path in every scan): "
            f"{time.perf_counter() - started:.1f}s",
            flush=True,
        )

        def findings():
            serial = 0
            for repo, size in zip(repositories, sizes):
                paths = paths_of[repo.pk]
                for _ in range(size):
                    serial += 1
                    rule = rng.choices(rules, rule_weights)[0]
                    severity, risk = rule.severity.value, rule.risk.value
                    branch = "develop" if rng.random() < 0.08 and (repo.pk, "develop") in scans else "main"
                    history = scans[(repo.pk, branch)]
                    first = int(len(history) * rng.random() ** 1.5)
                    open_ = rng.random() < 0.7 or first == len(history) - 1
                    fixed = None if open_ else rng.randrange(first + 1, len(history))
                    last = history[-1] if open_ else history[fixed - 1]
                    triage = weighted(rng, TRIAGE)
                    line = 1 + rng.randrange(60)
                    yield (
                        repo.pk,
                        branch,
                        paths[int(len(paths) * rng.random() ** 1.5)],
                        rule.code,
                        f"{serial:032x}",
                        0,
                        rule.name,
                        risk,
                        severity,
                        SEVERITY_RANK.get(severity, 0),
                        line,
                        1 + rng.randrange(40),
                        line,
                        50,
                        f"{rule.summary or rule.name} (generated)",
                        "x[threadIdx.x % 32] = 0;",
                        False,
                        "open" if open_ else "fixed",
                        history[first],
                        last,
                        None if open_ else history[fixed],
                        triage,
                        "" if triage == "untriaged" else "bench",
                        users[rng.randrange(5)].pk if rng.random() < 0.05 else None,
                    )

        started = time.perf_counter()
        copy_rows(cursor, "findings_finding", FINDING_COLUMNS, findings())
        print(f"  {args.findings} findings: {time.perf_counter() - started:.1f}s", flush=True)
        started = time.perf_counter()
        # what autovacuum does to a live database: statistics, and the visibility map index-only scans need
        cursor.execute("VACUUM ANALYZE")
        print(f"  VACUUM ANALYZE: {time.perf_counter() - started:.1f}s", flush=True)
    started = time.perf_counter()
    build_rollups(scans)
    print(f"  rollups of {len(scans)} branches: {time.perf_counter() - started:.1f}s", flush=True)
    return {
        "team": team,
        "user": users[0],
        "repositories": repositories,
        "sizes": sizes,
        "paths": paths_of,
        "scans": scans,
        "rollup_seconds": time.perf_counter() - started,
    }


def build_rollups(scans: dict[tuple[int, str], list[int]]) -> None:
    """Each branch's rollup at its newest scan, by the call tracking.ingest makes at the end of an ingestion
    (in a transaction of its own, as ingestion's is)."""
    from django.db import connection, transaction

    from portal.findings import rollups
    from portal.scans.models import Scan

    newest = Scan.objects.in_bulk([history[-1] for history in scans.values()])
    for scan in newest.values():
        with transaction.atomic():
            rollups.refresh_after_ingest(scan)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE findings_branchrollup")


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
    jsonout.add_argument(parser)
    args = parser.parse_args()
    started = time.perf_counter()
    portal_db.setup()
    print(
        f"loading {args.findings} findings, {args.repos} repositories, {args.scans} scans each "
        f"(database {portal_db.DB})",
        flush=True,
    )
    data = load(args, random.Random(args.seed))
    print(
        f"loaded in {time.perf_counter() - started:.0f}s; largest repository: {data['sizes'][0]} findings, "
        f"{len(data['paths'][data['repositories'][0].pk])} files",
        flush=True,
    )
    big_findings = add_big_file(data, random.Random(args.seed))
    print(f"  a {BIG_FILE_LINES:,}-line file with {big_findings} open findings in the largest repository", flush=True)
    rows, errors = measure(data["user"], targets(data), args.runs)
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
            "rollup_build_seconds": round(data["rollup_seconds"], 2),
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
