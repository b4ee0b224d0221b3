"""Does the HIP build? The compile check: each translated file compiled for an AMD GPU target with hipcc, with no
GPU needed, its errors turned into findings located in the original CUDA file.

Optional, like the hipify-clang backend: `ScanOptions(compile_check=True)` (`scan --compile-check`), and hipcc
configured or on PATH (Debian: `apt-get install hipcc libamdhip64-dev`; scripts/ensure-hipcc.sh). Without hipcc
every file says "not checked" and why. Per file the result is one of:

- `compiles`: its translation unit builds for the target (`-c`, device code assembled);
- `compiles-with-stubs`: it builds once the headers this machine lacks (a ROCm library that is not installed, a
  third-party dependency) are replaced by empty stubs, the way the scanner's parse stubs them; `stubbed` names
  them, and errors naming only what they would have declared are set aside: "could not be checked fully", not
  "does not compile";
- `fails`: compiler errors, sorted by kind (scanner.compile.diagnostics), each a finding of a rule in
  scanner/rules/compile/ (ROC901-ROC905) at the original line;
- `not-checked`: no hipcc, not C++ or no CUDA in it, a timeout; `reason` says which.

    from scanner import scan, ScanOptions
    for result in scan("checkout", ScanOptions(compile_check=True)):
        print(result.path, result.compile["status"], result.compile["stubbed"])

Each unit is compiled with the standard, include directories and defines the build model (scanner.build) gives
its file, the options' where the model knows none; `[compile] std` in .rocport.toml, when set, overrides the
build's standard (scanner.compile.unit_build says why).

Modules: toolchain (hipcc, its version, its command, no shell), graph (the include graph: which unit checks a
header), unit_build (what a unit is built with), tree (the translated tree in a temporary directory), linemap (translated line -> original line),
diagnostics (parsing and kinds), check (one file's check in a worker), findings (diagnostics -> rule reports),
system_libraries (a system MPI's headers, used when the machine has them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

from scanner.compile import compilers, system_libraries, unit_build
from scanner.compile.check import PROBE_TIMEOUT, CompileChecker, CompileSettings, settings_from
from scanner.compile.graph import attach as attach_graph
from scanner.compile.result import CHECKED, COMPILES, COMPILES_WITH_STUBS, FAILS, NOT_CHECKED, STATUSES, CompileResult
from scanner.compile.toolchain import DEFAULT_ARCH, DEFAULT_STD, Toolchain, ToolchainError

__all__ = [
    "CompileChecker",
    "CompileResult",
    "CompileSettings",
    "Toolchain",
    "ToolchainError",
    "STATUSES",
    "CHECKED",
    "COMPILES",
    "COMPILES_WITH_STUBS",
    "FAILS",
    "NOT_CHECKED",
    "DEFAULT_ARCH",
    "attach",
    "describe",
    "key_material",
    "settings_from",
]


def attach(root: Path, options, jobs: list) -> list:
    """The jobs of a scan with the unit that checks each file, the repository files that unit includes and what
    the build model says that unit is built with (`compile_build`, scanner.compile.unit_build)."""
    builds = {job.rel: getattr(job, "build", None) for job in jobs}
    jobs = attach_graph(
        root,
        jobs,
        tuple(options.include_dirs),
        options.max_file_bytes,
        lambda rel: unit_build.include_dir_sets(builds.get(rel)),
    )
    return [
        replace(job, compile_build=unit_build.of(builds.get(job.compile_unit))) if job.compile_unit else job
        for job in jobs
    ]


def describe(options) -> dict:
    """What the check on this machine is: the compiler, its version, target and flags, or why there is none.
    Probes the toolchain (about a second); the result is part of every cached result's key."""
    settings = settings_from(options)
    try:
        toolchain = compilers.resolve(
            settings.compiler,
            settings.hipcc,
            settings.wanted_targets,
            settings.std or DEFAULT_STD,
            max(settings.timeout_seconds, PROBE_TIMEOUT),
            settings.rocm,
        )
    except ToolchainError as exc:
        return {"available": False, "reason": str(exc)}
    return {
        "available": True,
        "compiler": toolchain.version,
        "toolchain": toolchain.kind,
        "target": toolchain.arch,
        "note": toolchain.note,
        "identity": hashlib.sha256(toolchain.identity.encode()).hexdigest(),
        "flags": list(settings.extra_args) + [f"-D{d}" for d in settings.defines],
        "system_headers": list(system_libraries.mpi_include_dirs()),  # an MPI installed later: check again
        "std": settings.std,  # [compile] std, the override; "": each unit's build says
    }


def key_material(description: dict, job, digest) -> str:
    """A file's compile key: the toolchain (`describe`), the unit that checks it and every repository file that
    unit includes, each by `digest(rel)` (a git blob sha in the portal), so that editing a header invalidates the
    cached results of the files it reaches, and only those; and the standard, include directories and defines the
    build gives that unit, so that a changed build re-checks it."""
    unit = getattr(job, "compile_unit", "")
    files = sorted({unit, *getattr(job, "compile_deps", ())} - {"", job.rel}) if unit else []
    built = getattr(job, "compile_build", None)
    material = {
        "toolchain": description,
        "unit": unit,
        "files": [[rel, digest(rel) or ""] for rel in files],
        "build": built.key() if built is not None else None,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()
