"""The checkout a worker process keeps between tasks, so the shards of one scan that land on the same process
fetch the commit once. Workers share no disk: each process clones for itself, and keeps only its newest checkout
(the previous one is removed when another commit is wanted, and at process exit).

The key is the repository row, its clone URL, a digest of its credentials and the commit: another repository
with the same URL (another team, other credentials) never sees a tree it could not fetch itself.
"""

from __future__ import annotations

import atexit
import hashlib
import time
from dataclasses import dataclass, field

from django.conf import settings

from portal.repositories import submodules
from portal.repositories.git import Checkout, GitSession


@dataclass
class _Kept:
    key: tuple
    session: GitSession
    checkout: Checkout
    renames_from: str  # the previous commit `checkout.renames` was computed against ("" for none)
    memo: dict = field(default_factory=dict)  # what callers derive from the tree (the scanner's plan)


_kept: _Kept | None = None


def _key(repository, commit: str) -> tuple:
    secret = repr(repository.credentials()).encode()
    return repository.pk, repository.clone_url, hashlib.sha256(secret).hexdigest(), commit


def checkout(repository, commit: str, *, ref: str = "", previous: str = "") -> tuple[Checkout, dict]:
    """The tree of `commit` (fetched now or kept from an earlier task of this process) and a memo dict for what
    callers derive from it; with `previous`, `renames` is git's rename detection against that commit."""
    global _kept
    key = _key(repository, commit)
    if _kept is None or _kept.key != key or not _kept.checkout.path.is_dir():
        release()
        session = GitSession(repository.clone_url, repository.credentials())
        try:
            tree = session.fetch(commit, ref=ref, previous=previous)
            tree.submodules = submodules.fetch_all(session, tree)  # read-only dependencies, never fatal
        except BaseException:
            session.__exit__(None, None, None)
            raise
        _kept = _Kept(key, session, tree, previous)
    elif previous and _kept.renames_from != previous:
        _kept.session.deadline = time.monotonic() + settings.ROCPORT_CLONE_TIMEOUT  # its own time limit
        _kept.checkout.renames = _kept.session._renames(previous, commit) if previous != commit else {}
        _kept.renames_from = previous
    return _kept.checkout, _kept.memo


def release() -> None:
    """Remove the kept checkout (the demo and `pipeline.run` call it when they are done)."""
    global _kept
    if _kept is not None:
        kept, _kept = _kept, None
        kept.session.__exit__(None, None, None)


atexit.register(release)
