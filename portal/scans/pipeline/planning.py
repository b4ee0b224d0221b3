"""The scanner's plan of a checkout as the portal keeps it: the options and file jobs, the enabled rules, and per
file the blob cache key (everything that changes a file's result except its content), and which files the blob
cache already holds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings

from portal.repositories.submodules import missing as missing_submodules
from portal.scans.models import BlobResult
from portal.scans.pipeline.errors import ScanUserError
from scanner import ConfigError, ScanOptions, plan
from scanner import compile as compile_check
from scanner.parsing import includers
from scanner.rules import select
from scanner.version import TOOL_VERSION


def plan_files(
    root: Path,
    blobs: dict[str, str],
    memo: dict,
    hip_builds: tuple[str, ...] | None = None,
    submodule_outcomes: list[dict] = (),
):
    """The scanner's plan of a checkout: (options, jobs, enabled rules, cache key per path). Computed once per
    checkout, settings and HIP-build decision (`memo` lives as long as the kept checkout): the planner and every
    shard on this process share it. `hip_builds`: the repository's decision (portal.repositories.hip_builds), the
    same for the planner and the shards of a scan. `submodule_outcomes`: the checkout's (Checkout.submodules):
    the ones not fetched are named in parse reasons, and every outcome is part of each file's cache key."""
    missing = missing_submodules(list(submodule_outcomes))
    wanted = (settings.ROCPORT_SCAN_JOBS, settings.ROCPORT_COMPILE_CHECK, settings.ROCPORT_HIPCC, hip_builds, missing)
    if memo.get("settings") != wanted:
        try:
            options, jobs = plan(
                root,
                ScanOptions(
                    jobs=settings.ROCPORT_SCAN_JOBS,
                    translate=True,
                    translate_backend="builtin",
                    compile_check=settings.ROCPORT_COMPILE_CHECK == "auto",
                    hipcc=settings.ROCPORT_HIPCC,
                    hip_builds=hip_builds,
                    submodules_missing=missing,
                ),
            )
        except ConfigError as exc:
            raise ScanUserError("bad_config", str(exc)) from None
        enabled = select(list(options.enable), list(options.disable))
        compiled = _compile_keys(options, jobs, blobs)
        pinned = sorted([o["path"], o["commit"], o["fetched"]] for o in submodule_outcomes)
        keys = {
            job.rel: cache_key(
                options,
                enabled,
                job.rel,
                job.language,
                compiled.get(job.rel, ""),
                root,
                build_key=_build_key(job),
                submodules=pinned,
            )
            for job in jobs
        }
        memo.update(settings=wanted, plan=(options, jobs, enabled, keys))
    return memo["plan"]


def cached_paths(jobs, blobs: dict[str, str], keys: dict[str, str]) -> set[str]:
    """The paths whose (blob, cache key) is in the blob cache (their pairs only: the results are read once, by the
    ingestion)."""
    wanted: dict[tuple[str, str], list[str]] = {}
    for job in jobs:
        if job.rel in blobs:
            wanted.setdefault((blobs[job.rel], keys[job.rel]), []).append(job.rel)
    found: set[str] = set()
    shas = sorted({sha for sha, _ in wanted})
    for start in range(0, len(shas), 5000):
        for pair in BlobResult.objects.filter(blob_sha__in=shas[start : start + 5000]).values_list(
            "blob_sha", "cache_key"
        ):
            found.update(wanted.get(pair, ()))
    return found


def _compile_keys(options, jobs, blobs: dict[str, str]) -> dict[str, str]:
    """Per file, what its compile check depends on besides its blob (scanner.compile.key_material): the compiler,
    its version, target and flags, and the blobs of the files its translation unit includes."""
    if not options.compile_check:
        return {}
    description = compile_check.describe(options)
    return {job.rel: compile_check.key_material(description, job, blobs.get) for job in jobs}


def _build_key(job) -> dict:
    """What the build model says of a file (scanner.build): its flags and verdict change its findings."""
    return {
        "file": job.build.key() if job.build is not None else None,
        "platform_lines": [list(item) for item in job.build_lines],
        # a header fragment may be read after its includer's lines: their text is part of what it is read with
        **({"includers": includers.key(job)} if job.includers else {}),
    }


def cache_key(
    options,
    enabled,
    rel: str,
    language: str = "",
    compile_key: str = "",
    root: Path | None = None,
    build_key: dict | None = None,
    submodules: list | None = None,
) -> str:
    """Scanner version + everything that changes a file's result, except the file's content (the blob);
    `compile_key`: with the compile check on, what it depends on (`_compile_keys`). Include directories inside
    the checkout count relative to it (`root`): each scan clones into another temporary directory."""
    suffix = Path(rel).suffix.lower()
    material = {
        "scanner": TOOL_VERSION,
        "rules": sorted(rule.code for rule in enabled),
        "target": options.target.to_dict(),
        "defines": list(options.defines),
        "include_dirs": [_relative(str(d), root) for d in options.include_dirs],
        "suffix": suffix,
        # A Dockerfile and a Makefile share the empty suffix; the language discovery gave decides the rules.
        "language": language,
        "max_file_bytes": options.max_file_bytes,
        "port": options.port.key(),  # the repository's own ROCm path changes what a finding says
        **({"compile": compile_key} if compile_key else {}),
        **({"build": build_key} if build_key else {}),
        # The submodules' pinned commits and which were fetched, with the reasons the parse names and the setting
        # (a submodule bump changes the headers a file is parsed with, not its blob).
        **(
            {"submodules": [submodules, [list(m) for m in options.submodules_missing], options.submodules]}
            if submodules or options.submodules_missing
            else {}
        ),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _relative(directory: str, root: Path | None) -> str:
    base = str(root).rstrip("/") + "/" if root else ""
    return "./" + directory[len(base) :] if base and directory.startswith(base) else directory
