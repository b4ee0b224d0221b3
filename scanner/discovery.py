"""Which files of a checkout the scanner looks at, and in which language.

C, C++, CUDA and PTX are known by suffix. The rest of a CUDA project's migration surface (build files,
container files, scripts, CI and deployment YAML, Python and its packaging, sysctl files) is known by name or
suffix too, and analysed as text (scanner.formats): `language_of` tries the suffix table first, so a C++ tree
pays one dictionary lookup per file, as before.

The walk never follows symlinks out of the tree, works at any depth, and never silently drops a candidate: a
file it will not analyse (a symlink, a name that is not UTF-8; an excluded path is the one exception: the user
asked) still gets a result that says why.
"""

from __future__ import annotations

import fnmatch
import os
import re
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
# Text languages by suffix (scanner.formats.TEXT_LANGUAGES).
TEXT_LANGUAGE_BY_SUFFIX = {
    ".cmake": "cmake",
    ".mk": "make",
    ".mak": "make",
    ".sh": "shell",
    ".bash": "shell",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".py": "python",
    ".dockerfile": "dockerfile",
    ".containerfile": "dockerfile",
}
# Whole names (lower case).
TEXT_LANGUAGE_BY_NAME = {
    "cmakelists.txt": "cmake",
    "makefile": "make",
    "gnumakefile": "make",
    "dockerfile": "dockerfile",
    "containerfile": "dockerfile",
    "pyproject.toml": "pyproject",
    "environment.yml": "conda",
    "environment.yaml": "conda",
    "sysctl.conf": "sysctl",
}
CXX_LANGUAGES = frozenset({"cuda", "c++", "c"})
# Forms for people, not configuration: GitHub's issue and discussion templates (YAML issue forms) ask reporters for
# their `nvcc --version` or show NVIDIA reproduction steps as placeholder text, and nothing runs them.
# A variant named with an underscore or a dash and no extension (`Dockerfile_amd`, `Dockerfile-rocm`): AutoGPTQ
# ships its ROCm image so, and reading it tells the scan that the project already has a ROCm container.
_DOCKERFILE_VARIANT = re.compile(r"(?:docker|container)file[_-][\w-]+")
_FORM_DIRS = frozenset({"issue_template", "discussion_template", "issue_templates"})
SKIP_DIRS = {".git", ".hg", ".svn"}


@dataclass(frozen=True)
class Candidate:
    path: Path  # absolute
    rel: str  # relative to the root, "/" separated
    language: str
    problem: str = ""  # set when the file must not be opened (a symlink): the result is an error


def language_of(name: str, rel_dir: str = "") -> str | None:
    """The language of a file called `name` in directory `rel_dir` (relative to the root), or None."""
    suffix = os.path.splitext(name)[1].lower()
    language = LANGUAGE_BY_SUFFIX.get(suffix)
    if language is not None:
        return language
    lower = name.lower()
    language = TEXT_LANGUAGE_BY_NAME.get(lower)
    if language is not None:
        return language
    if suffix in (".yml", ".yaml") and ("environment" in lower or lower.startswith("conda")):
        return "conda"
    language = TEXT_LANGUAGE_BY_SUFFIX.get(suffix)
    if language == "yaml" and _FORM_DIRS.intersection(rel_dir.lower().split("/")):
        return None
    if language is not None:
        return language
    if suffix == ".txt":
        if "requirements" in lower or lower.startswith("constraints"):
            return "requirements"
        if lower.endswith("cmakelists.txt"):
            return "cmake"
        return "requirements" if rel_dir.rsplit("/", 1)[-1] == "requirements" else None
    if suffix == ".conf":
        return "sysctl" if lower.endswith("sysctl.conf") or rel_dir.endswith("sysctl.d") else None
    if suffix == ".toml":
        return "pyproject" if lower.endswith("pyproject.toml") else None
    if lower.startswith(("dockerfile.", "containerfile.")) or _DOCKERFILE_VARIANT.fullmatch(lower):
        return "dockerfile"
    if lower.startswith("makefile.") or lower.endswith(".makefile"):
        return "make"
    return None


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
    for base, rel_dir, dirnames, filenames in _walk(root):
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
            language = language_of(name, rel_dir)
            if language is None:
                continue
            rel = f"{rel_dir}/{name}" if rel_dir != "." else name
            if is_excluded(rel, exclude):
                continue
            path = base / name
            problem = ""
            if not _is_utf8(rel):
                # The name cannot be stored or shown as it is (os.fsdecode left surrogate escapes in it): report
                # it under an escaped spelling, never open it.
                rel = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                problem = "file name is not valid UTF-8; not analysed"
            elif path.is_symlink():
                problem = _symlink_problem(root, path)
            found.append(Candidate(path, rel, language, problem))
    found.sort(key=lambda c: c.rel)
    return found


def _walk(root: Path):
    """os.walk's top-down walk (links not followed), without recursion: os.walk recurses once per directory level
    in Python 3.11, so a 1,000-deep tree would raise RecursionError. Yields (dir, rel_dir, dirnames, filenames);
    the caller prunes `dirnames` in place, as with os.walk."""
    pending = [(root, ".")]
    while pending:
        base, rel_dir = pending.pop()
        dirnames, filenames = [], []
        try:
            with os.scandir(base) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    # A symlink to a directory is listed with the directories, as os.walk does, so the caller
                    # sees it and skips it.
                    if is_dir or (entry.is_symlink() and os.path.isdir(entry.path)):
                        dirnames.append(entry.name)
                    else:
                        filenames.append(entry.name)
        except OSError:
            continue
        yield base, rel_dir, dirnames, filenames
        for name in reversed(dirnames):
            pending.append((base / name, f"{rel_dir}/{name}" if rel_dir != "." else name))


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _symlink_problem(root: Path, path: Path) -> str:
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "symlink to a missing target (or a loop); not analysed"
    if not target.is_relative_to(root):
        return "symlink leaving the scanned tree; not analysed"
    return f"symlink to {target.relative_to(root).as_posix()}; analysed at its target, not twice"
