"""Per-file flags from a compile_commands.json: include paths, defines and the language standard only.

Compiler, output and code-generation flags are dropped: ROCport parses, it never builds.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

_KEEP_WITH_VALUE = ("-I", "-D", "-U", "-isystem", "-iquote", "-include")
_KEEP_ALONE = ("-std=",)


class CompileDbError(ValueError):
    pass


def load(path: Path) -> dict[str, tuple[str, ...]]:
    """Absolute source path -> the flags worth passing to libclang. A file that is not the documented layout
    (https://clang.llvm.org/docs/JSONCompilationDatabase.html) is a CompileDbError naming the entry."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # RecursionError: arrays nested thousands deep
        raise CompileDbError(f"cannot read compile_commands.json at {path}: {str(exc)[:200]}") from None
    if not isinstance(entries, list):
        raise CompileDbError(f"{path}: expected a JSON list of compile commands")
    out = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or "file" not in entry:
            continue
        try:
            directory = Path(_text(entry.get("directory", str(path.parent)), "directory"))
            if entry.get("arguments"):
                args = entry["arguments"]
                if not isinstance(args, list) or not all(isinstance(a, str) and "\0" not in a for a in args):
                    raise ValueError("'arguments' must be a list of strings")
            else:
                args = shlex.split(_text(entry.get("command", ""), "command"))  # ValueError: unclosed quote
            out[str((directory / _text(entry["file"], "file")).resolve())] = _filter(args, directory)
        except (ValueError, OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop in resolve()
            raise CompileDbError(f"{path}: entry {index}: {str(exc)[:200]}") from None
    return out


def _text(value, key: str) -> str:
    if not isinstance(value, str) or "\0" in value:
        raise ValueError(f"'{key}' must be a string")
    return value


def _filter(args: list[str], directory: Path) -> tuple[str, ...]:
    kept: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        for flag in _KEEP_WITH_VALUE:
            if arg == flag and i + 1 < len(args):
                kept += [flag, _absolute(flag, args[i + 1], directory)]
                i += 1
                break
            if arg.startswith(flag) and arg != flag:
                kept.append(flag + _absolute(flag, arg[len(flag) :], directory))
                break
        else:
            if arg.startswith(_KEEP_ALONE):
                kept.append(arg)
        i += 1
    return tuple(kept)


def _absolute(flag: str, value: str, directory: Path) -> str:
    if flag in ("-I", "-isystem", "-iquote", "-include") and not value.startswith("/"):
        return str(directory / value)
    return value
