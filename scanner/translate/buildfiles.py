"""Build files for the HIP port (issue 23): a conservative rewriter of CMakeLists.txt and Makefiles. Pure: no I/O.

    result = rewrite_cmake(text, renames={"src/k.cu": "src/k.hip"})
    result.text      # the new text (identical when nothing is safe to change)
    result.changes   # Change(line, before, after, why): what was translated, one entry per edit
    result.left      # Left(line, what, why): CUDA build constructs a person must port

Only rewrites whose HIP meaning is certain are made (the CMake language, find_package of the toolkit, LANGUAGE
properties, the runtime and a few library targets, the C++ standard settings, a Makefile's compiler variable,
renamed file references); the rest, and anything ambiguous, is reported in `left` with the HIP equivalent where
there is one. Comments and the prose of strings are never edited, a file that already builds HIP next to CUDA (a
dual-platform build) is not edited at all, and rewriting a rewritten file changes nothing. `renames` maps paths as
the build file spells them (relative to its directory) to their new names (side by side: `k.cu` -> `k.hip`).

A port rewrites a whole checkout with `switch_build`, which the build model (scanner.build) guides: the targets
that compile the ported sources take their `.hip` copies (side by side; also where a variable, a list, a loop or a
glob spells the source, when every source that spelling stands for is ported) or build them with the HIP language
(in place); the HIP language is enabled; a link list never names one HIP target twice. It then reads the model of
the result: whatever still builds a ported source from its `.cu`, builds CUDA or builds nothing is left for a person
at the target that lists it. No file is written: the model reads the texts from memory.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import time
from dataclasses import dataclass, field, replace

from scanner.build import cmake, make
from scanner.formats.cmake import Arg, Command, parse_commands
from scanner.rules.cmake.nvcc_flags import NVCC_FLAGS
from scanner.rules.textual import library_replacement

_ARCH = "`--offload-arch=gfxNNN` (gfx942 MI300X, gfx90a MI200; `CMAKE_HIP_ARCHITECTURES` in CMake)"
_WHY = {
    "dual": "a dual-platform build: nothing is rewritten (the CUDA path stays for NVIDIA); port what is below by hand",
    "findcuda": "a FindCUDA command (it runs nvcc), gone on ROCm: plain targets with HIP sources instead",
    "cuda_target": "FindCUDA's target (nvcc, CUDA_NVCC_FLAGS, OPTIONS): add_library/add_executable with HIP sources",
    "find_options": "options beyond a version, QUIET and REQUIRED have no sure hip meaning: `find_package(hip)` by hand",
    "arch": f"an sm number has no mechanical gfx equivalent: {_ARCH} for the AMD GPUs you target",
    "separable": "CMake has no HIP_SEPARABLE_COMPILATION: add `-fgpu-rdc` to the HIP compile and link options",
    "cuda_var": "set by or for CUDA's toolkit or language, unread by HIP: hip's targets, `CMAKE_HIP_*` (options ported)",
    "genex": "matches no source once they are HIP (its options drop out): port them to `$<COMPILE_LANGUAGE:HIP>`",
    "cu": "compiled as CUDA by its extension: rename it `.hip` or `set_source_files_properties(... LANGUAGE HIP)`",
    "glob": "a glob of .cu sources: the HIP copies (.hip), or LANGUAGE HIP on the matches, by hand",
    "quoted": "in a string, which is not edited: by hand",
    "minimum": "the HIP language needs CMake >= 3.21; raising it turns on newer policies too (CMP0104-CMP0126)",
    "nvcc_run": "runs nvcc, which ROCm machines lack: call hipcc (or the compiler variable)",
    "pattern": "a pattern over .cu files: the HIP copies are .hip (hipcc compiles both), switch it by hand",
    "toolkit": "a CUDA toolkit path: ROCm's is `$(ROCM_PATH)` (/opt/rocm)",
}


@dataclass(frozen=True)
class Change:
    line: int
    before: str
    after: str
    why: str


@dataclass(frozen=True)
class Left:
    line: int
    what: str
    why: str


@dataclass
class Rewrite:
    text: str
    changes: list[Change] = field(default_factory=list)
    left: list[Left] = field(default_factory=list)
    # CMake: offsets of the `.cu` path pieces not renamed literally (spelled through a variable, a glob, another
    # prefix), which `Switch.suffixes` may turn into `.hip`; `switch_build` lets the build model choose among them.
    candidates: list[int] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.changes)


class _Edits:
    """Replacements by offset (applied back to front at the end) and the report that goes with them."""

    def __init__(self, text: str):
        self.text, self.edits, self.changes, self.left, self.seen = text, [], [], [], set()
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self.frozen = False  # a dual-platform file: report, change nothing

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col - 1

    def replace(self, start: int, end: int, new: str, why: str, before: str = "", after: str = "") -> None:
        if not self.frozen and all(end <= s or start >= e or s == e == start for s, e, _ in self.edits):
            self.edits.append((start, end, new))
            line = self.text.count("\n", 0, start) + 1
            self.changes.append(Change(line, before or self.text[start:end], after or new, why))

    def leave(self, line: int, what: str, why: str, key: str = "") -> None:
        if (line, key or what) not in self.seen:
            self.seen.add((line, key or what))
            self.left.append(Left(line, what, _WHY.get(why, why)))

    def result(self) -> Rewrite:
        text = self.text
        # Back to front; of two insertions at one offset the later is applied first, so it ends up after.
        for _, (start, end, new) in sorted(enumerate(self.edits), key=lambda e: (e[1][0], e[0]), reverse=True):
            text = text[:start] + new + text[end:]
        return Rewrite(text, sorted(self.changes, key=lambda c: c.line), sorted(self.left, key=lambda x: x.line))


@dataclass(frozen=True)
class Switch:
    """What the build model decided for one CMake file (`switch_build`; rewrite_cmake's `switch`)."""

    suffixes: frozenset[int] = frozenset()  # offsets of `.cu` path pieces (Rewrite.candidates) to end in `.hip`
    language_hip: tuple[str, ...] = ()  # in place: sources, as this file spells them, to build as HIP
    enable_hip: bool = False  # add `enable_language(HIP)` after this file's project()
    project_hip: bool = False  # the project enables the HIP language (in this file or another)
    found: frozenset[str] = frozenset()  # packages a file that runs before this one finds (find_package)


def _nvcc_flags(ed: _Edits, line: int, value: str) -> None:
    # nvcc options are left, each with its hipcc/clang equivalent: context decides (a flag list may feed nvcc still).
    for pattern, advice in NVCC_FLAGS:
        for match in pattern.finditer(value):
            flag = match.group(0) + (re.match(r"[= ]arch=\S+", value[match.end() :]) or [""])[0]
            why = f"an nvcc option that hipcc/clang rejects: {advice.format(arch=_ARCH)}"
            ed.leave(line + value.count("\n", 0, match.start()), flag, why)


# ---------------------------------------------------------------------------------------------------- CMake

# CMake names whose HIP counterpart means the same thing (all exist since CMake 3.21: `cmake --help-property-list`).
_SAME_MEANING = {f"{p}CUDA_{s}": f"{p}HIP_{s}" for p in ("CMAKE_", "") for s in ("STANDARD", "EXTENSIONS")}
_SAME_MEANING |= {f"{p}CUDA_STANDARD_REQUIRED": f"{p}HIP_STANDARD_REQUIRED" for p in ("CMAKE_", "")}
# CUDAToolkit targets with a sure HIP target: (target, package): the runtime, and the hip* libraries the default
# translation (hipify, no --roc) calls. cuFFT, cuSOLVER, cuBLASLt, NVTX, ... map only in part: left.
_TARGETS = {n: ("hip::host", "hip") for n in ("cudart", "cudart_static", "cuda_driver")}
_TARGETS |= {"cublas": ("roc::hipblas", "hipblas"), "curand": ("hip::hiprand", "hiprand")}
_TARGETS |= {"cusparse": ("roc::hipsparse", "hipsparse")}
_CUDA_TARGET = re.compile(r"(?<![\w:])CUDA::(\w+)(?![\w:])")
_ARCH_NAMES = re.compile(r"(?<!\w)(CMAKE_CUDA_ARCHITECTURES|CUDA_ARCHITECTURES|TORCH_CUDA_ARCH_LIST|CUDAARCHS)(?!\w)")
_CUDA_VARS = re.compile(
    r"(?<!\w)(CMAKE_CUDA_\w+|CUDAToolkit_\w+|CUDA_(?:LIBRARIES|INCLUDE_DIRS?|TOOLKIT_\w+|NVCC_\w+|VERSION\w*|FOUND"
    r"|\w+_LIBRAR(?:Y|IES)|HOST_COMPILER|PROPAGATE_HOST_FLAGS|SEPARABLE_COMPILATION|RESOLVE_DEVICE_SYMBOLS"
    r"|RUNTIME_LIBRARY|PTX_COMPILATION))(?!\w)"
)
_OTHER_PACKAGES = {"cudnn": "MIOpen (`find_package(miopen)`; a port, not a rename)", "nccl": "RCCL (`rccl::rccl`)"}
_OTHER_PACKAGES |= {"tensorrt": "none (MIGraphX is the closest)", "nvtx3": "roctx", "nvtx": "roctx"}
_OTHER_PACKAGES |= {"cutlass": "Composable Kernel", "cub": "hipCUB", "thrust": "rocThrust"}
_BARE_LIBS = {"cudart", "cublas", "cublaslt", "cufft", "curand", "cusparse", "cusolver", "cudnn", "nccl", "nvrtc"}
_VERSION = re.compile(r"\d+(?:\.\d+)*(?:\.\.\.\d+(?:\.\d+)*)?")
_CONDITIONS = {"if", "elseif", "else", "endif", "while", "endwhile"}
_SOURCE_LISTS = {"add_library", "add_executable", "target_sources", "cuda_add_library", "cuda_add_executable", "set"}
_PROPERTY_COMMANDS = {"set_source_files_properties", "set_property", "set_target_properties"}
_PREFIXES = ("", "./", "${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/")
_TARGET_KEYWORDS = {"STATIC", "SHARED", "MODULE", "EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE"}


_DUAL = "CUDA and HIP both configured"
_SYNTAX = re.compile(r'#\[(=*)\[.*?\]\1\]|#\[=*\[|#[^\n]*|"(?:\\.|[^"\\])*"|\[(=*)\[.*?\]\2\]|\[=*\[|\\.|["()]', re.S)


def _balanced(text: str) -> bool:
    """Parentheses closed, strings and brackets terminated: a file whose commands this module can follow."""
    depth = 0
    for token in (m.group(0) for m in _SYNTAX.finditer(text)):
        depth += {"(": 1, ")": -1}.get(token, 0)
        if depth < 0 or token == '"' or token.endswith("["):
            return False
    return depth == 0


class _CMake:
    def __init__(self, text: str, renames: dict[str, str] | None, roc: bool, switch: Switch | None = None):
        self.ed, self.text, self.renames, self.roc = _Edits(text), text, renames or {}, roc
        self.switch = switch or Switch()
        self.commands = parse_commands(text)
        self.found: dict[str, tuple[int | None, bool]] = {}  # package -> (offset after its find_package, REQUIRED)
        self.rewritten: set[str] = set()  # find_package(CUDA/CUDAToolkit) and check_language(CUDA) rewritten
        self.renamed: set[str] = set()
        self.marked = {a.value for c in self.commands if c.name == "set_source_files_properties" for a in c.args}
        self.marked |= set(self.switch.language_hip)
        self.hip_language = False  # this file now enables HIP
        self.candidates: list[int] = []
        self.switched: set[tuple[int, int]] = set()  # (line, col) of arguments whose `.cu` pieces became `.hip`
        self.linked: dict[int, set[str]] = {}  # per command (its offset): the items it names, and those it gains

    def span(self, arg: Arg) -> tuple[int, int] | None:
        """Offsets of an argument's value; None for a bracket argument (never edited)."""
        start = self.ed.offset(arg.line, arg.col)
        if arg.quoted and self.text[start] == "[":
            return None
        start += 1 if arg.quoted else 0
        return start, start + len(arg.value)

    def after_line(self, cmd: Command) -> int | None:
        """The offset just after the line that closes `cmd` (where a new command can go)."""
        end = self.span(cmd.args[-1]) if cmd.args else None
        close = re.compile(r"[\"\s]*\)").match(self.text, end[1]) if end else None
        newline = self.text.find("\n", close.end()) if close else -2
        return None if close is None else len(self.text) if newline < 0 else newline + 1

    def run(self) -> Rewrite:
        langs = {a.value for c in self.commands for a in self._languages(c)}
        finds = {c.args[0].value.lower() for c in self.commands if c.name == "find_package" and c.args}
        if ("HIP" in langs or "hip" in finds) and ("CUDA" in langs or finds & {"cuda", "cudatoolkit"}):
            self.ed.frozen = True
            self.ed.leave(1, _DUAL, "dual")
        if not _balanced(self.text):
            self.ed.frozen = True
            self.ed.leave(1, "unbalanced CMake", "an unclosed parenthesis, string or bracket: nothing is rewritten")
        for cmd in self.commands:
            self.command(cmd)
        if self.switch.language_hip:
            self.mark_hip(self.switch.language_hip)
        for old, new in _SAME_MEANING.items():
            self.rename_variable(old, new, "the HIP language reads the HIP name, same meaning (CMake 3.21)")
        for package in ("CUDA", "CUDAToolkit"):
            if package in self.rewritten:  # hip's package is found where the toolkit was: the same test
                self.rename_variable(f"{package}_FOUND", "hip_FOUND", "the package found is now hip", _CONDITIONS)
        if "check_language" in self.rewritten:  # check_language(HIP) sets the HIP name: the same test
            self.rename_variable("CMAKE_CUDA_COMPILER", "CMAKE_HIP_COMPILER", "set by check_language(HIP)", _CONDITIONS)
        self.report_left()
        result = self.ed.result()
        result.candidates = self.candidates
        return result

    def _languages(self, cmd: Command) -> list[Arg]:
        """The language arguments of project/enable_language/check_language."""
        if cmd.name in ("enable_language", "check_language"):
            return [a for a in cmd.args if not a.quoted]
        out, keyword = [], None
        for arg in cmd.args[1:] if cmd.name == "project" else ():
            if arg.value in ("VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES"):
                keyword = arg.value
            elif keyword in (None, "LANGUAGES") and not arg.quoted:
                out.append(arg)
        return out

    def command(self, cmd: Command) -> None:
        for arg in self._languages(cmd):
            if arg.value == "CUDA" and (where := self.span(arg)):
                # CMake's HIP language (3.21+) compiles the ported sources; CUDA's needs nvcc, absent on ROCm.
                self.ed.replace(*where, "HIP", f"`{cmd.name}`: CMake's HIP language compiles the ported sources")
                self.hip_language |= cmd.name != "check_language" and not self.ed.frozen
                self.rewritten |= {"check_language"} if cmd.name == "check_language" else set()
        if cmd.name == "project" and self.switch.enable_hip and not self.hip_language and (at := self.after_line(cmd)):
            # The HIP sources the targets now list need CMake's HIP language (3.21+), enabled where the project is.
            self.ed.replace(at, at, "enable_language(HIP)\n", "the targets build HIP sources: CMake's HIP language")
            self.hip_language = not self.ed.frozen
        if cmd.name == "find_package" and cmd.args:
            self.find_package(cmd)
        if cmd.name in ("cuda_add_library", "cuda_add_executable"):
            self.cuda_add_target(cmd)
        elif cmd.name.startswith("cuda_") and cmd.name != "cuda_select_nvcc_arch_flags":
            self.ed.leave(cmd.line, f"{cmd.name}(...)", "findcuda")
        previous = None
        for arg in cmd.args:
            where = self.span(arg)
            if previous in ("LANGUAGE", "LINKER_LANGUAGE") and arg.value == "CUDA" and where and not arg.quoted:
                # A source or link language of CUDA names the language that is now HIP: the same role.
                self.ed.replace(*where, "HIP", f"`{previous} CUDA` → `{previous} HIP`: built with the HIP language")
                self.hip_language |= not self.ed.frozen
            previous = arg.value if cmd.name in _PROPERTY_COMMANDS else None
            if where and not arg.quoted and cmd.name != "message":
                self.targets(cmd, arg, where)
            if where and cmd.name != "message":
                self.paths(cmd, arg, where)

    def find_package(self, cmd: Command) -> None:
        name, words = cmd.args[0], [a.value for a in cmd.args[1:]]
        if name.value.lower() == "hip" and (at := self.after_line(cmd)):
            self.found.setdefault("hip", (at, "REQUIRED" in words))
        if name.value.lower() in _OTHER_PACKAGES:
            self.ed.leave(
                cmd.line, f"find_package({name.value})", f"ROCm's counterpart: {_OTHER_PACKAGES[name.value.lower()]}"
            )
        if name.value not in ("CUDA", "CUDAToolkit"):
            return
        at, spans = self.after_line(cmd), [self.span(a) for a in cmd.args]
        simple = all(w in ("REQUIRED", "QUIET", "EXACT") or _VERSION.fullmatch(w) for w in words)
        if (
            at is None
            or not simple
            or not all(spans)
            or any(a.quoted for a in cmd.args[1:])
            or "#" in self.text[spans[0][0] : spans[-1][1]]
        ):
            self.ed.leave(cmd.line, f"find_package({' '.join([name.value, *words])})", "find_options")
            return
        # hip's package provides the runtime targets (hip::host, hip::device); a CUDA version means nothing to it,
        # REQUIRED and QUIET keep their sense.
        new = " ".join(["hip"] + [w for w in words if w in ("QUIET", "REQUIRED")])
        before = f"find_package({self.text[spans[0][0] : spans[-1][1]]})"
        why = "ROCm has no CUDA toolkit; hip's package provides the runtime targets"
        self.ed.replace(spans[0][0], spans[-1][1], new, why, before, f"find_package({new})")
        self.rewritten.add(name.value)
        self.found.setdefault("hip", (at, "REQUIRED" in words))

    def cuda_add_target(self, cmd: Command) -> None:
        sources = [a.value for a in cmd.args[1:] if a.value not in _TARGET_KEYWORDS]
        options = {"OPTIONS", "RELEASE", "DEBUG", "MINSIZEREL", "RELWITHDEBINFO"}
        plain = not any(a.quoted or a.value in options or "$" in a.value for a in cmd.args)
        hip = self.hip_language or self.switch.project_hip
        if plain and hip and all(not s.endswith(".cu") or s in self.renames for s in sources):
            # FindCUDA's target with plain, renamed (.hip) sources in a HIP project is an ordinary HIP target.
            start = self.ed.offset(cmd.line, cmd.col)
            self.ed.replace(start, start + len(cmd.name), cmd.name[5:], "with .hip sources, an ordinary target")
        else:
            self.ed.leave(cmd.line, f"{cmd.name}(...)", "cuda_target")

    def targets(self, cmd: Command, arg: Arg, where: tuple[int, int]) -> None:
        key = self.ed.offset(cmd.line, cmd.col)
        if key not in self.linked:
            self.linked[key] = {piece for a in cmd.args for piece in a.value.split(";")}
        linked = self.linked[key]
        for match in _CUDA_TARGET.finditer(arg.value):
            base = match.group(1).lower()
            target, package = _TARGETS.get(base, (None, None))
            if target is None or (self.roc and package != "hip"):
                instead = library_replacement(base.removesuffix("_static"), "cmake")
                self.ed.leave(arg.line, match.group(0), f"no sure HIP target: {instead}, after checking the calls")
                continue
            if target in linked:
                # Two CUDA targets with one HIP counterpart (cudart and the driver: hip::host), or the counterpart
                # already named: one item, never the same one twice.
                why = f"its HIP counterpart `{target}` is already in this list"
                start, end = match.span()
                if match.group(0) == arg.value:
                    self.drop(arg, where, why)
                elif arg.value[end : end + 1] in ("", ";") and arg.value[start - 1 : start] in ("", ";"):
                    # one item of a `;` list: it goes with one of its separators
                    start, end = (start - 1, end) if start else (start, end + 1)
                    self.ed.replace(where[0] + start, where[0] + end, "", why, match.group(0), "")
                else:
                    self.ed.leave(arg.line, match.group(0), f"{why}: drop it by hand")
                continue
            # The HIP runtime / hip* library target the translated calls need (ROCm's CMake packages).
            start = where[0] + match.start()
            why = f"the HIP counterpart of {match.group(0)} (package `{package}`)"
            self.ed.replace(start, start + len(match.group(0)), target, why)
            linked.add(target)
            if package not in self.found and package not in self.switch.found and not self.ed.frozen:
                self.require(package, cmd)

    def drop(self, arg: Arg, where: tuple[int, int], why: str) -> None:
        """Removes an unquoted argument with the blanks that separate it (its whole line when it is alone there)."""
        text, (start, end) = self.text, where
        before = start
        while before > 0 and text[before - 1] in " \t":
            before -= 1
        after = end
        while after < len(text) and text[after] in " \t":
            after += 1
        if before > 0 and text[before - 1] not in "\n(":
            start = before  # something before it on its line: the blanks before it go
        elif before > 0 and text[before - 1] == "\n" and after < len(text) and text[after] == "\n":
            start, end = before, after + 1  # alone on its line: the line goes
        else:
            end = after
        self.ed.replace(start, end, "", why, arg.value, "")

    def mark_hip(self, sources: tuple[str, ...]) -> None:
        """In place: the translated sources keep their `.cu` names, so they are built as HIP by their LANGUAGE
        property, set in this file (a source property holds for the targets of the directory that sets it)."""
        prefix = "" if not self.text or self.text.endswith("\n") else "\n"
        new = f"set_source_files_properties({' '.join(sources)} PROPERTIES LANGUAGE HIP)\n"
        if len(new) > 100:
            new = (
                "set_source_files_properties(\n" + "".join(f"  {s}\n" for s in sources) + "  PROPERTIES LANGUAGE HIP)\n"
            )
        new = prefix + new
        why = "translated in place: the `.cu` sources hold HIP code now, built with CMake's HIP language"
        self.ed.replace(len(self.text), len(self.text), new, why, "", new.strip())
        self.hip_language = True

    def require(self, package: str, user: Command) -> None:
        """Adds `find_package(<package>)` once: after this file's find_package(hip), else before `user`."""
        if package in {c.args[0].value.lower() for c in self.commands if c.name == "find_package" and c.args}:
            self.found[package] = (None, True)
            return
        at, required = self.found.get("hip", (None, True))
        anchor = at
        line_start = self.text.rfind("\n", 0, max(at - 1, 0)) + 1 if at is not None else self.ed.offset(user.line, 1)
        if at is None:
            at = line_start
            if self.text[at : self.ed.offset(user.line, user.col)].strip():
                self.ed.leave(user.line, f"find_package({package})", "needed for the HIP target on this line")
                return
        indent = re.match(r"[ \t]*", self.text[line_start:]).group(0)
        new = ("\n" if at == len(self.text) and not self.text.endswith("\n") else "") + indent
        new += f"find_package({package}{' REQUIRED' if required else ''})\n"
        # An imported target needs its package found first: the one line that makes the new name resolve.
        self.ed.replace(at, at, new, f"`{package}` provides the target linked below", "", new.strip())
        self.found[package] = (anchor, required)  # the next package goes after this one

    def paths(self, cmd: Command, arg: Arg, where: tuple[int, int]) -> None:
        position = 0
        for piece in arg.value.split(";"):
            for prefix in _PREFIXES:
                path = piece[len(prefix) :]
                if piece.startswith(prefix) and path in self.renames:
                    # Side by side: the build file names the renamed copy; whole path tokens only.
                    start = where[0] + position + len(prefix)
                    self.ed.replace(start, start + len(path), self.renames[path], "the source's HIP copy")
                    break
            else:
                start = where[0] + position
                if piece.endswith(".cu") and start in self.switch.suffixes:
                    # Side by side, a path spelled through a variable or a glob: every source the build model reads
                    # from it is ported, so it names their HIP copies.
                    end = start + len(piece)
                    why = "the HIP copies of the sources it names, as the build model reads them"
                    self.ed.replace(end - len(".cu"), end, ".hip", why, piece, piece[: -len(".cu")] + ".hip")
                    self.switched.add((arg.line, arg.col))
                elif piece.endswith(".cu"):
                    self.candidates.append(start)
                    if not arg.quoted and cmd.name in _SOURCE_LISTS and piece not in self.marked:
                        self.ed.leave(arg.line, piece, "cu")
            position += len(piece) + 1

    def rename_variable(self, old: str, new: str, why: str, only_in: set[str] | None = None) -> None:
        """All or nothing: every use of `old` is renamed, or (a use in a string, outside `only_in`) none is."""
        word = re.compile(rf"(?<![\w{{]){re.escape(old)}(?!\w)|(?<=\$\{{){re.escape(old)}(?=\}})")
        hits = []
        for cmd in self.commands:
            for arg in cmd.args:
                for match in word.finditer(arg.value):
                    if arg.quoted and arg.value[max(match.start() - 2, 0) : match.start()] != "${":
                        continue  # the word in a string's prose
                    if arg.quoted or (only_in is not None and cmd.name not in only_in) or not self.span(arg):
                        self.ed.leave(arg.line, old, f"used where renaming it is not safe: `{new}` by hand")
                        return
                    hits.append(self.span(arg)[0] + match.start())
        for start in hits:
            self.ed.replace(start, start + len(old), new, why)
        self.renamed |= {old} if hits else set()

    def report_left(self) -> None:
        ed, minimum = self.ed, None
        for cmd in self.commands:
            if cmd.name == "cmake_minimum_required" and len(cmd.args) > 1:
                minimum = (cmd.line, cmd.args[1].value.split("...")[0])
            for arg in (a for a in cmd.args if not (cmd.name == "message" and a.quoted)):
                for match in _ARCH_NAMES.finditer(arg.value):
                    value = " ".join(a.value for a in cmd.args[1:]) if cmd.name == "set" and arg is cmd.args[0] else ""
                    ed.leave(arg.line, f"{match.group(1)} {value}".strip(), "arch", key=match.group(1))
                for name in _CUDA_VARS.findall(arg.value):
                    if name not in self.renamed and "ARCHITECTURES" not in name:
                        ed.leave(arg.line, name, "separable" if "SEPARABLE" in name else "cuda_var")
                if arg.quoted and (match := _CUDA_TARGET.search(arg.value)):
                    ed.leave(arg.line, match.group(0), "quoted")
                if re.search(r"COMPILE_LANG(?:UAGE|_AND_ID):CUDA\b", arg.value):
                    ed.leave(arg.line, "$<COMPILE_LANGUAGE:CUDA>", "genex")
                if cmd.name in ("target_link_libraries", "link_libraries") and arg.value.lower() in _BARE_LIBS:
                    ed.leave(arg.line, arg.value, f"a CUDA library: link {library_replacement(arg.value, 'cmake')}")
                if cmd.name not in ("message", "cuda_select_nvcc_arch_flags") and "-" in arg.value:
                    _nvcc_flags(ed, arg.line, arg.value)
                if (
                    cmd.name == "file"
                    and re.search(r"\*\.cu\b", arg.value)
                    and (arg.line, arg.col) not in self.switched
                ):
                    ed.leave(arg.line, arg.value, "glob")
        if self.hip_language and minimum and tuple(map(int, re.findall(r"\d+", minimum[1])[:2])) < (3, 21):
            ed.leave(minimum[0], f"cmake_minimum_required(VERSION {minimum[1]})", "minimum")


def rewrite_cmake(
    text: str, renames: dict[str, str] | None = None, *, roc: bool = False, switch: Switch | None = None
) -> Rewrite:
    """`roc`: the sources were translated to rocBLAS/rocSPARSE/... names, so the hip* library targets do not apply.
    `switch`: what the build model decided for this file (`switch_build` gives it)."""
    return _CMake(text, renames, roc, switch).run()


# ------------------------------------------------------------------------------------------------- Makefiles

_MK_ASSIGN = re.compile(r"(?:export\s+|override\s+)?([A-Za-z_][\w.]*)\s*(::=|:=|\?=|\+=|!=|=)\s*")
_NVCC = re.compile(r"(?<![\w.$-])(?:[\w${}()./~-]*/)?nvcc(?![\w.-])")
_PROBE = re.compile(r"(?:\bwhich|command\s+-v)\s+$")
_HIPCC = re.compile(r"(?<![\w.-])hipcc(?![\w.-])")
_CUDA_LINK = re.compile(
    r"(?<![\w-])-l(cudart|cudart_static|cuda|cublas|cublasLt|cufft|curand|cusparse|cusolver|cudnn|nccl"
    r"|nvToolsExt|nvrtc|nvidia-ml)(?![\w-])"
)
_CUDA_PATH = re.compile(r"/usr/local/cuda[\w.-]*|(?<![\w$])CUDA_(?:HOME|PATH|ROOT|DIR)(?!\w)")
_CU_PATTERN = re.compile(r"[%*]\.cu\b|:\.cu=|\.cu\.o\s*:")


def _code(line: str) -> str:
    """`line` up to its comment, quoted text blanked (same offsets): what may be edited."""
    out, quote = list(line), ""
    for i, ch in enumerate(line):
        if quote:
            out[i], quote = (ch, "") if ch == quote else (" ", quote)
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] != "\\"):
            return "".join(out[:i])
    return "".join(out)


def rewrite_makefile(text: str, renames: dict[str, str] | None = None) -> Rewrite:
    ed, renames, codes, offset, in_comment = _Edits(text), renames or {}, [], 0, False
    for number, line in enumerate(text.split("\n"), 1):
        code = "" if in_comment else _code(line)
        in_comment = (in_comment or len(code) < len(line.rstrip("\\"))) and line.endswith("\\")  # `# ... \` goes on
        assign = None if line.startswith("\t") else _MK_ASSIGN.match(code, len(code) - len(code.lstrip()))
        codes.append((number, offset, line, code, assign if assign and assign.group(2) != "!=" else None))
        offset += len(line) + 1
    if any(a and _NVCC.match(c, a.end()) for *_, c, a in codes) and any(_HIPCC.search(c) for *_, c, _ in codes):
        ed.frozen = True
        ed.leave(1, "nvcc and hipcc both configured", "dual")
    for number, start, line, code, assign in codes:
        rest = code
        for match in _NVCC.finditer(code):
            if assign and match.start() == assign.end():
                # hipcc is ROCm's compiler driver (on PATH in ROCm installs); the variable keeps its name, so every
                # `$(NVCC)` use follows it.
                why = f"`{assign.group(1)}` is the compiler: hipcc is ROCm's driver (`$(ROCM_PATH)/bin/hipcc`)"
                ed.replace(start + match.start(), start + match.end(), "hipcc", why)
                rest = code[: match.start()] + " " * len(match.group(0)) + code[match.end() :]
            elif (
                assign or not _PROBE.search(code[: match.start()]) and not code[match.end() :].startswith(" --version")
            ):
                ed.leave(number, match.group(0), "nvcc_run", key=f"nvcc:{match.start()}")
        for key, new in renames.items():
            for match in re.finditer(rf"(?:^|(?<=[\s=:(,;]))(?:\./)?{re.escape(key)}(?=$|[\s:),;\\])", code):
                # Side by side: the Makefile names the renamed copy; whole path tokens only.
                at = start + match.end() - len(key)
                ed.replace(at, at + len(key), new, "the source's HIP copy")
        if renames and _CU_PATTERN.search(code):
            ed.leave(number, line.strip(), "pattern", key="pattern")
        _nvcc_flags(ed, number, rest)
        for match in _CUDA_LINK.finditer(rest):
            ed.leave(number, match.group(0), f"a CUDA library: link {library_replacement(match.group(1), 'flag')}")
        for match in _CUDA_PATH.finditer(rest):
            ed.leave(number, match.group(0), "toolkit")
    return ed.result()


# ----------------------------------------------------------------------------- the checkout, by the build model

_MAKE_NAMES = ("Makefile", "makefile", "GNUmakefile")
_ROOT = "/rocport-checkout"  # where the build model places the checkout it reads from memory (no file is written)
MAX_TRIALS = 100  # candidate `.cu` pieces the build model is asked about, per port
TRIAL_SECONDS = 30.0  # and for how long at most: what is not tried is left for a person, with its target


def build_files(paths) -> list[tuple[str, str]]:
    """The build files among `paths` that the port rewrites: (path, "cmake" | "make"), in path order."""
    out = []
    for path in sorted(paths):
        name = posixpath.basename(path)
        if name == "CMakeLists.txt" or name.endswith(".cmake"):
            out.append((path, "cmake"))
        elif name in _MAKE_NAMES or name.endswith(".mk"):
            out.append((path, "make"))
    return out


@dataclass
class BuildSwitch:
    """The build files of a port: their new texts, what changed and what is left, per file; the commands that
    configure the branch for an AMD GPU."""

    texts: dict[str, str] = field(default_factory=dict)  # path -> new text, the changed files only
    changes: list[tuple[str, Change]] = field(default_factory=list)
    left: list[tuple[str, Left]] = field(default_factory=list)
    configure: list[str] = field(default_factory=list)


class _Checkout:
    """The checkout's build files as the build model reads them, from memory: before the port and on its branch."""

    def __init__(self, paths, read):
        self.paths, self.read_file, self.cache = frozenset(paths), read, {}

    def read(self, rel: str) -> str:
        if rel not in self.cache:
            self.cache[rel] = (self.read_file(rel) or "") if rel in self.paths else ""
        return self.cache[rel]

    def model(self, paths, texts: dict[str, str]):
        files = frozenset(paths)
        reader = lambda rel: texts[rel] if rel in texts else self.read(rel)  # noqa: E731
        return _Model(cmake.read_projects(_ROOT, files, reader), make.read_makefiles(files, reader))


@dataclass
class _Model:
    project: object  # scanner.build.cmake.CMakeProject or None
    makefiles: list

    def sources(self) -> dict[str, set[str]]:
        """CMake target -> the sources it lists."""
        return {name: set(t.sources) for name, t in (self.project.targets if self.project else {}).items()}

    def compilations(self):
        """(source, Compilation) of every build."""
        items = list(self.project.compilations()) if self.project else []
        for makefile in self.makefiles:
            items += makefile.compilations()
        return [(source, compilation) for source, compilation, _ in items]


def _verdict(before: _Model, after: _Model, renames: dict[str, str]) -> tuple[set, set]:
    """(broken, unswitched): CMake (target, source) pairs the switch changed in a way the port never means to (a
    source lost, gained or renamed without a HIP copy), and ported sources a target still lists as `.cu`."""
    broken, unswitched = set(), set()
    now_of = after.sources()
    for name, sources in before.sources().items():
        now = now_of.get(name)
        if now is None:
            broken.add((name, ""))
            continue
        expected = set()
        for source in sources:
            new = renames.get(source)
            if new is not None and new in now:
                expected.add(new)
            if source in now and new is not None:
                unswitched.add((name, source))
            if source in now:
                expected.add(source)
            elif new is None or new not in now:
                broken.add((name, source))
        broken |= {(name, source) for source in now - expected}
    broken |= {(name, "") for name in now_of.keys() - before.sources().keys()}
    return broken, unswitched


def switch_build(
    paths,
    read,
    *,
    renames: dict[str, str] | None = None,
    ported=(),
    roc: bool = False,
    targets: tuple[str, ...] = ("gfx942",),
) -> BuildSwitch:
    """The build switch of a port, guided by the build model (scanner.build) and checked by reading it again on
    the result: the targets that compile the ported sources build HIP.

    `paths`: the checkout's files (repository-relative); `read(path)`: a file's text, or None. Side by side,
    `renames` maps each ported `.cu` to its `.hip` copy: the targets that compile it list the copy (where they name
    it, also through a variable, a list or a glob the model reads, when every source that spelling stands for is
    ported). In place, `ported` names the translated `.cu` sources: they are built with the HIP language
    (their LANGUAGE property). Either way CMake's HIP language is enabled, and the model of the result is read
    again: a ported source a target still builds from its `.cu`, a source built as CUDA or not built at all are
    left for a person, with the target that lists it."""
    renames = dict(renames or {})
    in_place = {p for p in ported if p.endswith(".cu") and p not in renames}
    checkout = _Checkout(paths, read)
    files = build_files(checkout.paths)
    out = BuildSwitch()
    cmake_files = [p for p, kind in files if kind == "cmake"]
    before = checkout.model(checkout.paths, {})
    branch_paths = checkout.paths | set(renames.values())

    # What the model decides per CMake file before any trial: in place, the sources to mark; the packages found
    # by a directory above; whether the project builds HIP once switched.
    compiled = before.compilations()
    project = before.project
    targets_of = project.targets if project else {}
    marks: dict[str, set[str]] = {}
    for source, compilation in compiled:
        target = targets_of.get(compilation.target)
        if source in in_place and compilation.system == "cmake" and not compilation.amd and target is not None:
            lists = posixpath.join(target.directory, "CMakeLists.txt")
            marks.setdefault(lists, set()).add(posixpath.relpath(source, target.directory or "."))
    project_hip = bool(project and ({"CUDA", "HIP"} & project.languages or renames or in_place))
    plan = {
        path: Switch(language_hip=tuple(sorted(marks.get(path, ()))), project_hip=project_hip) for path in cmake_files
    }

    def rewrite_all() -> dict[str, Rewrite]:
        done: dict[str, Rewrite] = {}
        found: dict[str, frozenset[str]] = {}
        for path in sorted(cmake_files, key=lambda p: (p.count("/"), p)):
            text = checkout.read(path)
            here = posixpath.dirname(path)
            if posixpath.basename(path) == "CMakeLists.txt":  # a directory added below the ones that found these
                plan[path] = replace(
                    plan[path], found=frozenset().union(*(v for d, v in found.items() if _above(d, here)))
                )
            done[path] = rewrite_cmake(text, _local(renames, here), roc=roc, switch=plan[path])
            if posixpath.basename(path) == "CMakeLists.txt":
                found[here] = _found_at_top(done[path].text)
        for path, kind in files:
            if kind == "make":
                done[path] = rewrite_makefile(checkout.read(path), _local(renames, posixpath.dirname(path)))
        return done

    def model_of(done: dict[str, Rewrite]) -> _Model:
        return checkout.model(branch_paths, {p: r.text for p, r in done.items()})

    done = rewrite_all()
    after = model_of(done)
    if renames and project is not None:
        # Side by side: each `.cu` piece not renamed literally is tried alone; it stays switched when the model of
        # the result has fewer targets building a ported `.cu` and no target losing, gaining or renaming anything
        # else.
        broken, unswitched = _verdict(before, after, renames)
        read = project.visited  # a piece in a file the model never reads cannot change what it reads
        trials = [(path, offset) for path in cmake_files if path in read for offset in done[path].candidates]
        deadline = time.monotonic() + TRIAL_SECONDS
        for path, offset in trials[:MAX_TRIALS]:
            if not unswitched or time.monotonic() > deadline:
                break
            saved = plan[path]
            plan[path] = replace(saved, suffixes=saved.suffixes | {offset})
            trial = dict(done)
            trial[path] = rewrite_cmake(
                checkout.read(path), _local(renames, posixpath.dirname(path)), roc=roc, switch=plan[path]
            )
            trial_model = model_of(trial)
            new_broken, new_unswitched = _verdict(before, trial_model, renames)
            if new_broken <= broken and new_unswitched < unswitched:
                broken, unswitched, after, done = new_broken, new_unswitched, trial_model, trial
            else:
                plan[path] = saved
        done = rewrite_all()
        after = model_of(done)
    if after.project is not None and "HIP" not in after.project.languages and _builds_hip(after):
        top = _top_level(after.project, cmake_files, done)
        if top is not None:
            plan[top] = replace(plan[top], enable_hip=True)
            done = rewrite_all()
            after = model_of(done)

    for path, _kind in files:
        rewrite = done[path]
        if rewrite.text != checkout.read(path):
            out.texts[path] = rewrite.text
        out.changes += [(path, change) for change in rewrite.changes]
        read_by_model = after.project is not None and path in after.project.visited
        # The model says which `.cu` sources are still not built as HIP (below): the text's guesses go.
        out.left += [(path, item) for item in rewrite.left if not (read_by_model and item.why == _WHY["cu"])]
    if not any(item.what == _DUAL for _, item in out.left):  # a dual-platform build keeps its CUDA path
        out.left += _checked(before, after, renames, in_place)
    out.left = sorted(dict.fromkeys(out.left), key=lambda item: (item[0], item[1].line))
    out.configure = _configure(after, cmake_files, done, targets)
    return out


def _local(renames: dict[str, str], here: str) -> dict[str, str]:
    """Renames as a build file in `here` spells them: relative to its directory."""
    return {posixpath.relpath(old, here or "."): posixpath.relpath(new, here or ".") for old, new in renames.items()}


def _above(directory: str, here: str) -> bool:
    return directory != here and (directory == "" or here.startswith(directory + "/"))


def _found_at_top(text: str) -> frozenset[str]:
    """The packages a CMakeLists.txt finds outside any if/function/macro/loop: found for the directories below."""
    depth, found = 0, set()
    for cmd in parse_commands(text):
        if cmd.name in ("if", "function", "macro", "foreach", "while", "block"):
            depth += 1
        elif cmd.name in ("endif", "endfunction", "endmacro", "endforeach", "endwhile", "endblock"):
            depth -= 1
        elif cmd.name == "add_subdirectory" and depth == 0:
            break  # found after the directories are added: not for them
        elif cmd.name == "find_package" and cmd.args and depth == 0:
            found.add(cmd.args[0].value.lower())
    return frozenset(found)


def _builds_hip(model: _Model) -> bool:
    return any(c.system == "cmake" and c.language == "hip" for _, c in model.compilations())


def _top_level(project, cmake_files: list[str], done: dict[str, Rewrite]) -> str | None:
    """The CMake file that declares the project: the shallowest one the model read with a project() command."""
    for path in sorted(cmake_files, key=lambda p: (p.count("/"), p)):
        if path in project.visited and any(c.name == "project" for c in parse_commands(done[path].text)):
            return path
    return None


def _checked(before: _Model, after: _Model, renames: dict[str, str], in_place: set[str]) -> list[tuple[str, Left]]:
    """What the model of the result says is still not built for an AMD GPU, at the target that lists it."""
    out: list[tuple[str, Left]] = []
    project = after.project
    targets = project.targets if project else {}
    built = {(c.target, source) for source, c in after.compilations()}
    broken, unswitched = _verdict(before, after, renames) if before.project else (set(), set())
    for name, source in sorted(broken):
        target = targets.get(name) or before.project.targets[name]
        why = f"target `{name}` lists other sources than before beyond the HIP copies: check the switch there"
        out.append((target.build_file, Left(target.line, source or f"target `{name}`", why)))
    for name, source in sorted(unswitched):
        target = targets[name]
        why = (
            f"target `{name}` still builds the CUDA source, not its HIP copy `{renames[source]}`: the build names it "
            "where the switch is not certain (a spelling shared with sources that are not ported?): by hand"
        )
        out.append((target.build_file, Left(target.line, source, why)))
    for source, c in after.compilations():
        if c.nvidia and not c.amd:
            why = f"{c.system} target `{c.target}` still builds it as CUDA ({c.compiler}): build it as HIP"
            out.append((c.build_file, Left(c.line, source, why)))
    for name, target in targets.items():
        for source in sorted(target.sources):
            if not source.endswith(".cu") or (name, source) in built or (name, source) in unswitched:
                continue
            if source not in project.files:
                continue
            if source in in_place:
                why = f"translated in place, but target `{name}` does not build it: set its LANGUAGE to HIP"
            else:
                then = "list its `.hip` copy" if renames else "set its LANGUAGE to HIP"
                why = (
                    f"not ported (no HIP translation in this port), and target `{name}` lists it: nothing builds it "
                    f"without the CUDA language; translate it and {then}"
                )
            out.append((target.build_file, Left(target.line, source, why)))
    if project is not None and "HIP" not in project.languages and _builds_hip(after):
        where = next((p for p in sorted(project.visited, key=lambda p: (p.count("/"), p))), "CMakeLists.txt")
        out.append(
            (where, Left(1, "enable_language(HIP)", "the targets build HIP sources: enable CMake's HIP language"))
        )
    return out


def _configure(after: _Model, cmake_files: list[str], done: dict[str, Rewrite], targets: tuple[str, ...]) -> list[str]:
    """How to configure and build the branch for the AMD GPUs of `targets`, when its CMake project builds HIP."""
    if after.project is None or not _builds_hip(after):
        return []
    top = _top_level(after.project, cmake_files, done)
    source = posixpath.dirname(top) if top else ""
    arch = ";".join(targets)
    define = f"-DCMAKE_HIP_ARCHITECTURES={arch}"
    return [
        f"cmake -S {source or '.'} -B build {shlex.quote(define)}",
        "cmake --build build",
    ]
