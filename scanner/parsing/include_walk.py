"""Which files a parse may open, read before clang does: the unit's `#include` graph walked through the configured
paths (bounded, device and out-of-tree files refused), giving the headers clang must read as empty
(`blanked_includes`) and the ones it will not find (stubbed by scanner.parsing.clang_unit)."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from scanner.parsing.stubs import STUB_DIR, safe_stub_name
from scanner.tree_walk import walk_entries

INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)

_DEVICE_TREES = ("/dev/", "/proc/", "/sys/")
_MAX_HEADERS_FOLLOWED = 200


def blanked_includes(path: str, text: str, args, root: str = "") -> list[str]:
    """Files clang would open for this unit that it must read as empty, each under the names clang may use for it:
    anything that is not a regular file or lives under /dev, /proc or /sys (`#include "/dev/zero"` never ends,
    /dev/stdin is the worker's job pipe, /proc/self/environ holds its secrets), and, with `root`, any file the
    source itself spells as a path out of the tree (an absolute include, "../" past the root). Configured include
    directories are not confined here. The include lines of headers inside the tree are followed (up to
    _MAX_HEADERS_FOLLOWED files), so a header cannot do what the main file may not."""
    return sorted(walk_includes(path, text, args, root).blanked)


@dataclass
class IncludeWalk:
    blanked: set[str] = field(default_factory=set)  # see blanked_includes
    missing: set[str] = field(default_factory=set)  # include names no directory has: stubbed, all in one parse
    inferred_dirs: list[str] = field(default_factory=list)  # in-tree directories that hold an include's header
    chains: dict[str, tuple[str, ...]] = field(default_factory=dict)  # header -> the includers that lead to it


def walk_includes(path: str, text: str, args, root: str = "") -> IncludeWalk:
    """The include graph of one unit, followed through the headers inside the tree: which files to blank, which
    names are missing anywhere in it (so every stub is known before the first parse, instead of one reparse per
    missing header: clang stops at the first one, a fatal error), and the chain of includers of each header (for
    reasons that name where an error came from)."""
    search = _search_dirs(args)
    forced = [(None, a[len("-include") :] or "") for a in args if a.startswith("-include") and a != "-include-pch"]
    forced += [(None, args[i + 1]) for i, a in enumerate(args[:-1]) if a == "-include"]
    root_real = os.path.realpath(root) if root else ""
    walk = IncludeWalk()
    headers = _tree_headers(root_real) if root_real else {}
    seen, queue = {os.path.realpath(path)}, [(path, tuple(INCLUDE_LINE.findall(text)), (path,))]
    while queue:
        current, includes, chain = queue.pop()
        here = os.path.dirname(current)
        directives = list(includes) + (forced if current == path else [])
        for quote, name in directives:
            name = name.strip()
            if not name:
                continue
            if os.path.isabs(name):
                candidates = [name]
            else:
                candidates = ([here] if quote == '"' else []) + search
                candidates = [os.path.join(base, name) for base in candidates]
            spelled_out = os.path.isabs(name) or ".." in Path(name).parts
            for candidate in candidates:
                if not os.path.lexists(candidate):
                    continue
                real = os.path.realpath(candidate)
                outside = bool(root_real) and spelled_out and not inside(real, root_real)
                if outside or _not_a_source(real):
                    walk.blanked.update({candidate, os.path.normpath(candidate), real})
                elif root_real and inside(real, root_real) and real not in seen and len(seen) < _MAX_HEADERS_FOLLOWED:
                    seen.add(real)
                    walk.chains.setdefault(real, chain)
                    queue.append((real, _header_includes(real), chain + (real,)))
                break  # clang takes the first directory that has the file
            else:
                # Not on any search path: a header of the project that its build finds through an include
                # directory we were not told about (`#include <kernels.cuh>` with -Icsrc). Its directory joins
                # the search path; otherwise the name is stubbed.
                found = (
                    _in_tree(name, current, headers)
                    if quote is not None
                    and not os.path.isabs(name)
                    and name not in _SYSTEM_HEADERS
                    and "." in os.path.basename(name)
                    else ""
                )
                directory = _directory_for(name, found) if found else ""
                if directory:
                    walk.inferred_dirs.append(directory)
                    search.append(directory)
                    if found not in seen and len(seen) < _MAX_HEADERS_FOLLOWED:
                        seen.add(found)
                        walk.chains.setdefault(found, chain)
                        queue.append((found, _header_includes(found), chain + (found,)))
                elif quote is not None and safe_stub_name(name):
                    walk.missing.add(name)
    return walk


# The C, POSIX and C++ standard headers: never taken for a project's own file of the same name (llm.c carries a
# Windows shim called unistd.h; the real one is what the code means on Linux).
_SYSTEM_HEADERS = frozenset(
    """
assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h signal.h
stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h
threads.h time.h uchar.h wchar.h wctype.h aio.h arpa/inet.h cpio.h dirent.h dlfcn.h fcntl.h fnmatch.h glob.h grp.h
iconv.h langinfo.h libgen.h malloc.h monetary.h mqueue.h ndbm.h net/if.h netdb.h netinet/in.h netinet/tcp.h nl_types.h
poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h spawn.h strings.h stropts.h sys/ipc.h sys/mman.h
sys/msg.h sys/resource.h sys/select.h sys/sem.h sys/shm.h sys/socket.h sys/stat.h sys/statvfs.h sys/time.h
sys/times.h sys/types.h sys/uio.h sys/un.h sys/utsname.h sys/wait.h syslog.h tar.h termios.h ulimit.h unistd.h
utime.h utmpx.h wordexp.h windows.h io.h direct.h process.h immintrin.h x86intrin.h emmintrin.h xmmintrin.h
""".split()
)


def _header_includes(real: str) -> tuple[tuple[str, str], ...]:
    """A header's include directives (its first megabyte), read once per process while the file is unchanged:
    every unit of a project walks the same headers."""
    try:
        info = os.stat(real)
    except OSError:
        return ()
    return _includes_of(real, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=4096)
def _includes_of(real: str, _mtime_ns: int, _size: int) -> tuple[tuple[str, str], ...]:
    try:
        with open(real, "rb") as handle:
            return tuple(INCLUDE_LINE.findall(handle.read(1_000_000).decode("utf-8", "replace")))
    except OSError:
        return ()


_HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc", ".ipp", ".cu", ".c", ".cc", ".cpp")
_MAX_TREE_FILES = 200_000


@functools.lru_cache(maxsize=8)
def _tree_headers(root_real: str) -> dict[str, tuple[str, ...]]:
    """The tree's header-like files by base name (one walk per tree and process; hidden folders and symlinks
    skipped; at most _MAX_TREE_FILES entries looked at)."""
    index: dict[str, list[str]] = {}
    for count, entry in enumerate(walk_entries(root_real, enter=_is_visible), 1):
        if count > _MAX_TREE_FILES:
            break
        if entry.is_symlink() or not _is_visible(entry) or entry.is_dir(follow_symlinks=False):
            continue
        if entry.name.endswith(_HEADER_SUFFIXES) or "." not in entry.name:
            index.setdefault(entry.name, []).append(entry.path)
    return {name: tuple(paths) for name, paths in index.items()}


def _is_visible(entry: os.DirEntry) -> bool:
    return not entry.name.startswith(".")


def _directory_for(name: str, found: str) -> str:
    """The directory D with D/name == found: the prefix before the spelled path, and for each leading ".." one
    real folder deeper ("../include/x.h" found as P/include/x.h: D = P/include)."""
    parts = Path(name).parts
    ups = 0
    while ups < len(parts) and parts[ups] == "..":
        ups += 1
    rest = parts[ups:]
    prefix = found[: len(found) - len("/".join(rest))].rstrip("/") or "/"
    if ups >= len(rest):
        return ""
    directory = os.path.join(prefix, *rest[:ups])
    return directory if os.path.isdir(directory) else ""


def _in_tree(name: str, includer: str, headers: dict[str, tuple[str, ...]]) -> str:
    """The in-tree file that `#include <name>` most likely means: its path ends with the spelled path, and of
    several, the one whose directory shares the longest prefix with the includer's (its own project part)."""
    if not safe_stub_name(name):
        return ""
    suffix = "/" + "/".join(part for part in Path(name).parts if part not in ("..", "."))
    matches = [p for p in headers.get(os.path.basename(name), ()) if p.endswith(suffix)]
    if not matches:
        return ""
    here = os.path.dirname(os.path.realpath(includer))
    return max(matches, key=lambda p: (len(os.path.commonpath([here, p])), -len(p)))


def _search_dirs(args) -> list[str]:
    dirs = []
    for i, arg in enumerate(args):
        for flag in ("-I", "-isystem", "-iquote"):
            if arg == flag and i + 1 < len(args):
                dirs.append(args[i + 1])
            elif arg.startswith(flag) and arg != flag:
                dirs.append(arg[len(flag) :])
    return [d for d in dirs if d != STUB_DIR]


def inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip("/") + "/")


def _not_a_source(real: str) -> bool:
    if real.startswith(_DEVICE_TREES):
        return True
    try:
        return not os.path.isfile(real)
    except OSError:
        return True
