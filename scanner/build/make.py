"""A Makefile read without running make: the branch a Linux x86-64 build takes, its rules, and the compiler
each recipe runs on which sources.

Evaluated: variables (`=`, `:=`, `::=`, `?=`, `+=`, `override`, `export`), `include` of the repository's own
files, ifeq/ifneq/ifdef/ifndef/else/endif, the functions wildcard, patsubst, subst, findstring, filter, filter-out,
addprefix, addsuffix, notdir, basename, dir, strip, sort, foreach, if, and `$(shell ...)` for `uname` (Linux,
x86_64) and `which`/`command -v` (the build's own tools are installed); explicit and pattern rules with their
automatic variables. Every target's recipe counts: `make <target>` builds any of them. A `$(shell ...)` it cannot
answer evaluates to nothing and is named in the result's unknowns.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import shlex

from scanner.build.conditions import PLATFORM_WORDS
from scanner.build.model import CLANG_CUDA, HIPCC, HOST_CC, NVCC, Compilation

_ASSIGN = re.compile(r"^(?:(?:override|export)\s+)*([A-Za-z_.][\w.-]*)\s*(\+=|\?=|::=|:=|!=|=)\s*(.*)$")
_RULE = re.compile(r"^([^:=#\t][^:=#]*?)\s*::?\s*(?!=)([^=]*)$")
_SOURCES = {".cu": "cuda", ".hip": "hip", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".c": "c"}
_MAX_EXPANSION = 200_000


def _compiler(word: str, line: str) -> str | None:
    name = posixpath.basename(word)
    if name.startswith("nvcc"):
        return NVCC
    if name.startswith("hipcc") or name.startswith("amdclang") or "--offload-arch=gfx" in line:
        return HIPCC
    if name.startswith("clang") and re.search(r"-x\s*cuda|--cuda-gpu-arch", line):
        return CLANG_CUDA
    if re.fullmatch(r"(?:[\w.-]*-)?(?:gcc|g\+\+|cc|c\+\+|clang\+\+|clang|icpx|icx)(?:-\d+)?", name):
        return HOST_CC
    return None


class Makefile:
    def __init__(self, rel: str, files: frozenset[str], read):
        self.rel = rel
        self.directory = posixpath.dirname(rel)
        self.files = files
        self.read = read
        # make's own defaults (`make -p`): a recipe of $(CXX) runs g++.
        self.vars: dict[str, tuple[str, bool]] = {
            "MAKE": ("make", False),
            "CURDIR": (".", False),
            "CC": ("cc", False),
            "CXX": ("g++", False),
        }
        self.rules: list[tuple[list[str], list[str], list[str], int, str]] = []  # targets, prereqs, recipe, line, file
        self.unknowns: list[str] = []
        self.platform_lines: dict[str, dict[int, str]] = {}
        self.seen: set[str] = set()
        # Where each variable was last assigned on the branch a Linux build takes: name -> (file, line); the build
        # switch edits a compiler variable there (scanner.translate.build_switch).
        self.assigned: dict[str, tuple[str, int]] = {}

    # -- expansion -----------------------------------------------------------------------------------------------
    def expand(self, text: str, local: dict | None = None, depth: int = 0) -> str:
        if "$" not in text or depth > 30:
            return text
        out, i = [], 0
        while i < len(text):
            ch = text[i]
            if ch != "$" or i + 1 >= len(text):
                out.append(ch)
                i += 1
                continue
            nxt = text[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt in "({":
                close = ")" if nxt == "(" else "}"
                j, level = i + 2, 1
                while j < len(text) and level:
                    if text[j] == nxt:
                        level += 1
                    elif text[j] == close:
                        level -= 1
                    j += 1
                body = text[i + 2 : j - 1]
                out.append(self._reference(body, local, depth))
                i = j
            else:
                out.append(self._variable(nxt, local, depth))
                i += 2
            if sum(len(p) for p in out) > _MAX_EXPANSION:
                break
        return "".join(out)

    def _variable(self, name: str, local, depth) -> str:
        if local and name in local:
            return local[name]
        value, recursive = self.vars.get(name, ("", False))
        return self.expand(value, local, depth + 1) if recursive else value

    def _reference(self, body: str, local, depth) -> str:
        match = re.match(r"([a-z-]+)\s+(.*)$", body, re.S)
        if match is None or match.group(1) not in _FUNCTIONS:
            if ":" in body and "=" in body:  # $(VAR:.cu=.o), $(VAR:%.cu=%.o)
                name, _, sub = body.partition(":")
                old, _, new = sub.partition("=")
                words = self.expand(f"$({name})", local, depth + 1).split()
                if "%" in old:  # make's patsubst
                    stems = [(w, _stem(old, w)) for w in words]
                    return " ".join(w if stem is None else new.replace("%", stem, 1) for w, stem in stems)
                return " ".join(w[: -len(old)] + new if old and w.endswith(old) else w for w in words)
            return self._variable(self.expand(body, local, depth + 1), local, depth)
        return _FUNCTIONS[match.group(1)](self, match.group(2), local, depth)

    def _args(self, text: str, count: int, local, depth) -> list[str]:
        parts, level, current = [], 0, []
        for ch in text:
            if ch in "({":
                level += 1
            elif ch in ")}":
                level -= 1
            if ch == "," and level == 0 and len(parts) < count - 1:
                parts.append("".join(current))
                current = []
            else:
                current.append(ch)
        parts.append("".join(current))
        return parts

    # -- reading -------------------------------------------------------------------------------------------------
    def read_file(self, rel: str) -> None:
        if rel in self.seen:
            return
        self.seen.add(rel)
        lines = _logical_lines(self.read(rel))
        stack: list[list] = []  # [this branch taken, some branch of the chain taken, parent active]
        recipe_target: list | None = None
        for number, line in lines:
            active = all(frame[0] for frame in stack)
            stripped = line.strip()
            directive = re.match(r"(ifeq|ifneq|ifdef|ifndef|else|endif)\b\s*(.*)$", stripped)
            if directive and not line.startswith("\t"):
                kind, rest = directive.groups()
                if kind in ("ifeq", "ifneq", "ifdef", "ifndef"):
                    value = self._condition(kind, rest) if active else False
                    stack.append([value, value, number, rest, kind])
                elif kind == "else" and stack:
                    frame = stack[-1]
                    inner = re.match(r"(ifeq|ifneq|ifdef|ifndef)\b\s*(.*)$", rest)
                    self._mark_platform(rel, frame, number)
                    if frame[1]:
                        frame[0] = False
                    elif inner:
                        frame[0] = self._condition(inner.group(1), inner.group(2))
                        frame[3], frame[4] = inner.group(2), inner.group(1)
                    else:
                        frame[0] = True
                        frame[3], frame[4] = "not (" + frame[3] + ")", "else"
                    frame[1] = frame[1] or frame[0]
                    frame[2] = number
                elif kind == "endif" and stack:
                    self._mark_platform(rel, stack[-1], number)
                    stack.pop()
                recipe_target = None
                continue
            if not active:
                continue
            if line.startswith("\t") and recipe_target is not None:
                recipe_target[2].append((number, line[1:]))
                continue
            if not stripped or stripped.startswith("#"):
                continue
            include = re.match(r"-?include\s+(.*)$", stripped) or re.match(r"sinclude\s+(.*)$", stripped)
            if include:
                for name in self.expand(include.group(1)).split():
                    path = posixpath.normpath(posixpath.join(self.directory, name))
                    if path in self.files:
                        self.read_file(path)
                continue
            assign = _ASSIGN.match(stripped)
            if assign:
                if assign.group(2) != "?=" or assign.group(1) not in self.vars:
                    self.assigned[assign.group(1)] = (rel, number)
                self._assign(*assign.groups())
                recipe_target = None
                continue
            rule = _RULE.match(stripped)
            if rule:
                targets = self.expand(rule.group(1)).split()
                prereqs_text, _, inline = rule.group(2).partition(";")
                prereqs = self.expand(prereqs_text.split("|")[0]).split()
                recipe_target = [targets, prereqs, [(number, inline)] if inline.strip() else [], number, rel]
                self.rules.append(recipe_target)
                continue
        for frame in stack:
            self.unknowns.append(f"{rel}:{frame[2]}: `{frame[4]}` without endif")

    def _mark_platform(self, rel: str, frame: list, end: int) -> None:
        if frame[0] is False and PLATFORM_WORDS.search(frame[3] or ""):
            lines = self.platform_lines.setdefault(rel, {})
            for line in range(frame[2] + 1, end):
                lines.setdefault(line, f"{frame[4]} {frame[3]}".strip())

    def _assign(self, name: str, op: str, value: str) -> None:
        if op == "?=":
            if name not in self.vars:
                self.vars[name] = (value, True)
        elif op in (":=", "::="):
            self.vars[name] = (self.expand(value), False)
        elif op == "+=":
            old, recursive = self.vars.get(name, ("", True))
            self.vars[name] = (f"{old} {value if recursive else self.expand(value)}".strip(), recursive)
        elif op == "!=":
            self.vars[name] = (_shell(self, value, None, 0), False)
        else:
            self.vars[name] = (value, True)

    def _condition(self, kind: str, rest: str) -> bool:
        if kind in ("ifdef", "ifndef"):
            name = self.expand(rest.strip())
            defined = bool(self.vars.get(name, ("", False))[0])
            return defined if kind == "ifdef" else not defined
        left, right = _pair(rest)
        equal = self.expand(left).strip() == self.expand(right).strip()
        return equal if kind == "ifeq" else not equal

    # -- compilations --------------------------------------------------------------------------------------------
    def compilations(self) -> list[tuple[str, Compilation, list[str]]]:
        out = []
        explicit = [r for r in self.rules if not any("%" in t for t in r[0])]
        patterns = [r for r in self.rules if any("%" in t for t in r[0])]
        wanted = {p for r in explicit for p in r[1]} | {t for r in explicit for t in r[0]}
        for targets, prereqs, recipe, _line, rel in explicit:
            for target in targets:
                local = {
                    "@": target,
                    "<": prereqs[0] if prereqs else "",
                    "^": " ".join(dict.fromkeys(prereqs)),
                    "+": " ".join(prereqs),
                    "*": "",
                }
                out += self._recipe(target, recipe, local, rel)
        for targets, prereqs, recipe, _line, rel in patterns:
            pattern = next(t for t in targets if "%" in t)
            source_pattern = next((p for p in prereqs if "%" in p), "")
            if not source_pattern:
                continue
            for want in sorted(wanted):
                stem = _stem(pattern, want)
                if stem is None:
                    continue
                source = source_pattern.replace("%", stem, 1)
                path = posixpath.normpath(posixpath.join(self.directory, source))
                if path not in self.files:
                    continue
                local = {"@": want, "<": source, "^": source, "+": source, "*": stem}
                out += self._recipe(want, recipe, local, rel)
        return out

    def _recipe(self, target, recipe, local, rel) -> list:
        out = []
        for number, command in recipe:
            text = self.expand(command, local).strip().lstrip("@-+").strip()
            try:
                words = shlex.split(text, comments=False)
            except ValueError:
                words = text.split()
            while words and ("=" in words[0] and not words[0].startswith("-")):
                words = words[1:]  # VAR=value before the command
            if not words:
                continue
            compiler = _compiler(words[0], text)
            if compiler is None:
                continue
            includes, defines, standard, forced = [], [], "", ""
            sources = []
            for index, word in enumerate(words[1:], 1):
                if word.startswith("-I") and len(word) > 2:
                    includes.append(self._path(word[2:]))
                elif word == "-I" and index + 1 < len(words):
                    includes.append(self._path(words[index + 1]))
                elif word.startswith("-D") and len(word) > 2:
                    defines.append(word[2:])
                elif re.match(r"--?std=", word):
                    standard = word.split("=", 1)[1]
                elif word == "-x" and index + 1 < len(words):
                    forced = words[index + 1]
                elif posixpath.splitext(word)[1] in _SOURCES and not word.startswith("-"):
                    path = self._path(word)
                    if path in self.files:
                        sources.append(path)
            for source in sources:
                language = forced if forced in ("cuda", "hip") else _SOURCES[posixpath.splitext(source)[1]]
                if compiler == HIPCC:
                    language = "hip" if language in ("cuda", "c++", "hip") else language
                elif compiler == NVCC and language == "c++" and not forced:
                    language = "c++"
                out.append(
                    (
                        source,
                        Compilation(
                            target, rel, number, "make", compiler, language, standard, tuple(includes), tuple(defines)
                        ),
                        [],
                    )
                )
        return out

    def _path(self, word: str) -> str:
        if word.startswith("/"):
            return word
        return posixpath.normpath(posixpath.join(self.directory, word))


def _stem(pattern: str, name: str) -> str | None:
    prefix, _, suffix = pattern.partition("%")
    if name.startswith(prefix) and name.endswith(suffix) and len(name) >= len(prefix) + len(suffix):
        return name[len(prefix) : len(name) - len(suffix)]
    return None


def _pair(rest: str) -> tuple[str, str]:
    rest = rest.strip()
    if rest.startswith("("):
        body = rest[1 : rest.rfind(")")]
        level = 0
        for index, ch in enumerate(body):
            if ch in "({":
                level += 1
            elif ch in ")}":
                level -= 1
            elif ch == "," and level == 0:
                return body[:index], body[index + 1 :]
        return body, ""
    quoted = re.findall(r"\"([^\"]*)\"|'([^']*)'", rest)
    if len(quoted) >= 2:
        return quoted[0][0] or quoted[0][1], quoted[1][0] or quoted[1][1]
    return rest, ""


def _logical_lines(text: str) -> list[tuple[int, str]]:
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        start, line = i + 1, lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].lstrip()
        if not line.startswith("\t"):
            line = re.sub(r"(?<!\\)#.*$", "", line)
        out.append((start, line.rstrip()))
        i += 1
    return out


def _shell(make: Makefile, command: str, local, depth) -> str:
    command = make.expand(command, local, depth + 1).strip()
    if re.fullmatch(r"uname(\s+-s)?(\s+2>\s*/dev/null)?", command):
        return "Linux"
    if re.fullmatch(r"uname\s+-[mp](\s+2>\s*/dev/null)?", command):
        return "x86_64"
    tool = re.fullmatch(
        r"(?:which|command\s+-v|type\s+-p)\s+([\w.+-]+)(?:\s+2>\s*/dev/null)?(?:\s*\|\|\s*true)?", command
    )
    if tool:
        return f"/usr/bin/{tool.group(1)}"
    make.unknowns.append(f"$(shell {command[:80]})")
    return ""


def _fn_wildcard(make, text, local, depth):
    out = []
    for pattern in make.expand(text, local, depth + 1).split():
        full = posixpath.normpath(posixpath.join(make.directory, pattern))
        matches = sorted(f for f in make.files if fnmatch.fnmatchcase(f, full) and f.count("/") == full.count("/"))
        out += [posixpath.relpath(m, make.directory or ".") for m in matches]
    return " ".join(out)


def _fn_patsubst(make, text, local, depth):
    pattern, replacement, words = (make.expand(a, local, depth + 1).strip() for a in make._args(text, 3, local, depth))
    out = []
    for word in words.split():
        stem = _stem(pattern, word) if "%" in pattern else ("" if word == pattern else None)
        out.append(word if stem is None else replacement.replace("%", stem, 1))
    return " ".join(out)


def _fn_filter(make, text, local, depth, keep=True):
    patterns, words = (make.expand(a, local, depth + 1).split() for a in make._args(text, 2, local, depth))
    matches = lambda w: any(_stem(p, w) is not None if "%" in p else p == w for p in patterns)  # noqa: E731
    return " ".join(w for w in words if matches(w) == keep)


def _fn_foreach(make, text, local, depth):
    var, words, body = make._args(text, 3, local, depth)
    var = make.expand(var, local, depth + 1).strip()
    out = []
    for word in make.expand(words, local, depth + 1).split():
        out.append(make.expand(body, {**(local or {}), var: word}, depth + 1))
    return " ".join(out)


def _fn_if(make, text, local, depth):
    parts = make._args(text, 3, local, depth)
    condition = make.expand(parts[0], local, depth + 1).strip()
    chosen = parts[1] if condition else (parts[2] if len(parts) > 2 else "")
    return make.expand(chosen, local, depth + 1)


def _words(fn):
    return lambda make, text, local, depth: " ".join(fn(w) for w in make.expand(text, local, depth + 1).split())


def _two(fn):
    def apply(make, text, local, depth):
        first, rest = (make.expand(a, local, depth + 1) for a in make._args(text, 2, local, depth))
        return fn(first.strip(), rest)

    return apply


_FUNCTIONS = {
    "shell": _shell,
    "wildcard": _fn_wildcard,
    "patsubst": _fn_patsubst,
    "filter": _fn_filter,
    "filter-out": lambda m, t, loc, d: _fn_filter(m, t, loc, d, keep=False),
    "foreach": _fn_foreach,
    "if": _fn_if,
    "notdir": _words(posixpath.basename),
    "dir": _words(lambda w: (posixpath.dirname(w) or ".") + "/"),
    "basename": _words(lambda w: posixpath.splitext(w)[0]),
    "addprefix": _two(lambda p, words: " ".join(p + w for w in words.split())),
    "addsuffix": _two(lambda s, words: " ".join(w + s for w in words.split())),
    "strip": lambda m, t, loc, d: " ".join(m.expand(t, loc, d + 1).split()),
    "sort": lambda m, t, loc, d: " ".join(sorted(set(m.expand(t, loc, d + 1).split()))),
    "subst": lambda m, t, loc, d: (lambda a: a[2].replace(a[0], a[1]))(
        [m.expand(x, loc, d + 1) for x in m._args(t, 3, loc, d)] + ["", ""]
    ),
    "findstring": lambda m, t, loc, d: (lambda a: a[0] if a[0] and a[0] in a[1] else "")(
        [m.expand(x, loc, d + 1) for x in m._args(t, 2, loc, d)] + [""]
    ),
    "info": lambda m, t, loc, d: "",
    "warning": lambda m, t, loc, d: "",
    "error": lambda m, t, loc, d: "",
    "firstword": lambda m, t, loc, d: (m.expand(t, loc, d + 1).split() or [""])[0],
}


def read_makefiles(files: frozenset[str], read) -> list[Makefile]:
    names = ("Makefile", "makefile", "GNUmakefile")
    out = []
    for rel in sorted(f for f in files if posixpath.basename(f) in names):
        make = Makefile(rel, files, read)
        make.read_file(rel)
        out.append(make)
    return out
