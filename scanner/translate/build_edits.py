"""What a build-file rewrite (scanner.translate.buildfiles) produces and how it is assembled. Pure: no I/O.

`Edits` collects replacements by offset and applies them back to front; `Rewrite` is the result: the new text, the
`Change`s made and what is `Left` for a person, each with its reason (`WHY`, the reasons shared by the CMake and
Makefile rewriters and read by the build switch, scanner.translate.build_switch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scanner.rules.cmake.nvcc_flags import NVCC_FLAGS

ARCH = "`--offload-arch=gfxNNN` (gfx942 MI300X, gfx90a MI200; `CMAKE_HIP_ARCHITECTURES` in CMake)"
WHY = {
    "dual": "a dual-platform build: nothing is rewritten (the CUDA path stays for NVIDIA); port what is below by hand",
    "findcuda": "a FindCUDA command (it runs nvcc), gone on ROCm: plain targets with HIP sources instead",
    "cuda_target": "FindCUDA's target (nvcc, CUDA_NVCC_FLAGS, OPTIONS): add_library/add_executable with HIP sources",
    "find_options": "options beyond a version, QUIET and REQUIRED have no sure hip meaning: `find_package(hip)` by hand",
    "arch": f"an sm number has no mechanical gfx equivalent: {ARCH} for the AMD GPUs you target",
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


class Edits:
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
            self.left.append(Left(line, what, WHY.get(why, why)))

    def result(self) -> Rewrite:
        text = self.text
        # Back to front; of two insertions at one offset the later is applied first, so it ends up after.
        for _, (start, end, new) in sorted(enumerate(self.edits), key=lambda e: (e[1][0], e[0]), reverse=True):
            text = text[:start] + new + text[end:]
        return Rewrite(text, sorted(self.changes, key=lambda c: c.line), sorted(self.left, key=lambda x: x.line))


def nvcc_flags(ed: Edits, line: int, value: str) -> None:
    # nvcc options are left, each with its hipcc/clang equivalent: context decides (a flag list may feed nvcc still).
    for pattern, advice in NVCC_FLAGS:
        for match in pattern.finditer(value):
            flag = match.group(0) + (re.match(r"[= ]arch=\S+", value[match.end() :]) or [""])[0]
            why = f"an nvcc option that hipcc/clang rejects: {advice.format(arch=ARCH)}"
            ed.leave(line + value.count("\n", 0, match.start()), flag, why)
