"""CMake's commands on variables, run for scanner.build.cmake: set, option, list, string, cmake_parse_arguments,
get_filename_component, the results only a configure knows, and the variables a Linux x86-64 host starts with. Values are strings (CMake lists joined by `;`) or UNKNOWN.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from scanner.build.conditions import UNKNOWN, Scope

UNKNOWN_WORD = "\x00unknown"  # stands in a condition for a ${} whose value only the configure step knows


def set_variable(args: list[str], scope: Scope, options: set[str]) -> None:
    """set(): a value, a cache variable (which a user may set with -D, like an option), PARENT_SCOPE."""
    if not args:
        return
    name, values = args[0], args[1:]
    parent = False
    if "PARENT_SCOPE" in values:
        values = [v for v in values if v != "PARENT_SCOPE"]
        parent = True
    if "CACHE" in values:
        values = values[: values.index("CACHE")]
        options.add(name)  # a cache variable, which a user sets with -D like an option
        if name in scope.values:
            return
    scope.values[name] = ";".join(values)
    if parent:
        scope.values.setdefault("__parent_scope__", [])
        scope.values["__parent_scope__"] = [*scope.values["__parent_scope__"], name]


def list_command(args: list[str], scope: Scope) -> None:
    """list(APPEND|PREPEND|REMOVE_ITEM|FILTER)."""
    verb, name, values = args[0], args[1], args[2:]
    current = scope.get(name)
    items = [] if current in (None, UNKNOWN) else [v for v in current.split(";") if v]
    if verb == "APPEND":
        items += values
    elif verb == "PREPEND":
        items = values + items
    elif verb == "REMOVE_ITEM":
        items = [i for i in items if i not in values]
    elif verb == "FILTER" and len(values) >= 3:
        mode, pattern = values[0], values[2]
        try:
            items = [i for i in items if bool(re.search(pattern, i)) == (mode == "INCLUDE")]
        except re.error:
            return
    else:
        return
    scope.values[name] = ";".join(items)


def parse_arguments(args: list[str], scope: Scope) -> None:
    prefix, options, singles, multis = args[0], args[1].split(";"), args[2].split(";"), args[3].split(";")
    rest = args[4:]
    keywords = set(options) | set(singles) | set(multis)
    for name in options:
        scope.values[f"{prefix}_{name}"] = "TRUE" if name in rest else "FALSE"
    current = None
    collected: dict[str, list[str]] = {}
    for word in rest:
        if word in keywords:
            current = word if word not in options else None
            collected.setdefault(word, [])
            continue
        if current:
            collected[current].append(word)
            if current in singles:
                current = None
    for name in singles + multis:
        if name:
            scope.values[f"{prefix}_{name}"] = ";".join(collected.get(name, []))


def string_command(args: list[str], scope: Scope) -> None:
    """string(): the forms builds use to make names and flags; any other leaves its output unknown."""
    verb = args[0]
    if verb in ("TOUPPER", "TOLOWER", "STRIP") and len(args) >= 3:
        value = {"TOUPPER": str.upper, "TOLOWER": str.lower, "STRIP": str.strip}[verb](args[1])
        scope.values[args[2]] = value
    elif verb in ("APPEND", "PREPEND"):
        current = scope.get(args[1])
        current = "" if current in (None, UNKNOWN) else current
        more = "".join(args[2:])
        scope.values[args[1]] = current + more if verb == "APPEND" else more + current
    elif verb == "CONCAT":
        scope.values[args[1]] = "".join(args[2:])
    elif verb == "REPLACE" and len(args) >= 4:
        scope.values[args[3]] = "".join(args[4:]).replace(args[1], args[2])
    elif verb == "REGEX" and len(args) >= 5 and args[1] in ("MATCH", "REPLACE"):
        try:
            if args[1] == "MATCH":
                found = re.search(args[2], "".join(args[4:]))
                scope.values[args[3]] = found.group(0) if found else ""
            elif len(args) >= 6:
                replacement = args[3]  # CMake and Python both spell a group \\1
                scope.values[args[4]] = re.sub(args[2], replacement, "".join(args[5:]))
        except re.error:
            scope.values[args[3]] = UNKNOWN
    else:
        out = {"LENGTH": 2, "FIND": 3, "SUBSTRING": 4, "JOIN": 2, "MD5": 1, "SHA256": 1}.get(verb)
        if out is not None and len(args) > out:
            scope.values[args[-1]] = UNKNOWN


def host_variables(source_dir: str) -> dict:
    return {
        "UNIX": "1",
        "LINUX": "1",
        "CMAKE_SYSTEM_NAME": "Linux",
        "CMAKE_HOST_SYSTEM_NAME": "Linux",
        "CMAKE_SYSTEM_PROCESSOR": "x86_64",
        "CMAKE_HOST_SYSTEM_PROCESSOR": "x86_64",
        "CMAKE_HOST_UNIX": "1",
        "CMAKE_SIZEOF_VOID_P": "8",
        "CMAKE_SOURCE_DIR": source_dir,
        "CMAKE_CURRENT_SOURCE_DIR": source_dir,
        "PROJECT_SOURCE_DIR": source_dir,
        "CMAKE_BINARY_DIR": "/nonexistent-build",
        "CMAKE_CURRENT_BINARY_DIR": "/nonexistent-build",
        "PROJECT_BINARY_DIR": "/nonexistent-build",
        "CMAKE_CXX_COMPILER_ID": "GNU",
        "CMAKE_C_COMPILER_ID": "GNU",
        "CMAKE_CUDA_COMPILER_ID": "NVIDIA",
        "CMAKE_HIP_COMPILER_ID": "Clang",
        "CMAKE_VERSION": "3.28.0",
        "CMAKE_BUILD_TYPE": UNKNOWN,
        UNKNOWN_WORD: UNKNOWN,
        # Another platform's variables: defined false, so `if(WIN32)` is a branch this host never takes.
        **{
            name: ""
            for name in (
                "WIN32",
                "APPLE",
                "MSVC",
                "MINGW",
                "CYGWIN",
                "ANDROID",
                "IOS",
                "QNX",
                "CMAKE_HOST_WIN32",
                "CMAKE_HOST_APPLE",
                "CMAKE_CROSSCOMPILING",
                "BORLAND",
                "XCODE",
            )
        },
    }


def glob(files, patterns: list[str], recurse: bool, directory: str, relative) -> list[str]:
    """file(GLOB[_RECURSE]) over the repository's files: the matches' repository-relative paths, in order.
    `relative(path, directory)` makes a pattern repository-relative (None: outside the tree)."""
    out: list[str] = []
    for arg in patterns:
        if arg in ("CONFIGURE_DEPENDS", "LIST_DIRECTORIES", "true", "false", "RELATIVE", "FOLLOW_SYMLINKS"):
            continue
        pattern = relative(arg, directory)
        if pattern is None:
            continue
        folder, _, name = pattern.rpartition("/")
        for path in sorted(files):
            parent, _, base = path.rpartition("/")
            inside = parent == folder or (recurse and (folder == "" or parent.startswith(folder + "/")))
            if inside and fnmatch.fnmatchcase(base, name):
                out.append(path)
    return out


def define_option(name: str, args: list[str], scope: Scope, options: set[str]) -> None:
    """option(NAME "help" [value]) and cmake_dependent_option(NAME "help" value ...): a user may set it with -D;
    its default stands until then (OFF for an option without one)."""
    if args[0] in scope.values:
        return
    if name == "option":
        scope.values[args[0]] = args[2] if len(args) > 2 else "OFF"
    elif len(args) >= 3:
        scope.values[args[0]] = args[2]
    else:
        return
    options.add(args[0])


def filename_part(path: str, mode: str) -> str:
    """get_filename_component's part of `path` for every mode but ABSOLUTE and REALPATH (those need the tree)."""
    base = posixpath.basename(path)
    parts = {
        "NAME": base,
        "NAME_WE": base.split(".", 1)[0],
        "NAME_WLE": posixpath.splitext(base)[0],
        "EXT": "." + base.split(".", 1)[1] if "." in base else "",
        "LAST_EXT": posixpath.splitext(path)[1],
        "DIRECTORY": posixpath.dirname(path),
        "PATH": posixpath.dirname(path),
    }
    return parts.get(mode, UNKNOWN)


def configure_results(name: str, args: list[str], scope: Scope) -> None:
    """What only the configure step knows: a check_cxx_source_compiles result, an execute_process's output."""
    if name == "check_cxx_source_compiles" and len(args) > 1:
        scope.values[args[1]] = UNKNOWN
    if name == "execute_process" and "OUTPUT_VARIABLE" in args:
        index = args.index("OUTPUT_VARIABLE")
        if index + 1 < len(args):
            scope.values[args[index + 1]] = UNKNOWN
