"""Git submodules as read-only dependencies: the vendored libraries (CUTLASS/CuTe, a JSON parser, pybind11) a
project pins in `.gitmodules` are read as headers for the parse and the build model, and by default never get
findings of their own (vendored code is its vendor's to port; `.rocport.toml` `[scan] submodules = "scan"` scans
them as the project's own files).

`.gitmodules` is hostile input: it is parsed here by a small strict reader (never by git, never with its `update
= !command` or include directives honoured), at most MAX_ENTRIES entries from its first MAX_GITMODULES_BYTES, and
each entry's path and URL are checked before anything uses them (`path_problem`, `url_problem`): a path must stay
inside the tree and never name a `.git` folder, a URL must not be an option (`--upload-pack=...`), a remote
helper (`ext::sh -c ...`) or hold a control character. The portal (portal.repositories.submodules) adds its
transport and host rules and fetches; the CLI reads what is checked out.

A submodule that was not fetched (refused, unreachable, too large, or not checked out for the CLI) is named in
the parse reason of each file whose include it would have served (`missing_note`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

GITMODULES = ".gitmodules"
MAX_GITMODULES_BYTES = 64 * 1024
MAX_ENTRIES = 64
MAX_PATH_CHARS = 1000
MODES = ("read", "scan")  # `[scan] submodules`: read as headers only (the default), or scanned as the project's

_SECTION = re.compile(r'^\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_KEY_VALUE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Submodule:
    name: str
    path: str  # "/"-separated, relative to the root (checked: `problem` says why it cannot be used)
    url: str
    problem: str = ""


def read(root: str | Path) -> list[Submodule]:
    """The submodules `.gitmodules` at `root` lists (empty without one); a symlinked or oversized file is read as
    far as it is safe (a symlink: not at all)."""
    path = Path(root) / GITMODULES
    try:
        if path.is_symlink() or not path.is_file():
            return []
        with open(path, "rb") as handle:
            data = handle.read(MAX_GITMODULES_BYTES)
    except OSError:
        return []
    return parse(data.decode("utf-8", "replace"))


def parse(text: str) -> list[Submodule]:
    """Entries with a path, in file order, each checked; past MAX_ENTRIES the rest are refused in one entry."""
    sections: dict[str, dict[str, str]] = {}
    order: list[str] = []
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            match = _SECTION.match(line)
            current = None
            if match:
                name = re.sub(r"\\(.)", r"\1", match.group(1))
                if name not in sections:
                    sections[name] = {}
                    order.append(name)
                current = sections[name]
            continue
        match = _KEY_VALUE.match(line)
        if current is None or not match:
            continue
        key = match.group(1).lower()
        if key in ("path", "url") and key not in current:  # the first wins: a repeated key cannot swap it later
            current[key] = _value(match.group(2) or "")
    out: list[Submodule] = []
    for name in order:
        entry = sections[name]
        if "path" not in entry:
            continue
        if len(out) == MAX_ENTRIES:
            out.append(Submodule(name[:80], "", "", f"more than {MAX_ENTRIES} submodules: the rest are not fetched"))
            break
        url = entry.get("url", "")
        problem = path_problem(entry["path"]) or url_problem(url)
        # A refused path is kept as written (shown with its reason, never used); a good one normalised.
        path = entry["path"][:MAX_PATH_CHARS] if problem else entry["path"].replace("\\", "/").strip("/")
        out.append(Submodule(name[:200], path, url, problem))
    return out


def _value(text: str) -> str:
    """A git-config value: an unquoted `#`/`;` starts a comment, quotes group, backslash escapes."""
    out, quoted, i = [], False, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and i + 1 < len(text):
            i += 1
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(text[i], text[i]))
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip()


def path_problem(path: str) -> str:
    """Why this submodule path may not be used ("" when it may): it must be a relative path inside the tree."""
    shown = _shown(path)
    if not path or _CONTROL.search(path):
        return f"the submodule path {shown} is empty or holds a control character"
    if len(path) > MAX_PATH_CHARS:
        return f"the submodule path {shown} is longer than {MAX_PATH_CHARS} characters"
    if path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:", path):
        return f"the submodule path {shown} is absolute: it must stay inside the repository"
    parts = path.replace("\\", "/").split("/")
    if ".." in parts:
        return f"the submodule path {shown} leaves the repository"
    if any(part.lower() == ".git" for part in parts) or all(part in ("", ".") for part in parts):
        return f"the submodule path {shown} names the repository itself or its .git folder"
    if path.startswith("-"):
        return f"the submodule path {shown} starts with '-'"
    return ""


def url_problem(url: str) -> str:
    """Why git must never be given this URL, whatever the server allows ("" when the transport rules decide)."""
    shown = _shown(url)
    if not url:
        return "the submodule has no URL"
    if "::" in url.split("/")[0]:
        return f"the submodule URL {shown} uses a remote helper (transport::address), which could run a command"
    if url.startswith("-"):
        return f"the submodule URL {shown} starts with '-' (git would read it as an option)"
    if _CONTROL.search(url) or any(ch.isspace() for ch in url):
        return f"the submodule URL {shown} holds a space or a control character"
    return ""


def _shown(text: str, limit: int = 80) -> str:
    text = _CONTROL.sub("?", text)
    return repr(text if len(text) <= limit else text[:limit] + "...")


def checked_out(root: str | Path, entry: Submodule) -> bool:
    """True when the submodule's directory is a real, non-empty directory inside `root` (the CLI's test)."""
    if entry.problem:
        return False
    root_real = os.path.realpath(root)
    target = os.path.join(root_real, entry.path)
    if os.path.realpath(target) != os.path.normpath(target) or not os.path.isdir(target):
        return False  # a symlink on the way: not the submodule's own directory
    try:
        with os.scandir(target) as entries:
            return any(e.name != ".git" for e in entries)
    except OSError:
        return False


def under(rel: str, paths: tuple[str, ...]) -> str:
    """The submodule path `rel` lies in ("" when none)."""
    return next((p for p in paths if rel == p or rel.startswith(p + "/")), "")


# Folders of the CUDA toolkit's own headers (and ROCm's): a submodule never serves them.
_TOOLKIT_FOLDERS = frozenset({"cuda", "cub", "thrust", "nv", "cooperative_groups", "crt", "hip", "hipcub", "rocprim"})


def missing_note(stubbed: list[str], missing: tuple[tuple[str, str], ...], include_dirs: tuple[str, ...] = ()) -> str:
    """The sentence a file's parse reason gets when a header it had to stub is one a missing submodule would have
    served: the include spells the submodule's path, or its first folder is the submodule's name
    (`#include <cutlass/gemm.h>` with `third_party/cutlass` missing), or the file's build puts an include directory
    inside the submodule (`-Ithird_party/cutlass/include` serves `cute/tensor.hpp` too) and a header in a folder
    that is not the toolkit's was stubbed. `include_dirs` are repository-relative."""
    notes = []
    foreign = [
        h for h in stubbed if "/" in h and h.replace("\\", "/").lstrip("./").split("/", 1)[0] not in _TOOLKIT_FOLDERS
    ]
    for path, why in missing:
        if not path:
            continue
        name = path.rsplit("/", 1)[-1].lower()
        for header in stubbed:
            spelled = header.replace("\\", "/").lstrip("./")
            named = "/" in spelled and spelled.split("/", 1)[0].lower() == name
            if f"/{path}/" in f"/{spelled}" or named:
                notes.append(f"submodule {path} was not fetched: {why}")
                break
        else:
            if foreign and any(under(d.strip("/"), (path,)) for d in include_dirs):
                notes.append(f"submodule {path} was not fetched: {why}")
    return "; ".join(notes)
