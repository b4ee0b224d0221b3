"""The translated tree a worker compiles in: the repository's files under their own names in a temporary
directory, C/C++/CUDA files translated to HIP, written lazily (only what a unit includes) and once per worker.

Files keep their names (a `.cu` stays `.cu` and is compiled with `-x hip`), so the compiler's diagnostics name
repository paths as they are, and `#include "kernel.cu"` still resolves. Other included files (`.def`, generated
tables) are copied as they are. Symlinks and files outside the checkout are never read (scanner.compile.graph
resolves only regular files inside it). Each file's original text is kept with its translation, for the line map.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from scanner.compile.linemap import LineMap
from scanner.discovery import CXX_LANGUAGES, language_of

_MAX_BYTES = 5_000_000


@dataclass
class Written:
    original: str
    translated: str
    _map: LineMap | None = None

    @property
    def line_map(self) -> LineMap:
        if self._map is None:
            self._map = LineMap(self.original, self.translated)
        return self._map


class TranslatedTree:
    """One per worker process and checkout; `scratch` is a directory the pool removes after the run."""

    def __init__(self, translate, scratch: str | None = None):
        self.translate = translate  # (rel, text, path) -> translated text
        self.base = Path(tempfile.mkdtemp(prefix="rocport-compile-", dir=scratch))
        self.dir = self.base / "tree"
        self.dir.mkdir()
        self.root: Path | None = None
        self.files: dict[str, Written] = {}

    def use(self, root: Path) -> None:
        """Start over when the worker moves to another checkout."""
        if self.root != root:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir.mkdir()
            self.files.clear()
            self.root = root

    def put(self, rel: str, original: str, translated: str) -> None:
        """The file being analysed: its translation is already known."""
        if rel in self.files and self.files[rel].translated == translated:
            return
        self._write(rel, translated.encode("utf-8"))
        self.files[rel] = Written(original, translated)

    def ensure(self, rels) -> list[str]:
        """Write the files `rels` (translated) unless already there; the ones that could not be read."""
        problems = []
        for rel in rels:
            if rel in self.files:
                continue
            path = self.root / rel
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_size > _MAX_BYTES:
                    problems.append(rel)
                    continue
                data = path.read_bytes()
            except OSError:
                problems.append(rel)
                continue
            text = data.decode("utf-8", "replace").removeprefix("\ufeff")
            translated = text
            if language_of(os.path.basename(rel)) in CXX_LANGUAGES and b"\0" not in data[:8192]:
                try:
                    translated = self.translate(rel, text, path)
                except Exception:  # a translator bug costs this header its translation, not the check
                    translated = text
                self._write(rel, translated.encode("utf-8"))
            else:
                self._write(rel, data)
            self.files[rel] = Written(text, translated)
        return problems

    def original_line(self, rel: str, translated_line: int) -> int:
        written = self.files.get(rel)
        return written.line_map.original(translated_line) if written is not None else translated_line

    def translated_text(self, rel: str) -> str:
        written = self.files.get(rel)
        return written.translated if written is not None else ""

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def _write(self, rel: str, data: bytes) -> None:
        target = self.dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
