"""Scan options, and `.rocport.toml` in the scanned repository, parsed strictly: a bad key or value is an
error that names it.

    [scan]
    exclude = ["third_party/**", "vendor/**"]   # glob patterns, relative to the repository root
    max_file_bytes = 2000000
    timeout_seconds = 60                         # per file
    submodules = "read"                          # git submodules: "read" as headers only (default), or "scan"

    [rules]
    disable = ["ROC134", "libraries-nvtx-usage"]  # codes or names (former names too)
    enable = []                                  # when set, only these

    [parse]
    include_dirs = ["include", "src"]
    defines = ["USE_FAST_MATH=1"]
    compile_commands = "build/compile_commands.json"
    cuda_path = ""                               # a real CUDA toolkit: more fidelity, never required

    [target]
    targets = ["gfx942"]
    rocm = "7.0"

    [compile]                                    # the compile check (scanner.compile), when it is switched on
    offload_arch = "gfx90a"                      # default: the first target hipcc builds for, else gfx90a
    std = "c++20"                                # overrides every file's build standard; unset: each file's
                                                 # build's (scanner.build), else c++17
    timeout_seconds = 60                         # per file, the whole check

    [port]                                       # the repository's own ROCm build (scanner.port)
    hip_builds = ["Makefile:train_cu"]           # the HIP builds the team accepts (ids `<build file>:<target>`);
                                                 # [] declares none; unset: the HIP builds the build model finds

The compile check takes each file's include paths, macros and standard from its build (scanner.build), and adds
[parse]'s. Which hipcc runs, and any extra compiler argument, is the operator's choice (`scan --compile-check
--hipcc PATH`), never the repository's: a compiler flag can load a plugin or run a program.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from scanner.port import Port
from scanner.rules import resolve
from scanner.target import _GFX, TargetError, TargetProfile

CONFIG_FILE = ".rocport.toml"
DEFAULT_EXCLUDE = (".git/**", "**/.git/**")


class ConfigError(ValueError):
    """A bad .rocport.toml or option; the message names the key."""


@dataclass(frozen=True)
class ScanOptions:
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = 2_000_000
    timeout_seconds: float = 60.0
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()  # relative to the root, or absolute
    defines: tuple[str, ...] = ()
    compile_commands: str = ""
    cuda_path: str = ""
    target: TargetProfile = field(default_factory=TargetProfile)
    jobs: int = 1
    translate: bool = False  # also translate each file to HIP (statistics and a diff in its result)
    translate_backend: str = "auto"
    # The compile check (scanner.compile): each translated file compiled for an AMD target; implies `translate`.
    compile_check: bool = False
    hipcc: str = ""  # path; empty: hipcc on PATH
    hip_compiler: str = "auto"  # auto, clang (with the bundled ROCm headers) or hipcc: scanner.compile.compilers
    compile_arch: str = ""  # --offload-arch; empty: the first of target.targets hipcc builds for, else gfx90a
    # `[compile] std`: an explicit override of every unit's standard; "": each unit's build's, else c++17
    # (scanner.compile.unit_build).
    compile_std: str = ""
    compile_args: tuple[str, ...] = ()  # extra compiler arguments (command line only)
    compile_timeout_seconds: float = 60.0
    # The HIP builds the team accepts as the repository's ROCm build (ids `<build file>:<target>`, see
    # scanner.build.model.Compilation.build_id): None lets the build model's findings stand (the CLI's default);
    # the portal passes the decision it keeps (the baseline's, or a manager's); .rocport.toml's declaration wins.
    hip_builds: tuple[str, ...] | None = None
    # Git submodules (scanner.submodules): "read" as headers for the parse and the build model, no findings in
    # them; "scan" as the project's own files.
    submodules: str = "read"
    # The submodules that were not fetched, (path, why): given by the portal; scanner.plan adds the ones
    # `.gitmodules` lists that are not checked out. Named in the parse reason of each file whose include they
    # would have served.
    submodules_missing: tuple[tuple[str, str], ...] = ()
    # The repository's own ROCm path (scanner.port), learned by scanner.plan; not a setting a user gives.
    port: Port = field(default_factory=Port)

    def merged(self, **changes) -> ScanOptions:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


_SCHEMA: dict[str, dict[str, type]] = {
    "scan": {"exclude": list, "max_file_bytes": int, "timeout_seconds": (int, float), "submodules": str},
    "rules": {"enable": list, "disable": list},
    "parse": {"include_dirs": list, "defines": list, "compile_commands": str, "cuda_path": str},
    "target": {"targets": list, "rocm": str},
    "compile": {"offload_arch": str, "std": str, "timeout_seconds": (int, float)},
    "port": {"hip_builds": list},
}


def load(root: Path, base: ScanOptions | None = None) -> ScanOptions:
    """Options for scanning `root`: `base` overlaid with the repository's .rocport.toml, if any."""
    base = base or ScanOptions()
    path = root / CONFIG_FILE
    if not path.is_file():
        return base
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        # tomllib raises TOMLDecodeError for bad syntax but lets through int()'s ValueError for a number of
        # more than 4,300 digits and RecursionError for arrays nested a few thousand deep.
        raise ConfigError(f"{CONFIG_FILE}: not valid TOML: {_short(exc)}") from None
    return from_mapping(data, base)


# Limits a repository may set: finite, and within what the pool's clocks and reads take (a timeout of `inf`
# overflows the pool's wait, `nan` disables the per-file timeout, a size of 2**63 overflows read()).
_NUMBER_RANGES = {
    "scan.max_file_bytes": (0, 2**31),
    "scan.timeout_seconds": (0, 86_400),
    "compile.timeout_seconds": (0, 86_400),
}


def from_mapping(data: dict, base: ScanOptions) -> ScanOptions:
    for section, value in data.items():
        if section not in _SCHEMA:
            raise ConfigError(f"{CONFIG_FILE}: unknown section [{section}] (known: {', '.join(_SCHEMA)})")
        if not isinstance(value, dict):
            raise ConfigError(f"{CONFIG_FILE}: [{section}] must be a table")
        for key, item in value.items():
            expected = _SCHEMA[section].get(key)
            if expected is None:
                known = ", ".join(_SCHEMA[section])
                raise ConfigError(f"{CONFIG_FILE}: unknown key '{section}.{key}' (known: {known})")
            if not isinstance(item, expected) or isinstance(item, bool):
                raise ConfigError(
                    f"{CONFIG_FILE}: '{section}.{key}' must be {_type_name(expected)}, not {type(item).__name__}"
                )
            if isinstance(item, list) and not all(isinstance(x, str) for x in item):
                raise ConfigError(f"{CONFIG_FILE}: '{section}.{key}' must be a list of strings")
            _check_value(f"{section}.{key}", item)
    scan, rules = data.get("scan", {}), data.get("rules", {})
    parse, target = data.get("parse", {}), data.get("target", {})
    compile_ = data.get("compile", {})
    declared = data.get("port", {}).get("hip_builds")
    _check_compile(compile_)
    if scan.get("submodules", "read") not in ("read", "scan"):
        shown = _short(scan["submodules"])
        raise ConfigError(f'{CONFIG_FILE}: \'scan.submodules\' must be "read" or "scan", not {shown}')
    _check_rule_names(rules.get("enable", []), "rules.enable")
    _check_rule_names(rules.get("disable", []), "rules.disable")
    _check_inside("parse.compile_commands", parse.get("compile_commands", ""))
    try:
        TargetProfile.parse(target.get("targets", list(base.target.targets)), None)
    except TargetError as exc:
        raise ConfigError(f"{CONFIG_FILE}: 'target.targets': {exc}") from None
    try:
        profile = TargetProfile.parse(
            target.get("targets", list(base.target.targets)), target.get("rocm", base.target.rocm_text)
        )
    except TargetError as exc:
        raise ConfigError(f"{CONFIG_FILE}: 'target.rocm': {exc}") from None
    return replace(
        base,
        exclude=base.exclude + tuple(scan.get("exclude", ())),
        max_file_bytes=scan.get("max_file_bytes", base.max_file_bytes),
        timeout_seconds=float(scan.get("timeout_seconds", base.timeout_seconds)),
        submodules=scan.get("submodules", base.submodules),
        enable=tuple(rules.get("enable", base.enable)),
        disable=base.disable + tuple(rules.get("disable", ())),
        include_dirs=base.include_dirs + tuple(parse.get("include_dirs", ())),
        defines=base.defines + tuple(parse.get("defines", ())),
        compile_commands=parse.get("compile_commands", base.compile_commands),
        cuda_path=parse.get("cuda_path", base.cuda_path),
        target=profile,
        compile_arch=compile_.get("offload_arch", base.compile_arch),
        compile_std=compile_.get("std", base.compile_std),
        compile_timeout_seconds=float(compile_.get("timeout_seconds", base.compile_timeout_seconds)),
        # A declaration in the repository is a reviewed change of the code: it wins over the portal's decision.
        hip_builds=tuple(declared) if declared is not None else base.hip_builds,
    )


def _check_compile(section: dict) -> None:
    # inside: scanner.compile loads libclang, and `import scanner` loads this module
    from scanner.compile.toolchain import STD_PATTERN

    arch = section.get("offload_arch")
    if arch is not None and not _GFX.fullmatch(arch):  # the target profile's own check
        raise ConfigError(
            f"{CONFIG_FILE}: 'compile.offload_arch': unknown GPU target {_short(arch)}: expected an LLVM "
            "AMDGPU name such as 'gfx90a'"
        )
    std = section.get("std")
    if std is not None and not STD_PATTERN.fullmatch(std):
        raise ConfigError(f"{CONFIG_FILE}: 'compile.std' must be a C++ dialect such as 'c++17', not {_short(std)}")


def _check_value(key: str, item) -> None:
    """Numbers within their range, and no NUL in any text: it would cut a compiler argument or a path short."""
    if key in _NUMBER_RANGES:
        low, high = _NUMBER_RANGES[key]
        if not (isinstance(item, int) or math.isfinite(item)) or not low < item <= high:
            raise ConfigError(
                f"{CONFIG_FILE}: '{key}' must be a number above {low} and at most {high}, not {_short(item)}"
            )
    texts = item if isinstance(item, list) else [item] if isinstance(item, str) else []
    if any("\x00" in text for text in texts):
        raise ConfigError(f"{CONFIG_FILE}: '{key}' must not contain a NUL character")


def _check_inside(key: str, relative: str) -> None:
    """A path the repository names must stay in the repository: its configuration must not make the scanner
    read another file of the machine that scans it."""
    parts = relative.replace("\\", "/").split("/")
    if relative.startswith(("/", "~")) or ".." in parts:
        raise ConfigError(f"{CONFIG_FILE}: '{key}' must be a path inside the repository, not {_short(relative)}")


def _short(value, limit: int = 80) -> str:
    """A value or error quoted in a message, cut short: a hostile file may hold megabytes in one value."""
    try:
        text = repr(value) if not isinstance(value, BaseException) else str(value)
    except ValueError:  # repr() of an int past 4,300 digits
        text = "a number of more than 4,300 digits"
    return text if len(text) <= limit else text[:limit] + "..."


def _check_rule_names(values: list[str], key: str) -> None:
    for value in values:
        if resolve(value) is None:  # a code, a name, or a name the rule had before
            raise ConfigError(f"{CONFIG_FILE}: '{key}' names an unknown rule {_short(value)}")


def _type_name(expected) -> str:
    if isinstance(expected, tuple):
        return "a number"
    return {list: "a list", int: "an integer", str: "a string"}.get(expected, expected.__name__)
