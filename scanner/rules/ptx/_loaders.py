"""Whether anything in the repository could load a PTX file (not a rule module).

A `.ptx` checked in beside lecture notes or profiler logs (`square_kernel.ptx`, a dump of what the compiler made)
is loaded by nothing: a program that loads a PTX file reaches it by a path, so some file of the repository spells
its name, a `.ptx` string (`stem + ".ptx"`) or a `*.ptx` glob (the stem alone is often the kernel's name too).
When none does, it is a listing to read, not code a port must rebuild. (A loader elsewhere, `cuModuleLoadData` of an embedded
image in another sample, does not reach it.) Read once per file in a worker; at most `_MAX_FILES` files, each
capped.
"""

from __future__ import annotations

import os
import posixpath
import re

from scanner.sourcetext import read_capped

_TEXT = (
    ".cu",
    ".cuh",
    ".h",
    ".hpp",
    ".hh",
    ".cc",
    ".cpp",
    ".cxx",
    ".c",
    ".py",
    ".cmake",
    ".txt",
    ".sh",
    ".mk",
    ".json",
    ".toml",
    ".yaml",
    ".yml",
    ".cfg",
    ".in",
)
_DOCS = frozenset({"readme.txt", "license.txt", "changelog.txt", "requirements.txt"})
_SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__"})
_MAX_FILES = 6000
_CAP = 256 * 1024
# A `.ptx` path built or globbed in code: `"kernels/" + name + ".ptx"`, `glob("*.ptx")`, `GLOB ... *.ptx`.
_LOADER = re.compile(r"[\"'][^\"'\n]*\.ptx[\"']|\*\.ptx\b")
_CACHE: dict[tuple[str, str], bool] = {}


def loaded_by_nothing(root: str, rel: str) -> bool:
    """No repository file names the PTX file `rel` or builds a `.ptx` path."""
    if not root:
        return False
    key = (root, rel)
    if key not in _CACHE:
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = _judge(root, rel)
    return _CACHE[key]


def _judge(root: str, rel: str) -> bool:
    name = posixpath.basename(rel)
    seen = 0
    for directory, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in _SKIP_DIRS and not f.startswith("."))
        for file in sorted(files):
            lower = file.lower()
            if not (lower.endswith(_TEXT) or lower in ("makefile", "cmakelists.txt")) or lower in _DOCS:
                continue
            seen += 1
            if seen > _MAX_FILES:
                return False
            text = read_capped(os.path.join(directory, file), _CAP)
            if not text:
                continue
            if name in text:
                return False
            if _LOADER.search(text):
                return False
    return True
