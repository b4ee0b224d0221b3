"""Which HIP builds a repository has, and which count: the build model's AMD targets with the sources they
compile, the team's decision (ScanOptions.hip_builds), whether the accepted ones cover every source the NVIDIA
builds compile; and the CUDA sources with a `.hip` twin, telling ROCport's own side-by-side copies from a port
someone wrote. scanner.port gathers the rest of what a repository's files say about its ROCm path.
"""

from __future__ import annotations

import os

from scanner.sourcetext import read_capped
from scanner.tree_walk import walk_entries

_READ_CAP = 512 * 1024


def has_hip_path(model, evidence) -> bool:
    """The build has a HIP path, perhaps behind an option (`elseif(BUILD_HIP) enable_language(HIP)`): then a
    source it adds only in a CUDA-only branch is one the ROCm build never compiles."""
    if evidence:
        return True
    if model is None:
        return False
    return "HIP" in model.languages or any(c.amd for b in model.files.values() for c in b.compilations)


def model_cuda_only(model) -> frozenset[str]:
    """Files every compilation of which sits in a branch the project's own ROCm build never takes (scanner.build's
    `Compilation.cuda_only`), headers compiled only through them included; and the sources a target's HIP build
    leaves out: every compilation NVIDIA's, of a target whose HIP branch builds it from other sources
    (CTranslate2's `list(REMOVE_ITEM CUDA_SOURCES src/ops/awq/...)` under `elseif(WITH_HIP)`)."""
    if model is None:
        return frozenset()
    amd_targets = {c.build_id for b in model.files.values() if b is not None for c in b.compilations if c.amd}
    return frozenset(
        path
        for path, file_build in model.files.items()
        if file_build is not None
        and file_build.compilations
        and all(
            not c.amd and (c.cuda_only or (c.nvidia and c.build_id in amd_targets)) for c in file_build.compilations
        )
    )


def sources_by_build(file_builds) -> tuple[dict, dict]:
    """Per build id, a compilation of it and the sources it compiles, for the AMD builds and for the NVIDIA
    builds, from scanner.build.model.FileBuild values (headers left out: they are compiled through sources). The
    one grouping the port and the portal's repository page share."""
    amd: dict[str, tuple] = {}
    nvidia: dict[str, tuple] = {}
    for file_build in file_builds:
        if file_build is None or file_build.via:
            continue
        for c in file_build.compilations:
            side = amd if c.amd else nvidia if c.nvidia else None
            if side is not None:
                side.setdefault(c.build_id, (c, set()))[1].add(file_build.path)
    return amd, nvidia


def hip_builds(model, accepted_ids, hip_sources: list[str]):
    """(every HIP build found, the accepted ids, how they were decided, the accepted builds' descriptions when
    they cover the NVIDIA side, the NVIDIA sources they do not cover)."""
    if model is None:
        return (), (), "found", (), ()
    amd, nvidia = sources_by_build(model.files.values())
    compiled_by = {build_id: [compilation, paths] for build_id, (compilation, paths) in amd.items()}
    nvidia_sources = {path for _, paths in nvidia.values() for path in paths}
    builds = tuple(
        (build_id, compilation.describe(), len(paths))
        for build_id, (compilation, paths) in sorted(
            compiled_by.items(), key=lambda kv: (kv[1][0].build_file, kv[1][0].line)
        )
    )
    found = tuple(build_id for build_id, _, _ in builds)
    if accepted_ids is None:
        accepted, decision = found, "found"
    else:
        accepted, decision = tuple(i for i in accepted_ids if i in found), "decided"
    if not accepted:
        return builds, accepted, decision, (), ()
    covered = set()
    for build_id in accepted:
        covered |= compiled_by[build_id][1]
    hip = set(hip_sources)
    uncovered = sorted(
        path
        for path in nvidia_sources
        if path not in covered and f"{path.rpartition('.')[0]}.hip" not in (covered | hip)
    )
    evidence = () if uncovered else tuple(compiled_by[i][0].describe() for i in accepted)
    return builds, accepted, decision, evidence, tuple(uncovered[:20])


_MAX_TWINS_TRANSLATED = 2000


def translated_twins(root: str, twins: frozenset[str], hip: set[str]) -> frozenset[str]:
    """The twins whose `.hip` copy is exactly what ROCport's built-in translator writes for them (what a
    side-by-side merge request of ROCport's commits). Its lane code is the CUDA source's: the twin rule must not
    call that work done, so a verdict changes only when someone changes the code."""
    candidates = sorted(rel for rel in twins if f"{rel.rpartition('.')[0]}.hip" in hip)[:_MAX_TWINS_TRANSLATED]
    if not candidates:
        return frozenset()
    # inside: the translator loads libclang, which plan() does only when there are twins to compare
    from scanner.translate.builtin import BuiltinTranslator
    from scanner.translate.model import TranslateOptions  # inside: its package's __init__ loads libclang

    translator = BuiltinTranslator(TranslateOptions(backend="builtin"))
    out = set()
    for rel in candidates:
        source = read_capped(os.path.join(root, rel), _READ_CAP)
        copy = read_capped(os.path.join(root, f"{rel.rpartition('.')[0]}.hip"), _READ_CAP)
        if source and copy and translator.translate(rel, source).text == copy:
            out.add(rel)
    return frozenset(out)


def twins(cuda_sources: list[str], hip_sources: list[str]) -> frozenset[str]:
    """CUDA sources whose HIP twin sits beside them: kernels.cu / kernels.hip, common.cuh / common_hip.cuh."""
    hip = set(hip_sources)
    twins = set()
    for rel in cuda_sources:
        stem, dot, suffix = rel.rpartition(".")
        if suffix not in ("cu", "cuh") or not dot:
            continue
        if f"{stem}.hip" in hip or f"{stem}_hip.{suffix}" in hip or f"{stem}_hip.cuh" in set(cuda_sources):
            twins.add(rel)
    return frozenset(twins)


def hip_sources(root: str) -> list[str]:
    """Hand-written HIP sources (`.hip`), in path order; version-control and package folders and symlinks
    skipped (scanner.tree_walk: safe on a hostile 1,000-deep tree)."""
    return sorted(
        os.path.relpath(entry.path, root).replace(os.sep, "/")
        for entry in walk_entries(root, enter=_is_source_folder)
        if entry.name.endswith(".hip") and not entry.is_symlink() and not entry.is_dir(follow_symlinks=False)
    )


def _is_source_folder(entry: os.DirEntry) -> bool:
    return entry.name not in (".git", ".hg", ".svn", "node_modules")
