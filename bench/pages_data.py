"""The data bench/pages.py measures the pages on: 1,000,000 findings across 100 repositories with 50 scans each,
loaded with COPY into the benchmark's own PostgreSQL database, and a 10,000-line file in the largest repository.

The data is realistic in shape: repository sizes are skewed (the largest has ~10% of all findings), rules follow
the real catalogue (name, risk, severity) with a long tail, paths cluster in a few hot files, about 70% of findings
are open, 20% triaged (false positives, accepted risks, won't fix among them), 5% assigned to someone, 8% on a
second tracked branch; scans are a day apart over the last 50 days, so many open high findings were first seen
more than 30 days ago; one file in seven is one nobody has started on (open, untriaged findings only). About 10%
of the other files have a translation review (most approving the current version, some outdated or asking for
work), made before the rollups are built. Each branch's rollup (portal.reporting.rollups, with its migration ledger
and the default branch's progress figures and snapshot) is then built at its newest scan by the call ingestion
makes, as if every branch had just been scanned; the progress history is filled in behind today's snapshot, one per
repository and day over the last 8 weeks (the burn-down and the forecast read them). The file and finding pages
read real sources and translations (the demo's CUDA files scanned and translated by the scanner), shared by every
path as BlobResult rows.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from datetime import timedelta

from bench import portal_db
from bench.pages_big_file import BIG_FILE_PATH, DEMO

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
    "builds",
    "submodules",
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


def load(args, rng: random.Random) -> dict:
    """The team, its users and repositories (ORM), then scans, scanned files and findings (COPY)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from portal.accounts.models import Membership, Team
    from portal.digests.models import DigestSubscription
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
                        "{}",  # builds: read at plan time (no build model in generated data)
                        "[]",  # submodules
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
                    k = int(len(paths) * rng.random() ** 1.5)
                    open_ = rng.random() < 0.7 or first == len(history) - 1 or untouched(k)
                    fixed = None if open_ else rng.randrange(first + 1, len(history))
                    last = history[-1] if open_ else history[fixed - 1]
                    triage = "untriaged" if untouched(k) else weighted(rng, TRIAGE)
                    line = 1 + rng.randrange(60)
                    yield (
                        repo.pk,
                        branch,
                        paths[k],
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
                        users[rng.randrange(5)].pk if rng.random() < 0.05 and not untouched(k) else None,
                    )

        started = time.perf_counter()
        copy_rows(cursor, "findings_finding", FINDING_COLUMNS, findings())
        print(f"  {args.findings} findings: {time.perf_counter() - started:.1f}s", flush=True)
        started = time.perf_counter()
        # what autovacuum does to a live database: statistics, and the visibility map index-only scans need
        cursor.execute("VACUUM ANALYZE")
        print(f"  VACUUM ANALYZE: {time.perf_counter() - started:.1f}s", flush=True)
    reviews = add_reviews(repositories, paths_of, blobs, users, rng)
    started = time.perf_counter()
    build_rollups(scans)
    rollup_seconds = time.perf_counter() - started
    print(f"  rollups of {len(scans)} branches (with their migration ledger): {rollup_seconds:.1f}s", flush=True)
    snapshots = add_history(repositories, rng)
    DigestSubscription.objects.create(user=users[0], team=team, language="en")
    print(f"  {reviews} translation reviews, {snapshots} progress snapshots before today", flush=True)
    return {
        "team": team,
        "user": users[0],
        "repositories": repositories,
        "sizes": sizes,
        "paths": paths_of,
        "scans": scans,
        "rollup_seconds": rollup_seconds,
    }


def untouched(k: int) -> bool:
    """Whether a repository's k-th path is one of the files nobody has started on (about one in seven): its
    findings all open and untriaged, no review."""
    return k % 7 == 3


REVIEW_STATES = (("ok", 50), ("done", 20), ("needs_work", 20), ("not_reviewed", 10))
REVIEWED_SHARE = 0.10  # of each repository's files
HISTORY_DAYS = 56  # the forecast's window: 8 weeks


def add_reviews(repositories, paths_of: dict, blobs: list[str], users, rng: random.Random) -> int:
    """Translation reviews of about REVIEWED_SHARE of each repository's files, on the blob the newest scan has (a
    tenth of them on an older one: outdated), before the rollups are built so that the figures count them."""
    from portal.files.models import TranslationReview

    reviews = []
    for repo in repositories:
        for k, path in enumerate(paths_of[repo.pk]):
            if rng.random() >= REVIEWED_SHARE or untouched(k):
                continue
            blob = blobs[k % len(blobs)] if rng.random() < 0.9 else f"{rng.getrandbits(160):040x}"
            reviews.append(
                TranslationReview(
                    repository=repo,
                    path=path,
                    blob_sha=blob,
                    state=weighted(rng, REVIEW_STATES),
                    reviewer=users[rng.randrange(len(users))],
                )
            )
    TranslationReview.objects.bulk_create(reviews, batch_size=5000)
    return len(reviews)


def add_history(repositories, rng: random.Random) -> int:
    """A ProgressSnapshot per repository and day over the last HISTORY_DAYS days behind today's (which the
    rollups wrote): work done growing and work left shrinking towards today's figures, with some work discovered
    on the way and quiet days, as a team's history looks."""
    from django.db import connection
    from django.utils import timezone

    from portal.progress.models import ProgressSnapshot

    today = timezone.localdate()
    snapshots = []
    for now in ProgressSnapshot.objects.filter(repository__in=repositories, day=today):
        done, left = now.done, now.left
        files = [now.files_not_started, now.files_in_progress, now.files_done]
        for back in range(1, HISTORY_DAYS + 1):
            if rng.random() < 0.15:  # a quiet day: nothing moved, no snapshot (the history carries it forward)
                continue
            share = back / (HISTORY_DAYS + 7)  # how much of today's done was still to do then
            moved = now.done * share
            snapshots.append(
                ProgressSnapshot(
                    repository_id=now.repository_id,
                    day=today - timedelta(days=back),
                    done=max(0.0, done - moved),
                    left=left + moved * rng.uniform(0.7, 0.9),  # some of today's scope was discovered since
                    descoped=now.descoped * (1 - share),
                    baseline=now.baseline,
                    files_not_started=files[0] + int(files[1] * share),
                    files_in_progress=files[1] - int(files[1] * share) + int(files[2] * share),
                    files_done=files[2] - int(files[2] * share),
                )
            )
    ProgressSnapshot.objects.bulk_create(snapshots, batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE progress_progresssnapshot")
        cursor.execute("VACUUM ANALYZE files_translationreview")
    return len(snapshots)


def build_rollups(scans: dict[tuple[int, str], list[int]]) -> None:
    """Each branch's rollup at its newest scan, by the call tracking.ingest makes at the end of an ingestion
    (in a transaction of its own, as ingestion's is)."""
    from django.db import connection, transaction

    from portal.reporting import rollups
    from portal.scans.models import Scan

    newest = Scan.objects.in_bulk([history[-1] for history in scans.values()])
    for scan in newest.values():
        with transaction.atomic():
            rollups.refresh_after_ingest(scan)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE findings_branchrollup")


def attach() -> None:
    """Django on the benchmark database an earlier run left (portal_db.DB), migrated, without dropping it."""
    import os
    import sys
    import tempfile

    import django
    from django.core.management import call_command

    sys.path.insert(0, str(portal_db.ROOT))
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{portal_db.DB}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "portal.settings"
    os.environ["CELERY_BROKER_URL"] = portal_db.BROKER
    os.environ.setdefault("ROCPORT_VAR_DIR", tempfile.mkdtemp(prefix="rocport-bench-var-"))
    os.environ["ROCPORT_ALLOW_LOCAL_REPOS"] = "1"
    os.environ.setdefault("ROCPORT_COMPILE_CHECK", "off")
    django.setup()
    call_command("migrate", verbosity=0)


def loaded() -> dict:
    """What `load` (and `add_big_file`) returned, read back from the database they filled."""
    from django.contrib.auth import get_user_model
    from django.db.models import Count

    from portal.accounts.models import Team
    from portal.findings.models import Finding
    from portal.repositories.models import Repository
    from portal.scans.models import Scan, ScannedFile

    team = Team.objects.get(slug="bench")
    repositories = list(Repository.objects.filter(team=team).order_by("name"))
    scans: dict[tuple[int, str], list[int]] = {}
    for pk, repo_id, branch in Scan.objects.order_by("created", "id").values_list("id", "repository_id", "branch"):
        scans.setdefault((repo_id, branch), []).append(pk)
    counts = dict(Finding.objects.values_list("repository_id").annotate(n=Count("id")).order_by())
    paths = {
        repo.pk: list(
            ScannedFile.objects.filter(scan_id=scans[(repo.pk, "main")][0])
            .order_by("id")
            .values_list("path", flat=True)
        )
        for repo in repositories[:1]
    }
    big = repositories[0]
    return {
        "team": team,
        "user": get_user_model().objects.get(username="user0"),
        "repositories": repositories,
        "sizes": [counts.get(repo.pk, 0) for repo in repositories],
        "paths": paths,
        "scans": scans,
        "rollup_seconds": None,
        "big_findings": Finding.objects.filter(repository=big, path=BIG_FILE_PATH).count(),
    }
