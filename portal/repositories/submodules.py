"""Submodules fetched as read-only dependencies, with the clone's hardening (portal.repositories.git).

A commit's gitlinks (tree entries of mode 160000: a path and the pinned commit) are fetched when `.gitmodules`
(read by scanner.submodules, a strict reader of hostile input) names a URL for them, and only then:

- the path and URL pass scanner.submodules' checks (inside the tree, no `.git`, no option, no remote helper);
- a relative URL (`../cutlass.git`) is resolved against the repository's URL, as git does;
- the URL passes the clone URL check (urlcheck.validate_clone_url: schemes, private hosts), and its host is the
  repository's own or one ROCPORT_SUBMODULE_HOSTS allows ("*": any); a local path or file:// only when the
  repository itself is local; the repository's credentials go to its own host only;
- git runs as for the clone (no hooks, no shell, the transport allow-list, never git's own recursion), in a git
  directory of its own, fetching exactly the pinned commit (`--depth=1`); a submodule's own submodules are
  fetched the same way by this module, MAX_DEPTH levels down at most, their relative URLs resolved against their
  superproject's, the host rule and credentials still those of the repository;
  its tree is listed before checkout and refused over ROCPORT_SUBMODULE_MAX_BYTES or what is left of the clone's
  byte and file limits; at most ROCPORT_SUBMODULES_MAX submodules, each within ROCPORT_SUBMODULE_TIMEOUT seconds;
- the files are checked out, symlinks off, into the gitlink's (empty) directory of the repository's tree, where
  include resolution finds them; their blobs join the checkout's, under the submodule's path.

A submodule that cannot be fetched does not fail the scan: its Outcome says why; the scan records every outcome
(Scan.submodules, shown on the scan page) and the scanner names a missing one in the parse reason of each file
whose include it would have served (ScanOptions.submodules_missing).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError

from portal.repositories.git import (
    _OBJECT_ID,
    MAX_PATH_CHARS,
    Checkout,
    CloneError,
    GitSession,
    _tree_size,
    remove_tree,
    storable_path,
)
from portal.repositories.urlcheck import host_of, validate_clone_url
from scanner import submodules as reader

GITLINK = "160000"


@dataclass
class Outcome:
    path: str
    url: str  # as resolved (a relative URL made absolute); "" when refused before that
    commit: str  # the pinned commit
    fetched: bool
    reason: str = ""  # why not, for the scan page and the parse reasons

    def to_dict(self) -> dict:
        return asdict(self)


def missing(outcomes: list[dict]) -> tuple[tuple[str, str], ...]:
    """The (path, why) pairs of the submodules that were not fetched (ScanOptions.submodules_missing)."""
    return tuple((o["path"], o["reason"]) for o in outcomes if not o["fetched"] and o["path"])


# A submodule's own submodules are fetched too (CUTLASS inside a kernel library inside the project), down to this
# many levels below the repository; every level shares the count, byte and file limits.
MAX_DEPTH = 3


def fetch_all(session: GitSession, checkout: Checkout) -> list[dict]:
    """Fetch the submodules of `checkout` (just fetched by `session`) into its tree, nested ones included; their
    outcomes, the repository's own submodules first."""
    links = _gitlinks(session, checkout.commit)
    if not links:
        return []
    state = _State(
        session=session,
        checkout=checkout,
        budget=_Budget(
            files=settings.ROCPORT_CLONE_MAX_FILES - len(checkout.blobs),
            bytes=session.max_bytes - _tree_size(session.root),
        ),
    )
    _fetch_level(state, "", links, reader.read(checkout.path), session.url, 1)
    return [o.to_dict() for o in state.outcomes]


@dataclass
class _Budget:
    files: int
    bytes: int


@dataclass
class _State:
    session: GitSession  # the repository's: its URL decides the host rule and where credentials may go
    checkout: Checkout
    budget: _Budget
    fetched: int = 0
    outcomes: list = field(default_factory=list)


def _fetch_level(state: _State, prefix: str, links: dict, entries: list, base_url: str, depth: int) -> None:
    """One repository's (or submodule's) gitlinks: `prefix` is where it sits in the tree ("" for the repository),
    `base_url` what its relative submodule URLs resolve against (git resolves them against the superproject's)."""
    listed = {entry.path: entry for entry in entries}
    nested: list[tuple[str, dict, list, str]] = []
    for path, commit in sorted(links.items()):
        full = f"{prefix}{path}"
        entry = listed.get(path)
        if entry is None:
            state.outcomes.append(Outcome(full, "", commit, False, "no URL for it in .gitmodules"))
            continue
        if entry.problem:
            state.outcomes.append(Outcome(full, "", commit, False, entry.problem))
            continue
        if state.fetched >= settings.ROCPORT_SUBMODULES_MAX:
            limit = settings.ROCPORT_SUBMODULES_MAX
            state.outcomes.append(
                Outcome(full, "", commit, False, f"more than {limit} submodules (ROCPORT_SUBMODULES_MAX)")
            )
            continue
        url = resolve_url(entry.url, base_url)
        refused = url_refusal(url, state.session.url)
        if refused:
            state.outcomes.append(Outcome(full, _shown_url(url), commit, False, refused))
            continue
        state.fetched += 1
        try:
            blobs, inner = _fetch_one(state.session, state.checkout, full, url, commit, state.budget)
        except CloneError as exc:
            _empty(state.checkout.path / full)
            state.outcomes.append(Outcome(full, _shown_url(url), commit, False, exc.message))
            continue
        state.checkout.blobs.update(blobs)
        state.outcomes.append(Outcome(full, _shown_url(url), commit, True))
        if inner:
            nested.append((f"{full}/", inner, reader.read(state.checkout.path / full), url))
    # Listed in .gitmodules with a refused path (`../../etc`): no gitlink can sit there, but the refusal is named.
    for entry in listed.values():
        if entry.problem and entry.path not in links:
            state.outcomes.append(Outcome(f"{prefix}{entry.path[:200]}" or entry.name, "", "", False, entry.problem))
    for inner_prefix, inner_links, inner_entries, inner_url in nested:
        if depth >= MAX_DEPTH:
            for path, commit in sorted(inner_links.items()):
                reason = f"nested more than {MAX_DEPTH} submodules deep: not fetched"
                state.outcomes.append(Outcome(f"{inner_prefix}{path}", "", commit, False, reason))
            continue
        _fetch_level(state, inner_prefix, inner_links, inner_entries, inner_url, depth + 1)


def resolve_url(url: str, base: str) -> str:
    """A relative submodule URL (`./x`, `../x`) against the repository's URL, as git resolves it: the
    repository's URL is taken as a folder, each `../` drops one of its components ("" past the host)."""
    if not url.startswith(("./", "../")):
        return url
    base = base.rstrip("/")
    if "://" in base:
        scheme, rest = base.split("://", 1)
        host, _, folder = rest.partition("/")
        prefix = f"{scheme}://{host}/"
    elif ":" in base and not base.startswith(("/", ".")):  # scp-like: user@host:path
        host, _, folder = base.partition(":")
        prefix = f"{host}:"
    else:
        prefix, folder = ("/" if base.startswith("/") else ""), base.lstrip("/")
    parts = [p for p in folder.split("/") if p]
    rest = url
    while rest.startswith(("./", "../")):
        if rest.startswith("../"):
            if not parts:
                return ""
            parts.pop()
        rest = rest.split("/", 1)[1]
    return prefix + "/".join(parts + ([rest] if rest else []))


def url_refusal(url: str, repository_url: str) -> str:
    """Why this (resolved) submodule URL may not be fetched ("" when it may)."""
    if not url:
        return "its relative URL climbs above the repository's host"
    problem = reader.url_problem(url)
    if problem:
        return problem
    if _local(url) and not _local(repository_url):
        return f"the submodule URL {url[:80]!r} is a local path, and the repository is not local"
    try:
        validate_clone_url(url)
    except ValidationError as exc:
        return "its URL is refused: " + " ".join(exc.messages)
    host, own = (host_of(url) or "").lower(), (host_of(repository_url) or "").lower()
    allowed = [h.lower() for h in settings.ROCPORT_SUBMODULE_HOSTS]
    if host != own and "*" not in allowed and host not in allowed:
        return f"its host {host!r} is not the repository's host ({own!r}) and not in ROCPORT_SUBMODULE_HOSTS"
    return ""


def _fetch_one(
    session: GitSession, checkout: Checkout, path: str, url: str, commit: str, budget: _Budget
) -> tuple[dict, dict]:
    """Fetch one submodule at its pinned commit into `path`: its blobs, and its own gitlinks (path -> commit)."""
    if not _OBJECT_ID.match(commit):
        raise CloneError("commit_not_found", f"{commit[:80]!r} is not a commit id")
    target = checkout.path / path
    if target.is_symlink() or not target.is_dir() or not target.resolve().is_relative_to(checkout.path.resolve()):
        raise CloneError("clone_failed", "its folder in the repository's tree is not a plain folder")
    same_host = (host_of(url) or "").lower() == (host_of(session.url) or "").lower()
    with GitSession(url, session.credentials if same_host else None) as child:
        child.deadline = min(session.deadline, time.monotonic() + settings.ROCPORT_SUBMODULE_TIMEOUT)
        child.max_bytes = max(0, min(settings.ROCPORT_SUBMODULE_MAX_BYTES, budget.bytes))
        child.max_bytes_setting = "ROCPORT_SUBMODULE_MAX_BYTES, ROCPORT_CLONE_MAX_BYTES"
        child.work.mkdir()
        child.git("init", "--quiet", ".")
        child.git("remote", "add", "origin", "--", url)
        child.git("fetch", "--quiet", "--no-tags", "--depth=1", "origin", commit, watch_size=True)
        try:
            kind = child.git("cat-file", "-t", commit).strip()
        except CloneError:
            kind = ""
        if kind != "commit":
            raise CloneError("commit_not_found", f"the pinned commit {commit} is not in the submodule's repository")
        blobs, links, files, size = _inventory(child, commit, path)
        if files > budget.files:
            raise CloneError(
                "repo_too_large", f"its {files} files would pass the clone's limit (ROCPORT_CLONE_MAX_FILES)"
            )
        if size > child.max_bytes:
            raise CloneError(
                "repo_too_large",
                f"its files hold {size} bytes, more than the {child.max_bytes} left for it "
                "(ROCPORT_SUBMODULE_MAX_BYTES, ROCPORT_CLONE_MAX_BYTES)",
            )
        child.git(f"--work-tree={target}", "checkout", "--quiet", "--detach", commit)
    budget.files -= files
    budget.bytes -= size
    return blobs, links


def _inventory(child: GitSession, commit: str, prefix: str) -> tuple[dict[str, str], dict[str, str], int, int]:
    blobs, links, files, size = {}, {}, 0, 0
    for entry in child.git("ls-tree", "-r", "-l", "-z", "--full-tree", commit).split("\0"):
        if not entry:
            continue
        meta, _, rel = entry.partition("\t")
        mode, kind, sha, length = meta.split()
        if kind == "commit":
            links[rel] = sha  # a nested submodule: fetched after this one, if .gitmodules names it
            continue
        if kind != "blob":
            continue
        files += 1
        size += int(length)
        full = f"{prefix}/{rel}"
        if len(full) > MAX_PATH_CHARS:
            raise CloneError("path_too_long", f"the path {full[:60]!r}... is longer than {MAX_PATH_CHARS} characters")
        if mode in ("100644", "100755") and storable_path(full):
            blobs[full] = sha
    return blobs, links, files, size


def _gitlinks(session: GitSession, commit: str) -> dict[str, str]:
    links = {}
    for entry in session.git("ls-tree", "-r", "-z", "--full-tree", commit, cwd=session.work).split("\0"):
        meta, _, path = entry.partition("\t")
        if meta.startswith(GITLINK + " "):
            links[path] = meta.split()[2]
    return links


def _empty(target: Path) -> None:
    """A failed fetch leaves nothing behind: the folder is emptied (a partial checkout would be half-read)."""
    if target.is_dir() and not target.is_symlink():
        for child in list(target.iterdir()):
            remove_tree(child)


def _local(url: str) -> bool:
    return url.startswith(("file://", "/", "."))


def _shown_url(url: str) -> str:
    """The URL as the scan page shows it: without a user or password part."""
    if "://" in url and "@" in url.split("://", 1)[1].split("/", 1)[0]:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://{rest.split('@', 1)[1]}"[:300]
    return url[:300]
