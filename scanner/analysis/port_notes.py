"""What the port that is already there does to a finding: lowers it to info and says why.

Two cases, both facts the scan knows (scanner.port, scanner.analysis.hip_branches):
- C, C++ and CUDA: the finding sits in a preprocessor branch HIP-Clang never compiles (the CUDA side of the
  project's `#ifdef GGML_USE_HIP`, an `#if __CUDA_ARCH__ >= 800`): the ROCm build does not see the code;
- C, C++ and CUDA in a ported repository: a warp-size assumption in shared code runs in the project's ROCm
  build already, so it drops to info (a 32-bit mask, ROC106, would not have built: it keeps its severity);
- a CUDA source with a hand-written HIP twin (kernels.cu beside kernels.hip): the ROCm build compiles the twin;
- the rest of the repository (ROC2xx: build files, CI, containers, scripts): the repository already builds or
  tests for ROCm somewhere, so a CUDA-only file is its NVIDIA side, not a migration still to do. Rules that check
  the ROCm side itself (`Rule.rocm_side`) keep their severity.
"""

from __future__ import annotations

from scanner.analysis import hip_branches
from scanner.model import Severity

_CXX = frozenset({"cuda", "c++", "c"})
# Warp-size assumptions that a working ROCm build has already met (or chose to keep, as 32-lane logical warps);
# a 32-bit mask or a missing intrinsic (ROC106) would not have built, so those stay.
_LANE_RULES = frozenset({"ROC101", "ROC102", "ROC103", "ROC104", "ROC105", "ROC107", "ROC108", "ROC110"})


class PortNotes:
    def __init__(self, facts):
        self.facts = facts
        self._dead: dict | None = None
        self._by_line: dict | None = None

    def adjust(self, rule, line: int, severity: Severity) -> tuple[Severity, str]:
        facts = self.facts
        if facts.language in _CXX:
            branch = self.dead_lines().get(line)
            if branch is not None:
                return Severity.INFO, (
                    f"HIP-Clang does not compile this line (`{branch.directive}`, line "
                    f"{branch.line}): the ROCm build takes another branch."
                )
            if facts.path in facts.port.cuda_only_sources:
                return Severity.INFO, (
                    "The project builds this file only for CUDA (its CMake adds it, or every "
                    "source that includes it, inside a CUDA-only if()): its ROCm build never "
                    "compiles it."
                )
            if facts.path in facts.port.hip_twins:
                return Severity.INFO, (
                    "This file has a hand-written HIP twin beside it (a .hip or _hip source): "
                    "the ROCm build compiles that one, so check the twin rather than this line."
                )
            mapped = self.mapped_on(line) if rule.code[3:4] == "1" and rule.code[4:5] in "2356" else ""
            if mapped:
                return Severity.INFO, (
                    f"The project's own HIP header maps `{mapped}` to its HIP counterpart "
                    "(`#define` beside HIP's runtime): this use is already ported."
                )
            if facts.port.ported and rule.code in _LANE_RULES:
                return Severity.INFO, (
                    f"This repository already builds for ROCm ({facts.port.describe()}): this "
                    "32-lane logic runs in its ROCm build, as 32-lane logical warps or under the "
                    "project's own per-platform constants; check it only for targets that build "
                    "does not cover."
                )
            return severity, ""
        port = facts.port
        if port.ported and rule.code.startswith("ROC2") and not rule.rocm_side:
            return Severity.INFO, (
                f"This repository already builds for ROCm ({port.describe()}): this is its NVIDIA side."
            )
        return severity, ""

    def mapped_on(self, line: int) -> str:
        """A CUDA name on `line` that the project's HIP header maps (scanner.port.Port.hip_mapped), or empty."""
        mapped = self.facts.port.hip_mapped
        if not mapped:
            return ""
        if self._by_line is None:
            self._by_line = {}
            for tok in self.facts.view.code:
                if tok.text in mapped:
                    self._by_line.setdefault(tok.line, tok.text)
        return self._by_line.get(line, "")

    def dead_lines(self) -> dict:
        if self._dead is None:
            view = self.facts.view
            port = self.facts.port
            self._dead = (
                hip_branches.dead_lines(view.directives, len(self.facts.lines), port.hip_macros, port.hip_undefined)
                if view.directives
                else {}
            )
        return self._dead
