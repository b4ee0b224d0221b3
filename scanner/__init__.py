"""ROCport's scanner: finds what breaks when CUDA code moves to ROCm/HIP. Pure Python, no Django or Celery.

from scanner import scan, ScanOptions
for result in scan("path/to/checkout", ScanOptions(jobs=2)):
    print(result.path, result.health.mode, len(result.findings))
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from scanner import build, config, discovery, port, port_builds, submodules
from scanner.config import ConfigError, ScanOptions
from scanner.model import FileResult, FileStats, Finding, ParseHealth, ParseMode, Risk, Severity
from scanner.parsing import compile_db, includers

__all__ = [
    "scan",
    "plan",
    "ScanOptions",
    "ConfigError",
    "FileResult",
    "FileStats",
    "Finding",
    "ParseHealth",
    "ParseMode",
    "Risk",
    "Severity",
]


def plan(root: str | Path, options: ScanOptions | None = None, read_config: bool = True):
    """The resolved options and the list of file jobs for `root`, without analysing anything."""
    # inside: scanner.engine loads libclang; `import scanner` (run by every scanner.x import) stays without it
    from scanner.engine import FileJob

    root = Path(root).resolve()
    if not root.is_dir():
        raise ConfigError(f"not a directory: {root}")
    options = config.load(root, options) if read_config else (options or ScanOptions())
    options = options.merged(
        include_dirs=tuple(d if d.startswith("/") else str(root / d) for d in options.include_dirs)
    )
    flags: dict[str, tuple[str, ...]] = {}
    if options.compile_commands:
        try:
            flags = compile_db.load(root / options.compile_commands)
        except compile_db.CompileDbError as exc:
            raise ConfigError(f"parse.compile_commands: {exc}") from None
    candidates = discovery.discover(root, config.DEFAULT_EXCLUDE + options.exclude)
    options, candidates, vendored = _split_submodules(root, options, candidates)
    hip_files = port_builds.hip_sources(str(root))  # not scanned, but a build may compile them
    model = build.read(str(root), [c.rel for c in candidates] + vendored + hip_files)
    included_from = includers.index(str(root), [c.rel for c in candidates if c.language in ("cuda", "c++")])
    outer_includers = includers.chains(included_from)
    jobs = []
    for c in candidates:
        cxx = c.language in ("cuda", "c++", "c")
        file_build = model.of(c.rel) if cxx else None
        jobs.append(
            FileJob(
                str(c.path),
                c.rel,
                c.language,
                c.problem,
                flags.get(str(c.path.resolve()), ()) or (build.parse_flags(str(root), file_build) if cxx else ()),
                build=file_build,
                build_lines=tuple(sorted(model.platform_lines.get(c.rel, {}).items())),
                includers=included_from.get(c.rel, ()),
                outer_includers=outer_includers.get(c.rel, ()),
            )
        )
    options = options.merged(port=port.learn(str(root), jobs, model, options.hip_builds, hip_files))
    if options.compile_check:  # which translation unit checks each file (scanner.compile.graph)
        # inside: scanner.compile loads only when the compile check is on
        from scanner import compile as compile_check

        jobs = compile_check.attach(root, options, jobs)
    return options, jobs


def _split_submodules(root: Path, options: ScanOptions, candidates: list):
    """With `[scan] submodules = "read"` (the default), the files of the checked-out submodules leave the scan:
    their headers stay on disk for the parse (include resolution finds them in the tree) and their C/C++/CUDA files
    join the build model's file list (returned third), but they get no result and no finding. The submodules
    `.gitmodules` lists that are not checked out are added to `submodules_missing` (the CLI's case; the portal
    names the ones it could not fetch itself)."""
    listed = submodules.read(root)
    if not listed:
        return options, candidates, []
    known = {path for path, _ in options.submodules_missing}
    missing = list(options.submodules_missing)
    present = []
    for entry in listed:
        if entry.problem:
            if entry.path not in known and entry.path:
                missing.append((entry.path, entry.problem))
        elif submodules.checked_out(root, entry):
            present.append(entry.path)
        elif entry.path not in known:
            missing.append((entry.path, "not checked out (git submodule update --init)"))
    options = options.merged(submodules_missing=tuple(missing))
    if options.submodules != "read" or not present:
        return options, candidates, []
    paths = tuple(present)
    kept = [c for c in candidates if not submodules.under(c.rel, paths)]
    vendored = [c.rel for c in candidates if submodules.under(c.rel, paths) and c.language in discovery.CXX_LANGUAGES]
    return options, kept, vendored


def scan(root: str | Path, options: ScanOptions | None = None, read_config: bool = True) -> Iterator[FileResult]:
    """Stream one FileResult per candidate file of `root`, in path order, then the repository-level result
    (path ".", scanner.repository) when the repository has a finding of its own."""
    # inside: scanner.repository loads libclang (suppressions); `import scanner` stays without it
    from scanner import repository

    # inside: scanner.pool loads libclang (the engine); `import scanner` stays without it
    from scanner.pool import WorkerPool

    options, jobs = plan(root, options, read_config)
    yield from WorkerPool(options, options.jobs).run(jobs)
    extra = repository.finalize(Path(root).resolve(), options, jobs)
    if extra is not None:
        yield extra
