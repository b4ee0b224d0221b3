"""What the port that is already there does to a finding: lowers it to info and says why.

Two cases, both facts the scan knows (scanner.port, scanner.analysis.hip_branches):
- C, C++ and CUDA: the finding sits in a preprocessor branch HIP-Clang never compiles (the CUDA side of the
  project's `#ifdef GGML_USE_HIP`, an `#if __CUDA_ARCH__ >= 800`): the ROCm build does not see the code;
- the rest of the repository (ROC2xx: build files, CI, containers, scripts): the repository already builds or
  tests for ROCm somewhere, so a CUDA-only file is its NVIDIA side, not a migration still to do. Rules that check
  the ROCm side itself (`Rule.rocm_side`) keep their severity.
"""

from __future__ import annotations

from scanner.analysis import hip_branches
from scanner.model import Severity

_CXX = frozenset({"cuda", "c++", "c"})


class PortNotes:
    def __init__(self, facts):
        self.facts = facts
        self._dead: dict | None = None

    def adjust(self, rule, line: int, severity: Severity) -> tuple[Severity, str]:
        facts = self.facts
        if facts.language in _CXX:
            branch = self.dead_lines().get(line)
            if branch is not None:
                return Severity.INFO, (f"HIP-Clang does not compile this line (`{branch.directive}`, line "
                                       f"{branch.line}): the ROCm build takes another branch.")
            return severity, ""
        port = facts.port
        if port.ported and rule.code.startswith("ROC2") and not rule.rocm_side:
            return Severity.INFO, (f"This repository already builds for ROCm ({port.describe()}): this is its "
                                   "NVIDIA side.")
        return severity, ""

    def dead_lines(self) -> dict:
        if self._dead is None:
            view = self.facts.view
            self._dead = hip_branches.dead_lines(view.directives, len(self.facts.lines),
                                                 self.facts.port.hip_macros) if view.directives else {}
        return self._dead
