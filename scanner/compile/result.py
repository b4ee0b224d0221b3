"""A compile check's outcome for one file (scanner.compile.check): its status, what judged it and with which
standard and build, the diagnostics kept (the first MAX_DIAGNOSTICS; the counts cover them all) and their causes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scanner.compile import diagnostics as diags

COMPILES = "compiles"
COMPILES_WITH_STUBS = "compiles-with-stubs"
FAILS = "fails"
NOT_CHECKED = "not-checked"
STATUSES = (COMPILES, COMPILES_WITH_STUBS, FAILS, NOT_CHECKED)
CHECKED = frozenset({COMPILES, COMPILES_WITH_STUBS, FAILS})
MAX_DIAGNOSTICS = 50  # stored per file; the counts cover them all


@dataclass
class CompileResult:
    status: str
    reason: str = ""  # why not checked; for a failure, where its errors are when none is in this file
    target: str = ""
    compiler: str = ""
    unit: str = ""  # the translation unit compiled to check this file
    std: str = ""  # the C++ dialect it was compiled with ("c++20")
    build: str = ""  # the build whose flags it was compiled with ("cmake target `app` in CMakeLists.txt:4 (nvcc)")
    note: str = ""  # the target that was asked for, when another one was used
    stubbed: list[str] = field(default_factory=list)
    diagnostics: list[diags.Diagnostic] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # errors by kind (this file's, or the unit's)
    set_aside: int = 0
    elapsed_ms: float = 0.0
    cacheable: bool = True  # False for a timeout or a compiler crash: try again on the next scan

    @property
    def causes(self) -> dict[str, int]:
        """Errors by where they come from: the translation, the source (inline PTX), the code; and what the
        environment could not check (headers it lacks, APIs its headers predate)."""
        out: dict[str, int] = {}
        for kind, count in self.counts.items():
            origin = diags.ORIGIN.get(kind, "code")
            out[origin] = out.get(origin, 0) + count
        lacking = [name for name in self.stubbed if not diags.is_nvidia_header(name)]  # NVIDIA's: translation
        if self.set_aside or lacking:
            out["environment"] = self.set_aside + len(lacking)
        return out

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "reason": self.reason,
            "target": self.target,
            "compiler": self.compiler,
            "unit": self.unit,
            "std": self.std,
            "build": self.build,
            "note": self.note,
            "stubbed": self.stubbed,
            "diagnostics": [d.to_dict() for d in self.diagnostics[:MAX_DIAGNOSTICS]],
            "counts": self.counts,
            "causes": self.causes,
            "set_aside": self.set_aside,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "cacheable": self.cacheable,
        }
