"""Build files for the HIP port (issue 23): a conservative rewriter of CMakeLists.txt and Makefiles. Pure: no I/O.

    result = rewrite_cmake(text, renames={"src/k.cu": "src/k.hip"})
    result.text      # the new text (identical when nothing is safe to change)
    result.changes   # Change(line, before, after, why): what was translated, one entry per edit
    result.left      # Left(line, what, why): CUDA build constructs a person must port

Only rewrites whose HIP meaning is certain are made (the CMake language, find_package of the toolkit, LANGUAGE
properties, the runtime and a few library targets, NCCL's library as RCCL's, the C++ standard settings, a Makefile's
compiler variable, renamed file references); the rest, and anything ambiguous, is reported in `left` with the HIP
equivalent where there is one. Comments and the prose of strings are never edited, a file that already builds HIP
next to CUDA (a dual-platform build) is not edited at all, and rewriting a rewritten file changes nothing. `renames`
maps paths as the build file spells them (relative to its directory) to their new names (side by side: `k.cu` ->
`k.hip`).

The shared pieces (the result types and the edit buffer) are in scanner.translate.build_edits; a port's whole build
switch, guided by the build model, is scanner.translate.build_switch.switch_build, which passes each CMake file the
`Switch` it decided.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner.formats.cmake import Arg, Command, parse_commands
from scanner.rules.textual import library_replacement
from scanner.translate.build_edits import Edits, Rewrite, nvcc_flags


@dataclass(frozen=True)
class Switch:
    """What the build model decided for one CMake file (`switch_build`; rewrite_cmake's `switch`)."""

    suffixes: frozenset[int] = frozenset()  # offsets of `.cu` path pieces (Rewrite.candidates) to end in `.hip`
    language_hip: tuple[str, ...] = ()  # in place: sources, as this file spells them, to build as HIP
    enable_hip: bool = False  # add `enable_language(HIP)` after this file's project()
    project_hip: bool = False  # the project enables the HIP language (in this file or another)
    found: frozenset[str] = frozenset()  # packages a file that runs before this one finds (find_package)


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
# RCCL is NCCL under ROCm with the same API (the translator keeps every nccl* name and includes rccl/rccl.h), so
# its library is the same link item: `nccl` -> `rccl`, `-lnccl` -> `-lrccl` (ROC133).
RCCL_WHY = "RCCL is NCCL's library on ROCm: the same nccl* API, which the translation keeps (rccl/rccl.h)"
_NCCL_NAMES = re.compile(r"(?<!\w)NCCL_\w+|\bNCCL::")
_VERSION = re.compile(r"\d+(?:\.\d+)*(?:\.\.\.\d+(?:\.\d+)*)?")
_CONDITIONS = {"if", "elseif", "else", "endif", "while", "endwhile"}
_SOURCE_LISTS = {"add_library", "add_executable", "target_sources", "cuda_add_library", "cuda_add_executable", "set"}
_PROPERTY_COMMANDS = {"set_source_files_properties", "set_property", "set_target_properties"}
_PREFIXES = ("", "./", "${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/")
_TARGET_KEYWORDS = {"STATIC", "SHARED", "MODULE", "EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE"}


DUAL = "CUDA and HIP both configured"
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
        self.ed, self.text, self.renames, self.roc = Edits(text), text, renames or {}, roc
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
            self.ed.leave(1, DUAL, "dual")
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
        if name.value.lower() == "nccl" and self.rccl_package(cmd):
            return
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

    def rccl_package(self, cmd: Command) -> bool:
        """`find_package(NCCL [REQUIRED|QUIET])` -> `find_package(rccl ...)` when nothing in the file reads what a
        FindNCCL module sets (`NCCL_LIBRARIES`, `NCCL_INCLUDE_DIRS`, `NCCL::` targets): rccl's package sets others.
        True when rewritten."""
        words = [a.value for a in cmd.args[1:]]
        spans = [self.span(a) for a in cmd.args]
        uses = (a.value for c in self.commands for a in c.args if c is not cmd)
        if (
            not all(w in ("REQUIRED", "QUIET") for w in words)
            or not all(spans)
            or any(a.quoted for a in cmd.args)
            or any(_NCCL_NAMES.search(value) for value in uses)
        ):
            return False
        new = " ".join(["rccl", *words])
        self.ed.replace(
            spans[0][0],
            spans[-1][1],
            new,
            RCCL_WHY,
            f"find_package({' '.join([cmd.args[0].value, *words])})",
            f"find_package({new})",
        )
        self.found.setdefault("rccl", (self.after_line(cmd), "REQUIRED" in words))
        return not self.ed.frozen

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
                linking = cmd.name in ("target_link_libraries", "link_libraries")
                if linking and arg.value == "nccl" and not arg.quoted and (where := self.span(arg)):
                    # with rccl's package found, its imported target (include directory and library path too)
                    ed.replace(*where, "rccl::rccl" if "rccl" in self.found else "rccl", RCCL_WHY)
                    continue
                if linking and arg.value.lower() in _BARE_LIBS:
                    ed.leave(arg.line, arg.value, f"a CUDA library: link {library_replacement(arg.value, 'cmake')}")
                if cmd.name not in ("message", "cuda_select_nvcc_arch_flags") and "-" in arg.value:
                    nvcc_flags(ed, arg.line, arg.value)
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


def rewrite_makefile(
    text: str, renames: dict[str, str] | None = None, skip_lines: frozenset[int] = frozenset()
) -> Rewrite:
    """`skip_lines`: lines in a branch a Linux build never takes (the build model's platform lines), left as they
    are: switching `NVCC := nvcc` in a Windows-only branch changes nothing a ROCm machine builds."""
    ed, renames, codes, offset, in_comment = Edits(text), renames or {}, [], 0, False
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
        if number in skip_lines:
            continue
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
        nvcc_flags(ed, number, rest)
        for match in _CUDA_LINK.finditer(rest):
            if match.group(1) == "nccl":
                ed.replace(start + match.start(1), start + match.end(1), "rccl", RCCL_WHY)
                continue
            ed.leave(number, match.group(0), f"a CUDA library: link {library_replacement(match.group(1), 'flag')}")
        for match in _CUDA_PATH.finditer(rest):
            ed.leave(number, match.group(0), "toolkit")
    return ed.result()
