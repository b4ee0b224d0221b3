"""What the port branch holds, commit by commit:

1. the reviewed translations: in place (`k.cu` keeps its name, its text becomes the HIP translation) or side by
   side (a `.cu` source gets a `.hip` sibling and the original stays, for a team that builds both for a while;
   headers and other files are edited in place, since other files include them by name);
2. the build-file changes ROCport can make safely (scanner.translate.buildfiles: the CMake language, find_package,
   the runtime's targets, nvcc to hipcc; in side-by-side mode the switched source names), as a commit of their own,
   its message listing what changed and what is left for a person.
"""

from __future__ import annotations

import posixpath

from portal.ports.branch import BaseReader, CommitSpec, PortError
from portal.ports.describe import TRAILER
from scanner.translate import buildfiles

IN_PLACE, SIDE_BY_SIDE = "in_place", "side_by_side"
_CMAKE = ("CMakeLists.txt",)
_MAKE = ("Makefile", "makefile", "GNUmakefile")
LISTED = 40


def side_name(path: str) -> str:
    """`src/k.cu` -> `src/k.hip` (a source); anything else keeps its name."""
    stem, ext = posixpath.splitext(path)
    return stem + ".hip" if ext == ".cu" else path


def _build_files(paths: list[str]) -> list[tuple[str, str]]:
    out = []
    for path in paths:
        name = posixpath.basename(path)
        if name in _CMAKE or name.endswith(".cmake"):
            out.append((path, "cmake"))
        elif name in _MAKE or name.endswith(".mk"):
            out.append((path, "make"))
    return out


def commits(
    reader: BaseReader, files: dict[str, str], *, mode: str, message: str, reviewed: dict[str, str] | None = None
) -> list[CommitSpec]:
    """`files`: path -> translation; `reviewed`: path -> the blob whose translation was approved. A file whose
    blob on the scanned commit is not the reviewed one (a review matched through a CI upload's stand-in, say) is
    refused: committing its translation would undo a change nobody reviewed."""
    changed = sorted(path for path, blob in (reviewed or {}).items() if reader.blob_sha(path) != blob)
    if changed:
        raise PortError(
            "reviews_changed",
            f"{', '.join(changed[:5])} changed since its translation was reviewed: review it again on the newest scan",
        )
    renames = {path: side_name(path) for path in files} if mode == SIDE_BY_SIDE else {}
    renames = {old: new for old, new in renames.items() if new != old}
    sources = {renames.get(path, path): text for path, text in files.items()}
    out = [CommitSpec(message, sources)]
    build = _build_commit(reader, renames)
    if build is not None:
        out.append(build)
    return out


def _build_commit(reader: BaseReader, renames: dict[str, str]) -> CommitSpec | None:
    changed: dict[str, str] = {}
    done: list[str] = []
    left: list[str] = []
    for path, kind in _build_files(reader.paths()):
        text = reader.text(path)
        if text is None:
            continue
        # a build file names sources relative to its own directory
        here = posixpath.dirname(path)
        local = {
            posixpath.relpath(old, here or "."): posixpath.relpath(new, here or ".") for old, new in renames.items()
        }
        rewrite = (buildfiles.rewrite_cmake if kind == "cmake" else buildfiles.rewrite_makefile)(text, local)
        if rewrite.text != text:
            changed[path] = rewrite.text
            done += [f"{path}:{c.line}: {c.before.strip()} -> {c.after.strip()} ({c.why})" for c in rewrite.changes]
        left += [f"{path}:{item.line}: {item.what.strip()} ({item.why})" for item in rewrite.left]
    if not changed:
        return None
    lines = ["Switch the build from CUDA to HIP", "", "Changes ROCport makes safely:"]
    lines += [f"- {line}" for line in done[:LISTED]] + (
        [f"- and {len(done) - LISTED} more"] if len(done) > LISTED else []
    )
    if left:
        lines += ["", "Left for a person:"]
        lines += [f"- {line}" for line in left[:LISTED]]
        lines += [f"- and {len(left) - LISTED} more"] if len(left) > LISTED else []
    return CommitSpec("\n".join(lines) + f"\n\n{TRAILER}\n", changed)
