"""Writing TOML for the configuration fuzz tests (the standard library reads TOML but does not write it)."""

from __future__ import annotations

import datetime
import math


def string(value: str) -> str:
    out = []
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def value(item) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if math.isnan(item):
            return "nan"
        if math.isinf(item):
            return "inf" if item > 0 else "-inf"
        return repr(item)
    if isinstance(item, str):
        return string(item)
    if isinstance(item, (datetime.datetime, datetime.date, datetime.time)):
        return item.isoformat()
    if isinstance(item, list):
        return "[" + ", ".join(value(x) for x in item) + "]"
    if isinstance(item, dict):
        return "{" + ", ".join(f"{string(k)} = {value(v)}" for k, v in item.items()) + "}"
    raise TypeError(type(item))


def document(data: dict) -> str:
    """Top-level tables as [sections] (keys quoted), anything else as a top-level key."""
    lines = [f"{string(k)} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for section, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{string(section)}]")
            lines += [f"{string(k)} = {value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"
