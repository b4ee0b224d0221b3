"""What the port branch holds, commit by commit:

1. the reviewed translations: in place (`k.cu` keeps its name, its text becomes the HIP translation) or side by
   side (a `.cu` source gets a `.hip` sibling and the original stays, for a team that builds both for a while;
   headers and other files are edited in place, since other files include them by name);
2. the build-file changes ROCport can make safely (scanner.translate.build_switch.switch_build: the CMake language,
   find_package, the runtime's targets, nvcc to hipcc; the targets the build model says compile the ported sources
   take their `.hip` copies (side by side) or build them as HIP (in place)), checked by reading the build model of
   the result, as a commit of their own, its message listing what changed, what is left for a person and how to
   configure the branch for an AMD GPU.
"""

from __future__ import annotations

import posixpath

from portal.ports.branch import BaseReader, CommitSpec, PortError
from portal.ports.describe import TRAILER
from scanner.translate import build_switch

IN_PLACE, SIDE_BY_SIDE = "in_place", "side_by_side"
LISTED = 40


def side_name(path: str) -> str:
    """`src/k.cu` -> `src/k.hip` (a source); anything else keeps its name."""
    stem, ext = posixpath.splitext(path)
    return stem + ".hip" if ext == ".cu" else path


def commits(
    reader: BaseReader,
    files: dict[str, str],
    *,
    mode: str,
    message: str,
    reviewed: dict[str, str] | None = None,
    build_left: list | None = None,
) -> list[CommitSpec]:
    """`files`: path -> translation; `reviewed`: path -> the blob whose translation was approved. A file whose
    blob on the scanned commit is not the reviewed one (a review matched through a CI upload's stand-in, say) is
    refused: committing its translation would undo a change nobody reviewed. `build_left`, when given, receives
    what the build switch left for a person, `[build file, line, what, why]` each (also when it edits nothing)."""
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
    build = _build_commit(reader, renames, sorted(files), build_left)
    if build is not None:
        out.append(build)
    return out


def _build_commit(
    reader: BaseReader, renames: dict[str, str], ported: list[str], build_left: list | None = None
) -> CommitSpec | None:
    switch = build_switch.switch_build(reader.paths(), reader.text, renames=renames, ported=ported)
    if build_left is not None:
        build_left[:] = [[path, item.line, item.what.strip(), item.why] for path, item in switch.left]
    if not switch.texts:
        return None
    done = [
        f"{path}:{c.line}: {c.before.strip()} -> {c.after.strip() or '(removed)'} ({c.why})"
        for path, c in switch.changes
    ]
    left = [f"{path}:{item.line}: {item.what.strip()} ({item.why})" for path, item in switch.left]
    lines = ["Switch the build from CUDA to HIP", "", "Changes ROCport makes safely:"]
    lines += [f"- {line}" for line in done[:LISTED]] + (
        [f"- and {len(done) - LISTED} more"] if len(done) > LISTED else []
    )
    if left:
        lines += ["", "Left for a person:"]
        lines += [f"- {line}" for line in left[:LISTED]]
        lines += [f"- and {len(left) - LISTED} more"] if len(left) > LISTED else []
    if switch.configure:
        lines += ["", "Configure and build for an AMD GPU (CMAKE_HIP_ARCHITECTURES: the GPUs you target):", ""]
        lines += [f"    {command}" for command in switch.configure]
    return CommitSpec("\n".join(lines) + f"\n\n{TRAILER}\n", switch.texts)
