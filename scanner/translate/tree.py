"""Translate a checkout (or one file): results streamed per file, outputs written under an output directory.

Output names: a `.cu` file becomes `.hip` (nothing includes a .cu); every other file keeps its name, because
the translated sources still include headers by their original names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scanner import discovery
from scanner.translate import Translator, stats_csv, unified_diff
from scanner.translate.hipify_clang import HipifyClangFailed
from scanner.translate.model import TranslationResult, TranslationStats

MAX_BYTES = 5_000_000


@dataclass
class TreeItem:
    rel: str
    source: Path
    result: TranslationResult
    original: str


def output_name(rel: str) -> str:
    return rel[: -len(".cu")] + ".hip" if rel.endswith(".cu") else rel


def translate_tree(root: Path, translator: Translator, exclude: tuple[str, ...] = ()) -> Iterator[TreeItem]:
    if root.is_file():
        candidates = [discovery.Candidate(root, root.name, discovery.language_of(root.name) or "cuda")]
    else:
        candidates = [c for c in discovery.discover(root, exclude) if c.language in discovery.CXX_LANGUAGES]
    for candidate in candidates:
        rel = candidate.rel
        text, problem = _read(candidate)
        if problem:
            yield TreeItem(rel, candidate.path, _failed(rel, problem, translator), "")
            continue
        try:
            result = translator.translate(rel, text, candidate.path)
        except HipifyClangFailed as exc:  # --backend hipify-clang, no fallback asked for
            result = _failed(rel, str(exc), translator)
        result.path = rel
        yield TreeItem(rel, candidate.path, result, text)


def _read(candidate: discovery.Candidate) -> tuple[str, str]:
    if candidate.problem:
        return "", candidate.problem
    try:
        data = candidate.path.read_bytes()
    except OSError as exc:
        return "", f"cannot read: {exc.strerror or exc}"
    if len(data) > MAX_BYTES:
        return "", f"larger than {MAX_BYTES} bytes"
    if b"\0" in data[:8192]:
        return "", "binary file"
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        return "", f"not UTF-8 (invalid byte at offset {exc.start})"


def _failed(rel: str, why: str, translator: Translator) -> TranslationResult:
    return TranslationResult(rel, "", TranslationStats(files=1), translator.options.backend, "", error=why)


class TreeWriter:
    """Writes translated files, a combined diff and the statistics (hipify-clang CSV or JSON)."""

    def __init__(self, out_dir: Path, stats_format: str = "csv"):
        self.out_dir = out_dir
        self.stats_format = stats_format
        self.blocks: list[tuple[str, TranslationStats, bool]] = []
        self.records: list[dict] = []
        out_dir.mkdir(parents=True, exist_ok=True)
        self._diff = open(out_dir / "translation.diff", "w", encoding="utf-8")

    def add(self, item: TreeItem) -> None:
        result = item.result
        self.blocks.append((item.rel, result.stats, bool(result.error)))
        self.records.append(result.to_dict())
        if result.error:
            return
        target = self.out_dir / output_name(item.rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(result.text, encoding="utf-8")
        self._diff.write(unified_diff(item.rel, item.original, result.text))

    def close(self) -> Path:
        self._diff.close()
        if self.stats_format == "json":
            total = TranslationStats()
            for _, stats, _ in self.blocks:
                total.add(stats)
            path = self.out_dir / "rocport-stats.json"
            path.write_text(
                json.dumps(
                    {"schema": "rocport-translate/1", "files": self.records, "total": total.to_dict()}, indent=1
                ),
                encoding="utf-8",
            )
        else:
            path = self.out_dir / "rocport-stats.csv"
            path.write_text(stats_csv.write(self.blocks), encoding="utf-8")
        return path
