"""Translation options, statistics and results: what every backend takes and returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

LAUNCH_CHEVRONS = "chevrons"
LAUNCH_GGL = "hipLaunchKernelGGL"


@dataclass(frozen=True)
class TranslateOptions:
    backend: str = "auto"  # auto | builtin | hipify-clang
    roc: bool = False  # rocBLAS/rocSPARSE/... names instead of hipBLAS/hipSPARSE/...
    launch_syntax: str = LAUNCH_CHEVRONS
    translate_comments: bool = False
    translate_strings: bool = False
    experimental: bool = False  # also rename what HIP has only as experimental (hipify's --experimental)
    insert_runtime_header: bool = True  # hipify-clang adds hip/hip_runtime.h to files that use CUDA
    hipify_clang: str = ""  # path; empty: looked up on PATH when backend is auto/hipify-clang
    cuda_path: str = ""
    include_dirs: tuple[str, ...] = ()
    extra_args: tuple[str, ...] = ()
    timeout_seconds: float = 60.0


@dataclass
class TranslationStats:
    """What hipify-clang's --print-stats reports, per file or summed."""

    converted_by_type: Counter = field(default_factory=Counter)
    converted_by_api: Counter = field(default_factory=Counter)
    converted_by_name: Counter = field(default_factory=Counter)
    unconverted_by_type: Counter = field(default_factory=Counter)
    unconverted_by_api: Counter = field(default_factory=Counter)
    unconverted_by_name: Counter = field(default_factory=Counter)
    replaced_bytes: int = 0
    total_bytes: int = 0
    changed_lines: int = 0
    total_lines: int = 0
    elapsed_seconds: float = 0.0
    files: int = 0
    converted_files: int = 0  # files with at least one changed line

    @property
    def converted(self) -> int:
        return sum(self.converted_by_type.values())

    @property
    def unconverted(self) -> int:
        return sum(self.unconverted_by_type.values())

    @property
    def conversion_percent(self) -> float:
        """hipify-clang's figure: 0.0 when the file has no CUDA reference at all."""
        total = self.converted + self.unconverted
        return 0.0 if total == 0 else 100.0 - self.unconverted * 100.0 / total

    def count(self, converted: bool, kind: str, api: str, name: str) -> None:
        if converted:
            self.converted_by_type[kind] += 1
            self.converted_by_api[api] += 1
            self.converted_by_name[name] += 1
        else:
            self.unconverted_by_type[kind] += 1
            self.unconverted_by_api[api] += 1
            self.unconverted_by_name[name] += 1

    def add(self, other: TranslationStats) -> None:
        for attr in (
            "converted_by_type",
            "converted_by_api",
            "converted_by_name",
            "unconverted_by_type",
            "unconverted_by_api",
            "unconverted_by_name",
        ):
            getattr(self, attr).update(getattr(other, attr))
        self.replaced_bytes += other.replaced_bytes
        self.total_bytes += other.total_bytes
        self.changed_lines += other.changed_lines
        self.total_lines += other.total_lines
        self.elapsed_seconds += other.elapsed_seconds
        self.files += other.files
        self.converted_files += other.converted_files

    def to_dict(self) -> dict:
        return {
            "converted": self.converted,
            "unconverted": self.unconverted,
            "conversion_percent": round(self.conversion_percent, 1),
            "replaced_bytes": self.replaced_bytes,
            "total_bytes": self.total_bytes,
            "changed_lines": self.changed_lines,
            "total_lines": self.total_lines,
            "elapsed_seconds": round(self.elapsed_seconds, 4),
            "converted_by_type": dict(sorted(self.converted_by_type.items())),
            "converted_by_api": dict(sorted(self.converted_by_api.items())),
            "converted_by_name": dict(sorted(self.converted_by_name.items())),
            "unconverted_by_type": dict(sorted(self.unconverted_by_type.items())),
            "unconverted_by_api": dict(sorted(self.unconverted_by_api.items())),
            "unconverted_by_name": dict(sorted(self.unconverted_by_name.items())),
        }


@dataclass
class Unconverted:
    """A CUDA reference left as it was: HIP has no equivalent for it."""

    name: str
    line: int
    column: int
    reason: str


@dataclass
class TranslationResult:
    path: str
    text: str  # the translated text (the original, byte for byte, where nothing changed)
    stats: TranslationStats
    backend: str  # "builtin" | "hipify-clang"
    backend_version: str
    warnings: list[str] = field(default_factory=list)
    unconverted: list[Unconverted] = field(default_factory=list)
    fallback_reason: str = ""  # why "auto" used the built-in translator for this file
    error: str = ""  # the file could not be translated at all (unreadable, binary)

    @property
    def changed(self) -> bool:
        return self.stats.changed_lines > 0

    def to_dict(self, include_text: bool = False) -> dict:
        data = {
            "path": self.path,
            "backend": self.backend,
            "backend_version": self.backend_version,
            "stats": self.stats.to_dict(),
            "warnings": self.warnings,
            "unconverted": [u.__dict__ for u in self.unconverted],
            "fallback_reason": self.fallback_reason,
            "error": self.error,
        }
        if include_text:
            data["text"] = self.text
        return data
