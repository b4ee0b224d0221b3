"""What a rule is: metadata, the events it subscribes to, and the check function that reads a Context.

A check is typed, `def check(ctx: Context) -> None` (a "repository" rule's reads a
scanner.repository.RepositoryContext, a "compile" rule's a scanner.compile.findings.CompileContext), and reads
nothing but its context: rule modules import no libclang and never reach under the Context
(tests/architecture/test_rules_surface.py). scanner.analysis.context lists what a Context offers.

A rule module defines exactly one `RULE = Rule(...)`; its docstring is the rule's documentation, in the
sections *What it finds / Why it breaks on ROCm / Example / Use instead / References*. Codes are assigned
only in `scanner.rules.codes`.

Codes and names: the code (ROC101) is the stable identity, stored by the portal and exported in SARIF, never
renumbered. The name is `<family>-<module>`: the family package and the module name with `_` as `-`, the family
word said once when the module already starts with it (warp.warp_sized_group -> `warp-sized-group`,
container.cuda_apt_repository -> `container-cuda-apt-repository`); `expected_name` computes it and a test holds
every rule to it. A rule renamed keeps its old names in `formerly`: suppression comments, `.rocport.toml`'s
`rules.enable`/`rules.disable` and `explain` accept them (scanner.rules.resolve), and docs/rules.md lists them.

Events a rule can subscribe to (`on=`):
- AST (full or stubbed parse only): "call", "binary_op", "unary_op", "var_decl", "function", "for",
  "decl_ref", "member_ref", "type_ref", "cast", "case";
- tokens (every parse mode, every #if branch): "identifier" (filtered by `names`/`prefixes`), "include",
  "directive", "asm", "launch";
- "file": once per file, for file-level checks (a `.ptx` file, and every rule on a text file: build files,
  containers, scripts, YAML, Python; scanner.rules.textual);
- "repository": once per scan, after every file (scanner.repository), for what only the whole checkout shows
  (host setup that never disables NUMA balancing). Such a rule has `languages={"repository"}` (the language of
  the repository-level result) and names the languages of the files it reads in `reads`;
- "compile": once per file the compile check built (scanner.compile, an external compiler: hipcc), with that
  file's compiler diagnostics (scanner.compile.findings.CompileContext). Such a rule runs only where the check
  ran: `rules_run` counts it for a file only when the file's compile status is a checked one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scanner.model import Risk, Severity

if TYPE_CHECKING:
    from scanner.analysis.context import Context
    from scanner.target import TargetProfile

AST_EVENTS = frozenset(
    {
        "call",
        "binary_op",
        "unary_op",
        "var_decl",
        "function",
        "for",
        "decl_ref",
        "member_ref",
        "type_ref",
        "cast",
        "case",
    }
)
TOKEN_EVENTS = frozenset({"identifier", "include", "directive", "asm", "launch"})
FILE_EVENTS = frozenset({"file"})
REPOSITORY_EVENTS = frozenset({"repository"})
COMPILE_EVENTS = frozenset({"compile"})
ALL_EVENTS = AST_EVENTS | TOKEN_EVENTS | FILE_EVENTS | REPOSITORY_EVENTS | COMPILE_EVENTS

DOC_SECTIONS = ("What it finds", "Why it breaks on ROCm", "Example", "Use instead", "References")

# A target-aware severity: given the profile and the rule's base severity, the severity and a sentence
# saying why for these targets (empty when nothing target-specific applies).
TargetSeverity = Callable[["TargetProfile", Severity], tuple[Severity, str]]


@dataclass
class Rule:
    name: str  # `<family>-<module>` (expected_name); codes, not names, identify findings
    risk: Risk
    severity: Severity
    on: tuple[str, ...]
    check: Callable[[Context], None]
    summary: str  # one line, shown in reports and as SARIF shortDescription
    names: frozenset[str] = frozenset()  # "identifier" events: exact names
    prefixes: tuple[str, ...] = ()  # "identifier" events: name prefixes
    languages: frozenset[str] = frozenset({"cuda", "c++", "c"})
    target_severity: TargetSeverity | None = None
    # AST events run only in files whose tokens name one of these ("cuda*" is a prefix): a cheap file-level
    # filter, so a rule about ballots costs nothing in a file that never calls one.
    requires: tuple[str, ...] = ()
    code: str = ""  # set by the registry from codes.py
    doc: str = ""  # set by the registry from the module docstring
    module: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    reads: frozenset[str] = frozenset()  # "repository" rules: languages of the files they read
    # A file read as tokens only (no syntax tree) still gets the rule: called once per code line with
    # `ctx.line_code` (the line's tokens joined by single spaces); reports say they were found from tokens.
    token_check: Callable[[Context], None] | None = None
    # The rule checks the ROCm side itself (a ROCm run flag, rocm-smi, NUMA balancing on an MI300X host): an
    # existing port does not make its findings the "NVIDIA side" (scanner.analysis.port_notes).
    rocm_side: bool = False
    # Names the rule had before (oldest first): still accepted wherever a user writes a rule's name.
    formerly: tuple[str, ...] = ()

    def __post_init__(self):
        unknown = set(self.on) - ALL_EVENTS
        if unknown:
            raise ValueError(f"rule {self.name}: unknown events {sorted(unknown)}")

    def applies_to(self, identifiers: frozenset[str]) -> bool:
        if not self.requires:
            return True
        for name in self.requires:
            if name.endswith("*"):
                prefix = name[:-1]
                if any(ident.startswith(prefix) for ident in identifiers):
                    return True
            elif name in identifiers:
                return True
        return False

    def severity_for(self, profile: TargetProfile) -> tuple[Severity, str]:
        if self.target_severity is None:
            return self.severity, ""
        return self.target_severity(profile, self.severity)


def expected_name(module: str) -> str:
    """The name a rule in `module` ("container.cuda_apt_repository", as in codes.CODES) must have:
    `<family>-<module>` with `_` as `-`, the family word not repeated ("warp.warp_sized_group" -> "warp-sized-group").
    """
    family, _, leaf = module.partition(".")
    dashed = leaf.replace("_", "-")
    return dashed if leaf.startswith(family + "_") else f"{family}-{dashed}"


def wave64_severity(profile: TargetProfile, base: Severity) -> tuple[Severity, str]:
    """For warp-size assumptions: they break where wavefronts have 64 lanes, and only there."""
    if profile.has_wave64:
        targets = ", ".join(profile.describe(t) for t in profile.wave64_targets)
        return base, f"On {targets} a wavefront has 64 lanes, not 32."
    targets = ", ".join(profile.describe(t) for t in profile.targets)
    return Severity.LOW, f"Harmless on {targets} (32-lane wavefronts), but wrong on any CDNA/Instinct GPU."
