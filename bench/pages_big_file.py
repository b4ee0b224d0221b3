"""The 10,000-line file of bench/pages.py's data (bench/pages_data.py builds the rest): real CUDA from the demo,
scanned and translated by the scanner, in the largest repository's newest main scan with 300 open findings."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from bench import portal_db

BIG_FILE_LINES = 10_000
BIG_FILE_PATH = "train/big_train.cu"
DEMO = portal_db.ROOT / "demo" / "cuda-demo"


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

    from django.db import transaction

    from portal.findings.models import SEVERITY_RANK, Finding
    from portal.reporting import rollups
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
    stats = dict(payload["stats"])  # as ingestion stores them (portal.scans.pipeline.ingestion.record)
    stats["translation"] = {k: translation["stats"][k] for k in ("converted", "unconverted", "changed_lines")}
    ScannedFile.objects.create(
        scan=newest,
        path=BIG_FILE_PATH,
        blob_sha=sha,
        language="cuda",
        parse_mode=payload["parse"]["mode"],
        stats=stats,
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
    # the scan that brought the file rebuilt its branch's rollup, ledger and progress figures (tracking.ingest)
    with transaction.atomic():
        rollups.refresh_after_ingest(newest)
    return len(findings)
