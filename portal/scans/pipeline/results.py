"""A scanner result as the portal stores it: the per-scan row's dict and the blob cache row (with the file's text
and its translation, for the file and finding pages)."""

from __future__ import annotations

from pathlib import Path

from portal.scans.models import BlobResult
from scanner.sourcetext import decode_source


def fresh_result(root: Path, result, blobs, keys) -> tuple[dict, dict | None, BlobResult | None]:
    """A fresh scanner result as stored: (its dict, its translation without the text, the blob cache row to
    write, or None when the result must not be remembered). The cache row has the file's text and its
    translation, for the file and finding pages."""
    data = result.to_dict()
    translation = data.pop("translation", None)
    translated = translation.pop("text", "") if translation else ""
    blob = blobs.get(result.path)
    # A compile check that timed out or crashed is tried again next time, not remembered.
    if blob and not result.error and (result.compile or {}).get("cacheable", True):
        return (
            data,
            translation,
            BlobResult(
                blob_sha=blob,
                cache_key=keys[result.path],
                result=_without_path(data),
                translation=translation,
                source=read_text(root / result.path),
                translated=translated,
            ),
        )
    return data, translation, None


def read_text(path: Path) -> str:
    try:
        # Bytes, not read_text: universal newlines would turn CRLF into LF and shift every column. Never more
        # than the cap is read: a 2 GB CODEOWNERS must not cost 2 GB of memory.
        with open(path, "rb") as handle:
            data = handle.read(2_000_001)
        # As the scanner read it (Latin-1 when it is not UTF-8), so the page shows the lines its findings are on.
        return "" if len(data) > 2_000_000 else decode_source(data)[0]
    except OSError:
        return ""


def _without_path(data: dict) -> dict:
    out = dict(data)
    out["path"] = ""
    out["findings"] = [dict(f, path="") for f in data["findings"]]
    return out
