"""Webhook intake throughput: N signed GitHub deliveries from a second process over loopback against gunicorn,
compared with a trivial 200 view (/healthz) served by the same gunicorn. Counts the stored deliveries.

    python bench/webhooks.py [--requests 2000] [--concurrency 8] [--workers 2] [--json FILE]

Each delivery names a branch the repository does not track, so it is verified, parsed and stored, and no scan
is started: what is measured is the intake path, not the scanner.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import jsonout, portal_db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLIENT = r"""
import hashlib, hmac, json, sys, time, urllib.request, urllib.error
from concurrent.futures import ThreadPoolExecutor
url, secret, n, concurrency, kind = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def one(i):
    if kind == "healthz":
        req = urllib.request.Request(url)
    else:
        body = json.dumps({"ref": "refs/heads/untracked", "before": "0" * 40, "after": f"{i:040x}",
                           "commits": [], "repository": {"full_name": "bench/bench"}}).encode()
        sig = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
        req = urllib.request.Request(url, data=body, method="POST", headers={
            "Content-Type": "application/json", "X-GitHub-Event": "push", "X-GitHub-Delivery": f"bench-{i}",
            "X-Hub-Signature-256": sig})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            r.read(); status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    return status, time.perf_counter() - start
start = time.perf_counter()
with ThreadPoolExecutor(concurrency) as pool:
    results = list(pool.map(one, range(n)))
elapsed = time.perf_counter() - start
print(json.dumps({"elapsed": elapsed, "latencies": [r[1] for r in results], "statuses": [r[0] for r in results]}))
"""


def measure(url: str, secret: str, n: int, concurrency: int, kind: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CLIENT, url, secret, str(n), str(concurrency), kind],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    latencies = sorted(data["latencies"])
    ok = sum(1 for s in data["statuses"] if 200 <= s < 300)
    return {
        "per_second": n / data["elapsed"],
        "p50": latencies[len(latencies) // 2] * 1000,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "ok": ok,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    jsonout.add_argument(parser)
    args = parser.parse_args()
    portal_db.setup()
    from portal.accounts.models import Team
    from portal.repositories.models import Repository
    from portal.webhooks.models import WebhookDelivery

    team = Team.objects.create(name="bench", slug="bench")
    repo = Repository.objects.create(team=team, name="bench", clone_url="https://example.com/bench.git")
    port = 18000 + os.getpid() % 1000
    env = dict(os.environ)  # with the benchmarks' own broker (portal_db.setup)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "portal.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        time.sleep(2)
        base = f"http://127.0.0.1:{port}"
        measure(f"{base}/healthz", "", 50, 4, "healthz")  # warm up
        trivial = measure(f"{base}/healthz", "", args.requests, args.concurrency, "healthz")
        hooks = measure(
            f"{base}/hooks/{repo.pk}/github/", repo.webhook_secret, args.requests, args.concurrency, "webhook"
        )
        stored = WebhookDelivery.objects.filter(repository=repo).count()
        print(
            f"trivial 200 view: {trivial['per_second']:,.0f} req/s, p50 {trivial['p50']:.1f} ms, "
            f"p99 {trivial['p99']:.1f} ms"
        )
        print(
            f"signed deliveries: {hooks['per_second']:,.0f} accepted/s, p50 {hooks['p50']:.1f} ms, "
            f"p99 {hooks['p99']:.1f} ms; {hooks['ok']}/{args.requests} answered 2xx, {stored} stored; "
            f"throughput ratio to the trivial view {hooks['per_second'] / trivial['per_second']:.2f}"
        )
        jsonout.write(
            args.json,
            {
                "requests": args.requests,
                "concurrency": args.concurrency,
                "gunicorn_workers": args.workers,
                "accepted_per_second": hooks["per_second"],
                "p50_ms": hooks["p50"],
                "p99_ms": hooks["p99"],
                "answered_2xx": hooks["ok"],
                "stored": stored,
                "trivial_per_second": trivial["per_second"],
                "trivial_p50_ms": trivial["p50"],
                "trivial_p99_ms": trivial["p99"],
            },
        )
        if stored != args.requests:
            print("LOST DELIVERIES", file=sys.stderr)
            return 1
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
