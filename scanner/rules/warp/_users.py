"""Who uses a header's warp-size constant elsewhere in the repository (not a rule module).

A header that defines `constexpr unsigned warp_size = 32;` and never uses it leaves the question to the files that
include it. When every such file that names the constant does nothing per warp (no shuffle, ballot, warp sync,
warp helper, and no `warpSize` beside it: the same test as `_groups.splits_data_only`, on the file's identifiers),
the 32 only sizes data (a shared-memory padding against bank conflicts, a tile split): a 64-lane wavefront computes
the same. Read once per header and name in a worker; at most `_MAX_FILES` files, each capped.
"""

from __future__ import annotations

import os
import posixpath
import re

from scanner.rules.libraries._judgement import third_party_code
from scanner.rules.warp._common import texts_work_per_warp
from scanner.sourcetext import read_capped

_SOURCES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".cc", ".cpp", ".cxx", ".c")
_SKIP_DIRS = frozenset({".git", "build", "node_modules", "__pycache__"})
_MAX_FILES = 4000
_CAP = 256 * 1024
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_WAVEFRONT = frozenset({"warpSize", "__AMDGCN_WAVEFRONT_SIZE", "wavefrontSize"})
_CACHE: dict[tuple[str, str, str], bool] = {}


def users_split_data_only(ctx, name: str) -> bool:
    """The repository files that include this header (by its file name) and name `name` all do nothing per warp,
    and there is at least one."""
    root = ctx.root
    if not root:
        return False
    key = (root, ctx.path, name)
    if key not in _CACHE:
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = _judge(root, ctx.path, name)
    return _CACHE[key]


def _judge(root: str, header: str, name: str) -> bool:
    base = posixpath.basename(header)
    include = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]*)[>"]', re.M)
    word = re.compile(rf"\b{re.escape(name)}\b")
    users = 0
    seen = 0
    for directory, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in _SKIP_DIRS and not f.startswith("."))
        for file in sorted(files):
            if not file.endswith(_SOURCES):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return False
            path = os.path.join(directory, file)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel == header or third_party_code(rel):
                continue
            text = read_capped(path, _CAP)
            if not text or base not in text:
                continue
            if not any(posixpath.basename(spelled) == base for spelled in include.findall(text)):
                continue
            code = _COMMENT.sub(" ", text)
            if not word.search(code):
                continue
            identifiers = _IDENTIFIER.findall(code)
            if texts_work_per_warp(identifiers) or _WAVEFRONT.intersection(identifiers):
                return False
            users += 1
    return users > 0
