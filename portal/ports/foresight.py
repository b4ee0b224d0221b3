"""What the scan of the merged commit will still find in the files a port rewrites in place: the scanner run on
the port branch's own tree, before the push, on those files only.

The story (portal.ports.story) counts a finding on a line the translation rewrites as resolved unless its rule
still fires on the line that line became: then the scan of the merged commit carries it there
(portal.scans.pipeline.ported) and it stays open, left for a person. The run is the scanner's own, with the
repository's HIP-build decision and configuration as its scans take them, so what it reports is what that scan
will report; it never fails a port: anything that stops it returns None and the story says it could not look.

Imports the scanner and the repository's decision only; portal.ports.tasks calls `still_found` from push_port's
`before_push`, on the tree portal.ports.compiling extracted.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings

from portal.repositories import hip_builds
from scanner import ConfigError, ScanOptions, plan

log = logging.getLogger(__name__)

MAX_FILES = 200  # files scanned per port, as many as the compile check compiles


def still_found(repository, root: Path, paths: list[str]) -> dict[str, set[tuple[str, int]]] | None:
    """(rule, line) of each finding the scanner reports in each of `paths` (repository-relative) on the branch
    checked out at `root`; None when the run could not be made."""
    if not paths or len(paths) > MAX_FILES:
        return None
    # inside: scanner.pool loads libclang; the portal's web processes never run this
    from scanner.pool import WorkerPool

    try:
        options, jobs = plan(
            root,
            ScanOptions(
                jobs=1,
                translate=False,
                compile_check=False,
                hipcc=settings.ROCPORT_HIPCC,
                hip_builds=hip_builds.requested(repository),
            ),
        )
        wanted = set(paths)
        found: dict[str, set[tuple[str, int]]] = {path: set() for path in paths}
        for result in WorkerPool(options, 1).run([job for job in jobs if job.rel in wanted]):
            found[result.path] = {(f.rule, f.line) for f in result.findings}
        return found
    except (ConfigError, OSError, RuntimeError) as error:
        log.warning("could not scan the port branch's files: %s", type(error).__name__)
        return None
