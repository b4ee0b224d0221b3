"""Named fault points: the places where tests may break a scan on purpose, and nothing else.

Production code calls `reached("pool.file", path=...)` at a point; with no hook registered (always, outside the
tests) that is a no-op. A test installs a hook in the process it wants to break (through a `sitecustomize` on that
process's PYTHONPATH, see tests/faults/points.py) and the hook decides, from the point's name and details, whether
to raise, crash, hang or SIGKILL its own process there. Nothing here reads the environment, and this module imports
nothing, so the scanner's worker processes and the portal's Celery tasks can both call it.

The points (name: details, where):
- `pool.file`: path (the file's `rel`); a scanner worker process, before it analyses the file;
- `pipeline.clone`: scan, attempt; the planning task, the scan just moved to CLONING, before the clone;
- `pipeline.plan`: scan, attempt; the planning task, the files planned, before the plan and shards are stored;
- `shard.start`: scan, shard, attempt, paths; a shard's task, its claim taken, before its checkout;
- `shard.file`: scan, shard, path; a shard's task, a file's result received, before it is stored;
- `shard.stored`: scan, shard, files; a shard's task, right after a batch of results committed;
- `shard.finish`: scan, shard; a shard's task, every result stored, before the shard is marked done;
- `ingest.start`: scan, attempt; the ingestion, the scan moved to INGESTING, before the results are read;
- `ingest.commit`: scan, attempt; the ingestion, inside its transaction, before the FINISHED update.
"""

from __future__ import annotations

from collections.abc import Callable

Hook = Callable[..., None]
POINTS = (
    "pool.file",
    "pipeline.clone",
    "pipeline.plan",
    "shard.start",
    "shard.file",
    "shard.stored",
    "shard.finish",
    "ingest.start",
    "ingest.commit",
)
_hooks: list[Hook] = []


def reached(point: str, **details) -> None:
    """Call every registered hook with the point's name and details; an exception a hook raises is the point's."""
    for hook in tuple(_hooks):
        hook(point, **details)


def register(hook: Hook) -> Hook:
    """Install `hook(point, **details)` in this process (and in processes forked from it afterwards)."""
    _hooks.append(hook)
    return hook


def unregister(hook: Hook) -> None:
    if hook in _hooks:
        _hooks.remove(hook)
