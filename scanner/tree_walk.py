"""One walk of a directory tree for every caller that must survive a hostile checkout.

os.walk recurses once per directory level in Python 3.11, so a 1,000-deep tree raises RecursionError; this walk
keeps its own stack. It never descends through a symlink and skips a folder it cannot read."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator


def walk_entries(root: str, enter: Callable[[os.DirEntry], bool] | None = None) -> Iterator[os.DirEntry]:
    """Every entry under `root` (files, folders and symlinks alike), depth first. A real folder's own entries
    follow when `enter(folder)` says so (always when `enter` is None); a symlink is yielded, never followed."""
    pending = [root]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            yield entry
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder and (enter is None or enter(entry)):
                pending.append(entry.path)
