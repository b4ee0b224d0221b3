"""A CMake project read without running CMake: its targets and what each compiles, for a Linux x86-64 host in the
default configuration (options at their defaults, nothing given with -D).

Evaluated: set/unset/option/list(APPEND|PREPEND|REMOVE_ITEM)/file(GLOB[_RECURSE]), if/elseif/else (three-valued,
scanner.build.conditions), foreach, function and macro (cmake_parse_arguments too), add_subdirectory and include of
the repository's own files, project/enable_language, add_executable/add_library (and cuda_/hip_/pybind11_ forms),
target_sources, target_/include_directories, target_/add_compile_definitions, add_definitions,
target_/add_compile_options (-D, -I, -std= only), target_compile_features (cxx_std_NN, cuda_std_NN),
set_target_properties and set_property(TARGET|SOURCE), set_source_files_properties (LANGUAGE), the
CMAKE_<LANG>_STANDARD / _COMPILER / _FLAGS variables, target_link_libraries (usage requirements of the project's
own targets) and generator expressions (scanner.build.genex). Anything else that could change what compiles is
named in the result's unknowns, with its file and line.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from scanner.build import cmake_targets
from scanner.build.cmake_targets import Target, add_sources, add_target, set_properties, target_usage
from scanner.build.cmake_values import (
    UNKNOWN_WORD,
    configure_results,
    define_option,
    filename_part,
    glob,
    host_variables,
    list_command,
    parse_arguments,
    set_variable,
    string_command,
)
from scanner.build.conditions import PLATFORM_WORDS, UNKNOWN, Scope, evaluate
from scanner.build.model import Compilation
from scanner.formats.cmake import Command, parse_commands

_VISIBILITY = {"PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
_MAX_CALLS = 20000  # commands run per project: a recursive function stops here, reported


@dataclass
class _Dir:
    rel: str
    includes: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)


class _Stop(Exception):
    pass


class CMakeProject:
    """One top-level CMakeLists.txt and the directories it adds."""

    def __init__(self, root: str, files: frozenset[str], read):
        self.root = root.rstrip("/")
        self.files = files
        self.read = read  # rel -> text or ""
        self.targets: dict[str, Target] = {}
        self.languages: set[str] = set()
        self.source_language: dict[str, str] = {}
        self.unknowns: list[str] = []
        self.platform_lines: dict[str, dict[int, str]] = {}
        self.visited: set[str] = set()
        self.functions: dict[str, tuple[list[str], list[Command], bool, str]] = {}
        # Files a file(GLOB) matched, and where: the build names them, as a literal source would.
        self.globbed: dict[str, str] = {}
        # How many option branches off by default enclose the command running now (what they do to a target
        # made outside them is not the default build's).
        self.offered_depth = 0
        # Options the files declare: a branch false only at an option's default is a build the project offers.
        self.options: set[str] = set()
        # The highest `cmake_minimum_required(VERSION x)` read: a branch only an older CMake takes is dead.
        self.minimum_version = ""
        self.calls = 0

    # -- paths ---------------------------------------------------------------------------------------------------
    def _abs(self, rel: str) -> str:
        return f"{self.root}/{rel}" if rel else self.root

    def _rel(self, path: str, directory: str) -> str | None:
        """Repository-relative form of `path` (relative to `directory`), or None outside the tree."""
        if path.startswith("/"):
            if path == self.root:
                return ""
            if not path.startswith(self.root + "/"):
                return None
            path = path[len(self.root) + 1 :]
        else:
            path = posixpath.join(directory, path)
        path = posixpath.normpath(path)
        return None if path.startswith("..") else ("" if path == "." else path)

    # -- running -------------------------------------------------------------------------------------------------
    def run_file(self, rel: str, scope: Scope, directory: _Dir, conditions: list[str] | None = None) -> None:
        if rel in self.visited:
            return
        self.visited.add(rel)
        text = self.read(rel)
        base = posixpath.dirname(rel)
        scope.values["CMAKE_CURRENT_LIST_DIR"] = self._abs(base)
        scope.values["CMAKE_CURRENT_LIST_FILE"] = self._abs(rel)
        self._block(parse_commands(text), 0, None, scope, directory, rel, list(conditions or []))

    def _block(self, commands, start, end_names, scope, directory, rel, conditions) -> int:
        """Runs commands from `start` until one named in `end_names`; returns that command's index."""
        i = start
        while i < len(commands):
            command = commands[i]
            if end_names and command.name in end_names:
                return i
            self.calls += 1
            if self.calls > _MAX_CALLS:
                raise _Stop
            if command.name == "if":
                i = self._if(commands, i, scope, directory, rel, conditions)
            elif command.name == "foreach":
                i = self._foreach(commands, i, scope, directory, rel, conditions)
            elif command.name == "while":
                end = self._skip(commands, i + 1, "while", "endwhile")
                self.unknowns.append(f"while() at {rel}:{command.line}")
                i = end + 1
            elif command.name in ("function", "macro"):
                end = self._skip(commands, i + 1, command.name, "end" + command.name)
                words = [a.value for a in command.args]
                if words:
                    self.functions[words[0].lower()] = (words[1:], commands[i + 1 : end], command.name == "macro", rel)
                i = end + 1
            else:
                self._command(command, scope, directory, rel, conditions)
                i += 1
        return i

    def _skip(self, commands, i, opener, closer) -> int:
        depth = 1
        while i < len(commands):
            if commands[i].name == opener:
                depth += 1
            elif commands[i].name == closer:
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return i

    def _if(self, commands, i, scope, directory, rel, conditions) -> int:
        # The chain's branches: (command, start, end).
        branches, j, depth = [], i + 1, 1
        head = i
        while j < len(commands):
            name = commands[j].name
            if name == "if":
                depth += 1
            elif name == "endif":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and name in ("elseif", "else"):
                branches.append((commands[head], head + 1, j))
                head = j
            j += 1
        branches.append((commands[head], head + 1, j))
        taken = False  # an earlier branch surely taken
        maybe_before: list[str] = []
        for branch_command, start, stop in branches:
            text = _condition_text(branch_command)
            if branch_command.name == "else":
                value = None if maybe_before else True
            else:
                value = self._condition(branch_command, scope)
            if taken:
                value = False
            end_line = commands[stop].line if stop < len(commands) else branch_command.line + 1
            if value is False and not taken and self._offered(branch_command, scope):
                # Off at the options' defaults, a build the project offers (-DGGML_HIP=ON): run with its
                # condition, in a copy of the scope, so the default configuration keeps its own values.
                label = f"{branch_command.name}({text}) at {rel}:{branch_command.line}, an option off by default"
                copy = _Dir(directory.rel, list(directory.includes), list(directory.defines), list(directory.options))
                kept = self.source_language  # its source properties hold for its own targets only
                self.source_language = dict(kept)
                offered = Scope(parent=scope)
                self.offered_depth += 1
                try:
                    self._run_range(commands, start, stop, offered, copy, rel, [*conditions, label])
                finally:
                    self.source_language = kept
                    self.offered_depth -= 1
                # What it sets switches later branches too (`set(BUILD_CUDA ON)` then `if(BUILD_CUDA)`).
                self.options.update(k for k, v in offered.values.items() if scope.values.get(k) != v)
                continue
            if value is False:
                if not taken and (PLATFORM_WORDS.search(text) or self._older_cmake(branch_command, scope)):
                    lines = self.platform_lines.setdefault(rel, {})
                    for line in range(branch_command.line + 1, end_line):
                        lines.setdefault(line, f"{branch_command.name}({text})")
                else:
                    self._older_cmake_inside(commands, start, stop, scope, rel)
                continue
            if value is None:
                label = f"{branch_command.name}({text}) at {rel}:{branch_command.line}"
                self._run_range(commands, start, stop, scope, directory, rel, [*conditions, label])
                maybe_before.append(label)
                continue
            self._run_range(commands, start, stop, scope, directory, rel, conditions)
            taken = True
        return j + 1

    def _run_range(self, commands, start, stop, scope, directory, rel, conditions) -> None:
        self._block(commands[:stop], start, None, scope, directory, rel, conditions)

    def _condition(self, command: Command, scope: Scope):
        args = []
        for arg in command.args:
            value, unknown = self._expand(arg.value, scope)
            # `if(${CUDA_FOUND})` after a find_package without REQUIRED: the value, not "", is unknown.
            args.append((UNKNOWN_WORD, False) if unknown and not value else (value, arg.quoted))
        return evaluate(args, scope, exists=self._exists)

    def _older_cmake(self, command: Command, scope: Scope) -> bool:
        """Whether a false condition on `CMAKE_VERSION` (`if(CMAKE_VERSION VERSION_LESS 3.18)`) stays false for the
        oldest CMake the project accepts (its highest `cmake_minimum_required`): a branch for a CMake the project
        refuses, which no configure takes."""
        if not self.minimum_version or not any("CMAKE_VERSION" in arg.value for arg in command.args):
            return False
        oldest = Scope({"CMAKE_VERSION": self.minimum_version}, parent=scope)
        return self._condition(command, oldest) is False

    def _older_cmake_inside(self, commands, start, stop, scope, rel) -> None:
        """The branches for a CMake older than the minimum inside a branch not run (`if(DEFINED ENV{CUDA_HOME})`
        around `if(CMAKE_VERSION VERSION_LESS 3.18)`): dead whatever the outer condition."""
        for k in range(start, stop):
            command = commands[k]
            if command.name in ("if", "elseif") and self._older_cmake(command, scope):
                end, depth = k + 1, 0
                while end < stop and not (depth == 0 and commands[end].name in ("elseif", "else", "endif")):
                    depth += {"if": 1, "endif": -1}.get(commands[end].name, 0)
                    end += 1
                last = commands[end].line if end < len(commands) else command.line + 1
                lines = self.platform_lines.setdefault(rel, {})
                for line in range(command.line + 1, last):
                    lines.setdefault(line, f"{command.name}({_condition_text(command)})")

    def _offered(self, command: Command, scope: Scope) -> bool:
        """A condition false at its options' defaults that switching them (-DGGML_HIP=ON) may make true."""
        args = [(self._expand(arg.value, scope)[0], arg.quoted) for arg in command.args]
        named = {word for word, _ in args} & self.options
        if {name for arg in command.args for name in re.findall(r"\$\{(\w+)\}", arg.value)} & self.options:
            return True  # `if(${COMPUTE_BACKEND} STREQUAL "cuda")`: another value of a cache variable takes it
        if not named:
            return False
        switched = Scope(parent=scope)
        switched.values.update(dict.fromkeys(named, UNKNOWN))
        return evaluate(args, switched, exists=self._exists) is not False

    def _exists(self, path: str):
        rel = self._rel(path, "")
        if rel is None:
            return None
        return rel == "" or rel in self.files or any(f.startswith(rel + "/") for f in self.files)

    def _foreach(self, commands, i, scope, directory, rel, conditions) -> int:
        end = self._skip(commands, i + 1, "foreach", "endforeach")
        words = self._args(commands[i], scope)
        if not words:
            return end + 1
        var, rest = words[0], words[1:]
        items: list[str] = []
        if rest[:1] == ["RANGE"]:
            numbers = [int(w) for w in rest[1:] if w.lstrip("-").isdigit()]
            items = (
                [str(n) for n in (range(numbers[0] + 1) if len(numbers) == 1 else range(numbers[0], numbers[1] + 1))]
                if numbers
                else []
            )
        elif rest[:1] == ["IN"]:
            mode = None
            for word in rest[1:]:
                if word in ("LISTS", "ITEMS", "ZIP_LISTS"):
                    mode = word
                elif mode == "LISTS":
                    value = scope.get(word)
                    items += [v for v in (value or "").split(";") if v] if value is not UNKNOWN else []
                else:
                    items.append(word)
        else:
            items = rest
        for item in items[:1000]:
            scope.values[var] = item
            self._block(commands[:end], i + 1, None, scope, directory, rel, conditions)
        return end + 1

    # -- expansion -----------------------------------------------------------------------------------------------
    def _expand(self, text: str, scope: Scope) -> tuple[str, bool]:
        unknown = False
        for _ in range(32):
            match = re.search(r"\$(ENV)?\{([^${}]*)\}", text)
            if match is None:
                break
            if match.group(1):
                value = None
                unknown = True
            else:
                value = scope.get(match.group(2))
                if value is UNKNOWN:
                    unknown, value = True, None
            text = text[: match.start()] + (value or "") + text[match.end() :]
        return text, unknown

    def _args(self, command: Command, scope: Scope) -> list[str]:
        out: list[str] = []
        for arg in command.args:
            value, _ = self._expand(arg.value, scope)
            if arg.quoted:
                out.append(value)
            else:
                out += [v for v in cmake_targets.split_list(value) if v != ""]
        return out

    # -- commands ------------------------------------------------------------------------------------------------
    def _command(self, command: Command, scope: Scope, directory: _Dir, rel: str, conditions: list[str]) -> None:
        name = command.name
        args = self._args(command, scope)
        where = f"{rel}:{command.line}"
        if name in self.functions:
            self._call(name, args, scope, directory, rel, conditions)
        elif name == "set":
            set_variable(args, scope, self.options)
        elif name == "cmake_minimum_required" and "VERSION" in args[:-1]:
            wanted = args[args.index("VERSION") + 1].split("...")[0]
            if _version(wanted) > _version(self.minimum_version):
                self.minimum_version = wanted
        elif name == "unset" and args:
            scope.values.pop(args[0], None)
        elif name in ("option", "cmake_dependent_option") and args:
            define_option(name, args, scope, self.options)
        elif name == "list" and len(args) >= 2:
            list_command(args, scope)
        elif name == "file" and args and args[0] in ("GLOB", "GLOB_RECURSE") and len(args) > 1:
            matched = [
                self._abs(p) for p in glob(self.files, args[2:], args[0] == "GLOB_RECURSE", directory.rel, self._rel)
            ]
            scope.values[args[1]] = ";".join(matched)
            for path in matched:  # named by the build, though perhaps on a path the default does not take
                self.globbed.setdefault(self._rel(path, ""), where)
        elif name == "string" and len(args) >= 3:
            string_command(args, scope)
        elif name == "cmake_parse_arguments" and len(args) >= 4:
            parse_arguments(args, scope)
        elif name == "project" and args:
            scope.values["PROJECT_NAME"] = args[0]
            scope.values["PROJECT_SOURCE_DIR"] = self._abs(directory.rel)
            languages = args[args.index("LANGUAGES") + 1 :] if "LANGUAGES" in args else []
            if "LANGUAGES" not in args:
                languages = [a for a in args[1:] if a in ("C", "CXX", "CUDA", "HIP")]
            self.languages.update(languages or ["C", "CXX"])
        elif name == "enable_language":
            self.languages.update(a for a in args if a != "OPTIONAL")
        elif name == "check_language" and args:
            scope.values[f"CMAKE_{args[0]}_COMPILER"] = UNKNOWN
        elif name == "find_package" and args:
            found = "TRUE" if "REQUIRED" in args else UNKNOWN
            for key in (f"{args[0]}_FOUND", f"{args[0].upper()}_FOUND"):
                if scope.get(key) is None:
                    scope.values[key] = found
        elif name == "add_subdirectory" and args:
            sub = self._rel(args[0], directory.rel)
            if sub is not None and f"{sub}/CMakeLists.txt".lstrip("/") in self.files:
                child = Scope(parent=scope)
                child.values["CMAKE_CURRENT_SOURCE_DIR"] = self._abs(sub)
                self.run_file(
                    f"{sub}/CMakeLists.txt".lstrip("/"),
                    child,
                    _Dir(sub, list(directory.includes), list(directory.defines), list(directory.options)),
                    conditions,
                )
                scope.values["CMAKE_CURRENT_LIST_DIR"] = self._abs(posixpath.dirname(rel))
            elif sub is None or not args[0].startswith("$"):
                self.unknowns.append(f"add_subdirectory({args[0]}) at {where}: no CMakeLists.txt in the repository")
        elif name == "include" and args and args[0] == "CTest":
            if "BUILD_TESTING" not in scope.values:  # CTest's own option, ON by default
                scope.values["BUILD_TESTING"] = "ON"
                self.options.add("BUILD_TESTING")
        elif name == "get_filename_component" and len(args) >= 3:
            path, mode = args[1], args[2]
            if mode in ("ABSOLUTE", "REALPATH"):
                rel = self._rel(path, directory.rel)
                scope.values[args[0]] = self._abs(rel) if rel is not None else path
            else:
                scope.values[args[0]] = filename_part(path, mode)
        elif name == "include" and args:
            target = self._rel(args[0], directory.rel)
            if target is not None and target in self.files:
                self.run_file(target, scope, directory, conditions)
                scope.values["CMAKE_CURRENT_LIST_DIR"] = self._abs(posixpath.dirname(rel))
        elif name in (
            "add_executable",
            "add_library",
            "cuda_add_executable",
            "cuda_add_library",
            "hip_add_executable",
            "hip_add_library",
            "pybind11_add_module",
            "nanobind_add_module",
            "python_add_library",
            "cuda_add_cufft_to_target",
        ):
            add_target(self, name, args, command, directory, rel, scope, conditions)
        elif name == "target_sources" and args:
            add_sources(self, args, directory, conditions)
        elif name in (
            "target_include_directories",
            "target_compile_definitions",
            "target_compile_options",
            "target_compile_features",
            "target_link_libraries",
        ):
            target_usage(self, name, args)
        elif name == "include_directories":
            # Absolute: a target resolves its includes against its own folder, but these are relative to the
            # folder that says include_directories (a sample's `../../../Common`), subfolders included.
            resolved = ((self._rel(a, directory.rel), a) for a in args if a not in _VISIBILITY)
            directory.includes += [self._abs(rel) if rel is not None else a for rel, a in resolved]
        elif name in ("add_compile_definitions",):
            directory.defines += [a.removeprefix("-D") for a in args]
        elif name in ("add_definitions", "add_compile_options"):
            for arg in args:
                if arg.startswith("-D"):
                    directory.defines.append(arg[2:])
                else:
                    directory.options.append(arg)
        elif name in ("set_target_properties", "set_source_files_properties", "set_property"):
            set_properties(self, name, args, directory)
        elif name in ("execute_process", "check_cxx_source_compiles"):
            configure_results(name, args, scope)

    def _call(self, name, args, scope, directory, rel, conditions) -> None:
        params, body, is_macro, defined_in = self.functions[name]
        inner = scope if is_macro else Scope(parent=scope)
        inner.values["ARGC"] = str(len(args))
        inner.values["ARGV"] = ";".join(args)
        inner.values["ARGN"] = ";".join(args[len(params) :])
        for index, value in enumerate(args):
            inner.values[f"ARGV{index}"] = value
        for param, value in zip(params, args, strict=False):
            inner.values[param] = value
        # The body's lines are those of the file that defines it: what it adds is located there.
        self._block(body, 0, None, inner, directory, defined_in, conditions)
        if not is_macro:
            for key in inner.values.pop("__parent_scope__", []) or []:
                scope.values[key] = inner.values.get(key)

    def source(self, value: str, directory: str) -> str:
        rel = self._rel(value, directory)
        return rel if rel is not None else value

    def offered_to(self, target: Target) -> bool:
        """Whether this runs in an option branch off by default that the target was made outside of."""
        return self.offered_depth > target.offered_depth

    def compilations(self) -> list[tuple[str, Compilation, list[str]]]:
        """(source, compilation, what could not be evaluated for it) for every source of every target."""
        return cmake_targets.compilations(self)


def _condition_text(command: Command) -> str:
    return " ".join(a.value for a in command.args)


def read_projects(root: str, files: frozenset[str], read) -> CMakeProject | None:
    """Every top-level CMakeLists.txt (one no other adds), run in path order into one project's targets."""
    lists = sorted(f for f in files if f == "CMakeLists.txt" or f.endswith("/CMakeLists.txt"))
    if not lists:
        return None
    project = CMakeProject(root, files, read)
    for rel in lists:
        if rel in project.visited:
            continue
        base = posixpath.dirname(rel)
        scope = Scope(host_variables(project._abs(base)))
        try:
            project.run_file(rel, scope, _Dir(base))
        except _Stop:
            project.unknowns.append(f"{rel}: stopped after {_MAX_CALLS} commands (a recursive function?)")
        except (RecursionError, ValueError, IndexError) as exc:
            project.unknowns.append(f"{rel}: not evaluated ({type(exc).__name__})")
    return project


def _version(text: str) -> tuple[int, ...]:
    """`3.20.1` as (3, 20, 1); () for none."""
    return tuple(int(part) for part in re.findall(r"\d+", text)[:4])
