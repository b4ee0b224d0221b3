"""A CMake project's targets, and what each compiles: the usage requirements a source gets through
`target_link_libraries`, its language and compiler, its standard, and generator expressions evaluated for that
compile (scanner.build.genex). scanner.build.cmake runs the files that declare them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from scanner.build import genex
from scanner.build.conditions import UNKNOWN
from scanner.build.model import CLANG_CUDA, HIPCC, HOST_CC, NVCC, Compilation

_VISIBILITY = {"PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
_TARGET_WORDS = {"STATIC", "SHARED", "MODULE", "OBJECT", "EXCLUDE_FROM_ALL", "WIN32", "MACOSX_BUNDLE", "NO_EXTRAS"}
_SOURCE_SUFFIXES = {".cu": "cuda", ".hip": "hip", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".c++": "c++", ".c": "c"}


@dataclass
class Target:
    name: str
    build_file: str
    line: int
    directory: str  # repository-relative source dir ("" at the top)
    flavour: str = ""  # "cuda" (cuda_add_*), "hip" (hip_add_*), "" otherwise
    sources: list[str] = field(default_factory=list)
    includes: list[tuple[str, bool]] = field(default_factory=list)  # (dir, usage requirement)
    defines: list[tuple[str, bool]] = field(default_factory=list)
    options: list[tuple[str, bool]] = field(default_factory=list)
    features: list[tuple[str, bool]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    condition: str = ""
    scope_values: dict = field(default_factory=dict)  # variables at creation (CMAKE_<LANG>_STANDARD ...)
    dir_includes: list[str] = field(default_factory=list)
    dir_defines: list[str] = field(default_factory=list)
    dir_options: list[str] = field(default_factory=list)
    # The source properties the target sees: the project's, or those of the option branch that made it.
    source_language: dict | None = None
    # How many option branches off by default enclosed its creation (scanner.build.cmake.CMakeProject).
    offered_depth: int = 0
    # Sources an option branch off by default adds to it: (source, that branch's condition).
    conditional_sources: list[tuple[str, str]] = field(default_factory=list)


# -- the result ----------------------------------------------------------------------------------------------
def compilations(project) -> list[tuple[str, Compilation, list[str]]]:
    """(source, compilation, what could not be evaluated for it) for every source of every target."""
    out = []
    for target in project.targets.values():
        for source, condition in [(s, "") for s in target.sources] + target.conditional_sources:
            if source not in project.files:
                continue
            suffix = os.path.splitext(source)[1].lower()
            language = _SOURCE_SUFFIXES.get(suffix)
            if language is None:
                continue
            unknown: list[str] = []
            compiled = _compile(project, target, source, language, unknown)
            if compiled is not None:
                if condition:
                    joined = " and ".join(c for c in (compiled.condition, condition) if c)
                    compiled = replace(compiled, condition=joined)
                out.append((source, compiled, unknown))
    return out


def _compile(project, target: Target, source: str, language: str, unknown: list[str]) -> Compilation | None:
    # A source property holds in the directory that set it (CMake's directory scope).
    languages = target.source_language if target.source_language is not None else project.source_language
    declared = languages.get((target.directory, source), "").upper()
    values = target.scope_values
    if target.flavour == "hip" or declared == "HIP" or language == "hip":
        language, compiler = "hip", HIPCC
    elif target.flavour == "cuda" or declared == "CUDA" or (language == "cuda" and not declared):
        if language == "cuda" and "CUDA" not in project.languages and target.flavour != "cuda" and declared != "CUDA":
            unknown.append(
                f"{source}: a .cu source of target `{target.name}`, and the project enables no CUDA language"
            )
            return None
        language = "cuda"
        compiler = CLANG_CUDA if "clang" in str(values.get("CMAKE_CUDA_COMPILER") or "") else NVCC
    else:
        if declared == "CXX":
            language = "c++"
        cxx = str(values.get("CMAKE_CXX_COMPILER") or "")
        compiler = HIPCC if re.search(r"hipcc|amdclang", cxx) else HOST_CC
        if compiler == HIPCC:
            language = "hip"
    lang_key = {"cuda": "CUDA", "hip": "HIP", "c++": "CXX", "c": "C"}[language]
    includes, defines, options, features = [], [], [], []
    for dep in _with_links(project, target):
        own = dep is target
        includes += [d for d, usage in dep.includes if own or usage]
        defines += [d for d, usage in dep.defines if own or usage]
        options += [o for o, usage in dep.options if own or usage]
        features += [f for f, usage in dep.features if own or usage]
    includes += target.dir_includes
    defines += target.dir_defines
    options += target.dir_options
    flags = str(values.get(f"CMAKE_{lang_key}_FLAGS") or "")
    options += flags.split()
    evaluated = lambda items: [  # noqa: E731
        v for item in items for v in split_list(genex.evaluate(item, language, compiler, unknown)) if v
    ]
    include_dirs = []
    for item in evaluated(includes):
        rel = project._rel(item, target.directory)
        include_dirs.append(rel if rel is not None else item)
    define_list = [d.removeprefix("-D") for d in evaluated(defines)]
    standard = ""
    for option in evaluated(options):
        if option.startswith("-D"):
            define_list.append(option[2:])
        elif option.startswith("-I"):
            rel = project._rel(option[2:], target.directory)
            include_dirs.append(rel if rel is not None else option[2:])
        elif re.match(r"--?std=", option):
            standard = option.split("=", 1)[1]
    standard = standard or _standard(target, lang_key, values, evaluated(features))
    return Compilation(
        target=target.name,
        build_file=target.build_file,
        line=target.line,
        system="cmake",
        compiler=compiler,
        language=language,
        standard=standard,
        include_dirs=tuple(dict.fromkeys(d or "." for d in include_dirs)),
        defines=tuple(dict.fromkeys(define_list)),
        condition=target.condition,
    )


def _with_links(project, target: Target) -> list[Target]:
    seen, order, todo = set(), [], [target]
    while todo:
        current = todo.pop(0)
        if current.name in seen:
            continue
        seen.add(current.name)
        order.append(current)
        todo += [project.targets[name] for name in current.links if name in project.targets]
    return order


def _standard(target: Target, lang_key: str, values: dict, features: list[str]) -> str:
    """`c++20` for a C++ (CUDA, HIP) source, `c11` for a C one; "" when neither the target nor the directory
    says (the compiler's default)."""
    props = target.properties
    if lang_key == "C":
        number = props.get("C_STANDARD") or values.get("CMAKE_C_STANDARD")
        if number and number is not UNKNOWN and str(number).isdigit():
            return f"c{number}"
        numbers = [int(m.group(1)) for f in features for m in [re.match(r"c_std_(\d+)$", f)] if m]
        return f"c{max(numbers)}" if numbers else ""
    for key in (f"{lang_key}_STANDARD", "CXX_STANDARD") if lang_key != "CXX" else ("CXX_STANDARD",):
        number = props.get(key) or values.get(f"CMAKE_{key}")
        if number and number is not UNKNOWN and str(number).isdigit():
            return f"c++{number}"
    numbers = [int(m.group(1)) for f in features for m in [re.match(r"(?:cxx|cuda|hip)_std_(\d+)$", f)] if m]
    return f"c++{max(numbers)}" if numbers else ""


def add_target(project, name, args, command, directory, rel: str, scope, conditions: list[str]) -> None:
    """add_executable / add_library and their cuda_, hip_, pybind11_ forms: the target with its sources and what
    it takes from its directory and the variables at its creation."""
    if not args or "IMPORTED" in args or "ALIAS" in args:
        return
    target_name = args[0]
    flavour = "cuda" if name.startswith("cuda_") else "hip" if name.startswith("hip_") else ""
    if "INTERFACE" in args[1:2]:
        sources = []
    else:
        sources = [
            project.source(a, directory.rel)
            for a in args[1:]
            if a not in _TARGET_WORDS and a not in ("INTERFACE", "OPTIONS")
        ]
    snapshot = {
        k: v
        for k, v in scope.values.items()
        if k.startswith("CMAKE_") and (k.endswith(("_STANDARD", "_COMPILER", "_FLAGS")))
    }
    earlier = project.targets.pop(target_name, None)
    if earlier is not None:
        # The same name made again: by another top-level project read into this one (a library's CPU build and
        # its experimental build both make `ops_aten`), or a branch CMake would reject. Later commands name the
        # newer target; the earlier one keeps its sources and flags under a key no command spells.
        project.targets[f"{target_name} ({earlier.build_file}:{earlier.line})"] = earlier
    project.targets[target_name] = Target(
        target_name,
        rel,
        command.line,
        directory.rel,
        flavour,
        sources,
        condition=" and ".join(conditions),
        scope_values=snapshot,
        dir_includes=directory.includes,
        dir_defines=directory.defines,
        dir_options=directory.options,
        source_language=project.source_language,
        offered_depth=project.offered_depth,
    )


def target_usage(project, name: str, args: list[str]) -> None:
    """target_include_directories / _compile_definitions / _compile_options / _compile_features /
    target_link_libraries, each item PRIVATE (the target's own) or PUBLIC/INTERFACE (a usage requirement)."""
    if not args or args[0] not in project.targets:
        return
    target = project.targets[args[0]]
    if project.offered_to(target):
        return  # `if(FAISS_ENABLE_RAFT) target_compile_definitions(faiss_gpu ...)`: not the default build
    usage = False
    for arg in args[1:]:
        if arg in ("PUBLIC", "INTERFACE"):
            usage = True
            continue
        if arg == "PRIVATE":
            usage = False
            continue
        if arg in ("SYSTEM", "BEFORE", "AFTER"):
            continue
        if name == "target_include_directories":
            target.includes.append((arg, usage))
        elif name == "target_compile_definitions":
            target.defines.append((arg.removeprefix("-D"), usage))
        elif name == "target_compile_options":
            target.options.append((arg, usage))
        elif name == "target_compile_features":
            target.features.append((arg, usage))
        else:
            target.links.append(arg)


def add_sources(project, args: list[str], directory, conditions: list[str]) -> None:
    """target_sources(): an option branch off by default adds them under its condition (the default build does
    not compile them)."""
    target = project.targets.get(args[0])
    if target is None:
        return
    added = [
        project.source(a, directory.rel)
        for a in args[1:]
        if a not in _VISIBILITY and a not in ("FILE_SET", "TYPE", "HEADERS", "BASE_DIRS", "FILES")
    ]
    if project.offered_to(target):
        target.conditional_sources += [(source, " and ".join(conditions)) for source in added]
    else:
        target.sources += added


def set_properties(project, name: str, args: list[str], directory) -> None:
    """set_target_properties, set_source_files_properties and set_property(TARGET|SOURCE): target properties
    (standards) and a source's LANGUAGE, which holds in the directory that sets it."""
    if name == "set_target_properties" and "PROPERTIES" in args:
        cut = args.index("PROPERTIES")
        pairs = args[cut + 1 :]
        for target_name in args[:cut]:
            if target_name in project.targets and not project.offered_to(project.targets[target_name]):
                project.targets[target_name].properties.update(zip(pairs[0::2], pairs[1::2], strict=False))
    elif name == "set_source_files_properties" and "PROPERTIES" in args:
        cut = args.index("PROPERTIES")
        pairs = dict(zip(args[cut + 1 :: 2], args[cut + 2 :: 2], strict=False))
        if "LANGUAGE" in pairs:
            for source in args[:cut]:
                project.source_language[(directory.rel, project.source(source, directory.rel))] = pairs["LANGUAGE"]
    elif name == "set_property" and args and args[0] in ("TARGET", "SOURCE") and "PROPERTY" in args:
        cut = args.index("PROPERTY")
        names = [a for a in args[1:cut] if a not in ("APPEND", "APPEND_STRING", "DIRECTORY", "TARGET_DIRECTORY")]
        key, values = (args[cut + 1], args[cut + 2 :]) if len(args) > cut + 1 else ("", [])
        for item in names:
            if args[0] == "TARGET" and item in project.targets and not project.offered_to(project.targets[item]):
                project.targets[item].properties[key] = ";".join(values)
            elif args[0] == "SOURCE" and key == "LANGUAGE" and values:
                project.source_language[(directory.rel, project.source(item, directory.rel))] = values[0]


def split_list(value: str) -> list[str]:
    """A CMake list, `;`-separated, keeping `;` inside a generator expression's `$<...>`."""
    out, depth, current = [], 0, []
    i = 0
    while i < len(value):
        ch = value[i]
        if value.startswith("$<", i):
            depth += 1
            current.append("$<")
            i += 2
            continue
        if ch == ">" and depth:
            depth -= 1
        if ch == ";" and not depth:
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    out.append("".join(current))
    return out
