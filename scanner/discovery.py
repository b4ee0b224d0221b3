"""Which files of a checkout the scanner looks at, and in which language.

The walk never follows symlinks out of the tree and never silently drops a candidate: a file it will not
analyse (a symlink, an excluded path is the one exception: the user asked) still gets a result that says why.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

LANGUAGE_BY_SUFFIX = {
    ".cu": "cuda",
    ".cuh": "cuda",
    ".cpp": "c++",
    ".cc": "c++",
    ".cxx": "c++",
    ".c++": "c++",
    ".cp": "c++",
    ".hpp": "c++",
    ".hh": "c++",
    ".hxx": "c++",
    ".h++": "c++",
    ".h": "c++",  # CUDA projects' .h files are overwhelmingly C++ headers
    ".inl": "c++",
    ".inc": "c++",
    ".tpp": "c++",
    ".c": "c",
    ".ptx": "ptx",
}
SKIP_DIRS = {".git", ".hg", ".svn"}


@dataclass(frozen=True)
class Candidate:
    path: Path  # absolute
    rel: str  # relative to the root, "/" separated
    language: str
    problem: str = ""  # set when the file must not be opened (a symlink): the result is an error


def language_of(name: str) -> str | None:
    return LANGUAGE_BY_SUFFIX.get(os.path.splitext(name)[1].lower())


def is_excluded(rel: str, patterns: tuple[str, ...]) -> bool:
    for pattern in patterns:
        if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern.rstrip("/") + "/**"):
            return True
        # "third_party/**" also excludes "third_party/x" at any depth; "*.cu" matches by name too.
        if pattern.endswith("/**") and rel.startswith(pattern[:-3] + "/"):
            return True
    return False


def discover(root: Path, exclude: tuple[str, ...] = ()) -> list[Candidate]:
    """Candidates in sorted path order (so reports are deterministic)."""
    root = root.resolve()
    found: list[Candidate] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        kept = []
        for name in dirnames:
            rel = f"{rel_dir}/{name}" if rel_dir != "." else name
            if name in SKIP_DIRS or is_excluded(rel, exclude):
                continue
            if (base / name).is_symlink():
                # A symlinked directory is not walked (it could leave the tree or loop); files under it
                # are reached through their real path when that is inside the tree.
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in filenames:
            language = language_of(name)
            if language is None:
                continue
            rel = f"{rel_dir}/{name}" if rel_dir != "." else name
            if is_excluded(rel, exclude):
                continue
            path = base / name
            problem = ""
            if path.is_symlink():
                problem = _symlink_problem(root, path)
            found.append(Candidate(path, rel, language, problem))
    found.sort(key=lambda c: c.rel)
    return found


def _symlink_problem(root: Path, path: Path) -> str:
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "symlink to a missing target (or a loop); not analysed"
    if not target.is_relative_to(root):
        return "symlink leaving the scanned tree; not analysed"
    return f"symlink to {target.relative_to(root).as_posix()}; analysed at its target, not twice"
