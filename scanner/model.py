"""The scanner's output types: plain dataclasses, no behaviour beyond (de)serialisation."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field


class Risk(str, enum.Enum):
    """How a finding breaks on ROCm; the dashboards group by this."""

    SILENT_WRONG_RESULT = "silent-wrong-result"
    BUILD_BREAK = "build-break"
    RUNTIME_FAILURE = "runtime-failure"
    PERFORMANCE = "performance"
    DEPRECATION = "deprecation"


class Severity(str, enum.Enum):
    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = [Severity.INFO, Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL]


class ParseMode(str, enum.Enum):
    """How a file was understood; "no findings" must never hide "not parsed"."""

    AST = "ast"  # full AST, every include resolved
    AST_STUBBED = "ast-stubbed"  # AST, with missing headers replaced by empty stubs
    TOKENS = "tokens"  # libclang could not make sense of it: token-level rules only
    TEXT = "text"  # not C++ (a .ptx file, a build file): file-level rules only
    ERROR = "error"  # not analysed at all: see FileResult.error


@dataclass(slots=True)
class Finding:
    rule: str  # "ROC101"
    name: str  # "warp-size-lane-arithmetic"
    risk: Risk
    severity: Severity
    path: str  # relative to the scanned root, "/" separated
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    snippet: str = ""  # the source line(s) the finding points at
    fingerprint: str = ""  # content identity, path excluded (see scanner.fingerprint)
    occurrence: int = 0  # index among findings with the same content hash in this file
    suppressed: bool = False
    suppression_reason: str = ""

    def to_dict(self) -> dict:
        data = asdict(self)
        data["risk"] = self.risk.value
        data["severity"] = self.severity.value
        return data


@dataclass(slots=True)
class ParseHealth:
    mode: ParseMode
    stubbed_headers: list[str] = field(default_factory=list)
    error_count: int = 0  # clang errors left in the main file after stubbing
    first_errors: list[str] = field(default_factory=list)
    reparse_rounds: int = 0
    skipped_ranges: list[tuple[int, int]] = field(default_factory=list)  # inactive #if branches (lines)
    defines: list[str] = field(default_factory=list)  # macros the analysed configuration defined
    fallback_reason: str = ""
    # "" for UTF-8; otherwise what the text was read as and why: a compiler reads bytes, so a Latin-1 byte in a
    # comment or string must not cost a file its analysis, but the result says the encoding was guessed.
    encoding_guess: str = ""
    system_headers: bool = False  # parsed as plain C/C++ against the machine's own headers (a host file)
    # Dependencies whose missing headers a model stood in for (scanner.parsing.models): "torch", "cutlass", ...
    modelled_headers: list[str] = field(default_factory=list)
    # A header fragment read after the lines of its includer that precede its #include (scanner.parsing.includers):
    # "path:line" of that #include, "" when the header was read on its own.
    read_after: str = ""

    def to_dict(self) -> dict:
        data = asdict(self)
        data["mode"] = self.mode.value
        data["skipped_ranges"] = [list(r) for r in self.skipped_ranges]
        return data


@dataclass(slots=True)
class FileStats:
    lines: int = 0
    bytes: int = 0
    cuda_refs: dict[str, int] = field(default_factory=dict)  # by name-table kind ("memory", "library", ...)
    cuda_refs_total: int = 0
    kernels: int = 0
    kernel_launches: int = 0


@dataclass(slots=True)
class FileResult:
    path: str
    language: str  # "cuda", "c++", "c", "ptx"
    health: ParseHealth
    stats: FileStats
    findings: list[Finding] = field(default_factory=list)
    error: str = ""  # set when health.mode is ERROR: why the file was not analysed
    elapsed_ms: float = 0.0
    translation: dict | None = None  # with ScanOptions.translate: backend, statistics, diff, unconverted names
    compile: dict | None = None  # with ScanOptions.compile_check: status, target, stubs, diagnostics (scanner.compile)

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "language": self.language,
            "parse": self.health.to_dict(),
            "stats": asdict(self.stats),
            "findings": [f.to_dict() for f in self.findings],
            "error": self.error,
            "elapsed_ms": round(self.elapsed_ms, 2),
            **({"translation": self.translation} if self.translation is not None else {}),
            **({"compile": self.compile} if self.compile is not None else {}),
        }
