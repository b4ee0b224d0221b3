"""How a source file's bytes become text, the same way for the scanner and for the portal that shows the file."""

from __future__ import annotations

import os


def decode_source(data: bytes) -> tuple[str, str]:
    """The file's text and, when it is not UTF-8, how it was read instead. Bytes that are not UTF-8 sit in
    comments and strings of real code (a copyright line in Latin-1 in vendored Boost headers): read as Latin-1,
    which maps every byte, the code itself is unchanged and the file keeps its analysis."""
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        return data.decode("latin-1"), (
            f"latin-1 (guessed: byte 0x{data[exc.start]:02x} at offset {exc.start} is not UTF-8)"
        )


def read_capped(path: str, cap: int) -> str:
    """At most `cap` bytes of a file as text ("" for a symlink or an unreadable file): what the plan reads of
    build files and sources before analysis (scanner.port, scanner.build), never following a link out."""
    try:
        if os.path.islink(path):
            return ""
        with open(path, "rb") as handle:
            return handle.read(cap).decode("utf-8", "replace")
    except OSError:
        return ""
