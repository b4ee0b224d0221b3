"""A port's whole build switch (issue 30), guided by the build model (scanner.build). Pure: no file is written.

`switch_build` rewrites a checkout's build files with scanner.translate.buildfiles: the targets that compile the
ported sources take their `.hip` copies (side by side; also where a variable, a list, a loop or a glob spells the
source, when every source that spelling stands for is ported) or build them with the HIP language (in place); the
HIP language is enabled; a link list never names one HIP target twice. It then reads the model of the result:
whatever still builds a ported source from its `.cu`, builds CUDA or builds nothing is left for a person at the
target that lists it, and gives the configure line for an AMD GPU. The model reads the texts from memory.

Makefiles are rewritten outside the branches another platform takes (the model's platform lines); side by side,
their pattern rules over `.cu` take the `.hip` copies where the model of the result says so
(scanner.translate.make_patterns); their compiler is switched where a Linux build sets it
(scanner.translate.make_switch); a `setup.py`'s PyTorch extensions
list the `.hip` copies side by side (scanner.translate.setup_switch). The same model check covers both.
"""

from __future__ import annotations

import posixpath
import shlex
import time
from dataclasses import dataclass, field, replace

from scanner.build import cmake, make, setuptools
from scanner.build.model import NVCC
from scanner.formats.cmake import parse_commands
from scanner.translate import make_patterns, make_switch, setup_switch
from scanner.translate.build_edits import WHY, Change, Left, Rewrite
from scanner.translate.buildfiles import DUAL, Switch, rewrite_cmake, rewrite_makefile

_MAKE_NAMES = ("Makefile", "makefile", "GNUmakefile")
_ROOT = "/rocport-checkout"  # where the build model places the checkout it reads from memory (no file is written)
MAX_TRIALS = 100  # candidate `.cu` pieces the build model is asked about, per port
TRIAL_SECONDS = 30.0  # and for how long at most: what is not tried is left for a person, with its target


def build_files(paths) -> list[tuple[str, str]]:
    """The build files among `paths` that the port rewrites: (path, "cmake" | "make" | "setuptools"), in path
    order."""
    out = []
    for path in sorted(paths):
        name = posixpath.basename(path)
        if name == "CMakeLists.txt" or name.endswith(".cmake"):
            out.append((path, "cmake"))
        elif name in _MAKE_NAMES or name.endswith(".mk"):
            out.append((path, "make"))
        elif name == "setup.py":
            out.append((path, "setuptools"))
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

    def model(self, paths, texts: dict[str, str], hip=frozenset()):
        """The model of `paths` with `texts` for the files they change; `hip`: the sources ported in place (HIP
        code on the branch, whatever the checkout holds)."""
        files = frozenset(paths)
        reader = lambda rel: texts[rel] if rel in texts else self.read(rel)  # noqa: E731
        is_hip = lambda path: path in hip or setuptools.holds_hip(self.read(path))  # noqa: E731
        setups = []
        for rel in sorted(f for f in files if posixpath.basename(f) == "setup.py"):
            setups += [(source, c) for source, c, _ in setuptools.compilations(rel, reader(rel), files, is_hip)[0]]
        return _Model(cmake.read_projects(_ROOT, files, reader), make.read_makefiles(files, reader), setups)


@dataclass
class _Model:
    project: object  # scanner.build.cmake.CMakeProject or None
    makefiles: list
    setups: list = field(default_factory=list)  # (source, Compilation) of the setup.py extensions

    def sources(self) -> dict[str, set[str]]:
        """CMake target -> the sources it lists."""
        return {name: set(t.sources) for name, t in (self.project.targets if self.project else {}).items()}

    def compilations(self):
        """(source, Compilation) of every build."""
        items = list(self.project.compilations()) if self.project else []
        for makefile in self.makefiles:
            items += makefile.compilations()
        return [(source, compilation) for source, compilation, _ in items] + list(self.setups)

    def platform_lines(self) -> dict[str, frozenset[int]]:
        """Makefile lines in a branch a Linux build never takes (a Windows-only `ifeq`), per file."""
        out: dict[str, set[int]] = {}
        for makefile in self.makefiles:
            for rel, lines in makefile.platform_lines.items():
                out.setdefault(rel, set()).update(lines)
        return {rel: frozenset(lines) for rel, lines in out.items()}


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

    elsewhere = before.platform_lines()

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
                skip = elsewhere.get(path, frozenset())
                done[path] = rewrite_makefile(checkout.read(path), _local(renames, posixpath.dirname(path)), skip)
            elif kind == "setuptools":
                text, changes = setup_switch.rename_sources(path, checkout.read(path), renames)
                done[path] = Rewrite(text, changes)
        return done

    def model_of(done: dict[str, Rewrite]) -> _Model:
        return checkout.model(branch_paths, {p: r.text for p, r in done.items()}, frozenset(in_place))

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
    makefiles = [path for path, kind in files if kind == "make"]
    if makefiles and renames:
        # Pattern rules over `.cu` and the object lists made from the sources, as the make model reads the result.
        reader = lambda texts: make.read_makefiles(  # noqa: E731
            frozenset(branch_paths), lambda rel: texts[rel] if rel in texts else checkout.read(rel)
        )
        done = make_patterns.switch(done, makefiles, before.makefiles, reader, renames, elsewhere)
        after = model_of(done)
    if makefiles:
        done = _switch_make_compilers(done, after, set(renames.values()) | in_place)
        after = model_of(done)

    for path, _kind in files:
        rewrite = done[path]
        if rewrite.text != checkout.read(path):
            out.texts[path] = rewrite.text
        out.changes += [(path, change) for change in rewrite.changes]
        read_by_model = after.project is not None and path in after.project.visited
        # The model says which `.cu` sources are still not built as HIP (below): the text's guesses go.
        out.left += [(path, item) for item in rewrite.left if not (read_by_model and item.why == WHY["cu"])]
    if not any(item.what == DUAL for _, item in out.left):  # a dual-platform build keeps its CUDA path
        out.left += _checked(before, after, renames, in_place)
    out.left = sorted(dict.fromkeys(out.left), key=lambda item: (item[0], item[1].line))
    out.configure = _configure(after, cmake_files, done, targets)
    return out


def _switch_make_compilers(done: dict[str, Rewrite], model: _Model, ported: set[str]) -> dict[str, Rewrite]:
    """The Makefiles' compiler where a Linux build sets it, for the recipes that compile ported sources
    (scanner.translate.make_switch); a text rewrite's "runs nvcc" item on a line switched here goes."""
    text_of = lambda rel: done[rel].text if rel in done else ""  # noqa: E731
    texts, changes, left = make_switch.compiler_edits(model.makefiles, text_of, ported)
    out = dict(done)
    for path in {p for p, _ in changes} | {p for p, _ in left}:
        rewrite = out[path]
        switched = {c.line for p, c in changes if p == path}
        out[path] = Rewrite(
            texts.get(path, rewrite.text),
            rewrite.changes + [c for p, c in changes if p == path],
            [i for i in rewrite.left if not (i.line in switched and i.why == WHY["nvcc_run"])]
            + [i for p, i in left if p == path],
            rewrite.candidates,
        )
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
    was_nvcc = {source for source, c in before.compilations() if c.compiler == NVCC}
    amd_setup = {source for source, c in after.compilations() if c.system == "setuptools" and c.amd}
    for source, c in after.compilations():
        if c.system == "setuptools":
            if c.nvidia and source in in_place and source not in amd_setup:
                why = (
                    f"extension `{c.target}` builds the translated `.cu` with nvcc, which no longer builds it; a ROCm "
                    "build of PyTorch hipifies it and builds it with hipcc, which this setup.py does not say: "
                    "build it with a ROCm PyTorch, or port side by side (the sources list the `.hip` copies)"
                )
                out.append((c.build_file, Left(c.line, source, why)))
            elif c.nvidia and source in renames:
                why = f"extension `{c.target}` still builds the CUDA source: list its HIP copy `{renames[source]}`"
                out.append((c.build_file, Left(c.line, source, why)))
        elif c.nvidia and not c.amd:
            why = f"{c.system} target `{c.target}` still builds it as CUDA ({c.compiler}): build it as HIP"
            out.append((c.build_file, Left(c.line, source, why)))
        elif c.system == "make" and c.amd and source.endswith(".cu") and source in was_nvcc and source not in in_place:
            why = (
                f"make target `{c.target}` now builds this CUDA source with hipcc, not its HIP copy "
                f"`{renames[source]}`: switch the rule that builds it by hand"
                if source in renames
                else f"make target `{c.target}` now builds this CUDA source with hipcc, and this port does not translate it"
            )
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
