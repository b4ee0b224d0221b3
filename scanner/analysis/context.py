"""The Context a rule reads: what the event is about, where it sits, and a few semantic helpers.

`Context` is the only surface a rule sees (rules import no libclang: a test checks it). AST events carry a `Node`
(ROCport's own, lazily computed view; its `is_*` predicates answer the cursor-kind questions), token events a
`Token`, `Include` or `Directive`. The helpers answer the questions the catalogue asks: the callee of a call,
whether code runs on the device, which preprocessor guards enclose it, the value of a constant, and whether a value
derives from a thread or lane id.

What a rule reads of the file, by name:
- `ctx.view` (scanner.analysis.code_view.CodeView): the tokens, code tokens, directives and includes, and a code
  token's index and neighbours (`ctx.view.index(tok)`, `ctx.view.neighbour(tok, step)`), indexed once per file;
- `ctx.functions`, `ctx.function_at(line)`: the file's functions (FunctionInfo);
- `ctx.path`, `ctx.language`, `ctx.lines`, `ctx.text`, `ctx.line_text(n)`, `ctx.names`, `ctx.target`, `ctx.port`,
  `ctx.build` (the build model's view of the file),
  `ctx.has_ast`, `ctx.guards`, `ctx.platform_guarded`, `ctx.hip_guarded`, `ctx.parsed`, `ctx.parse_error`;
- `ctx.memo`: a per-file dict a rule may keep what it computed once per file in, under a key of its own
  (`"rocport:..."`, or a tuple that starts with one);
- report once: `ctx.seen()` (the keys this rule marked in this file: per line, per function, per file) and
  `ctx.reported_on(line, containing)` (whether this rule already reported on a line); `ctx.reports` is the
  file's reports so far, for the helpers that amend their own (scanner.rules.libraries._common's folding);
- `ctx.source`: the file as scanner.formats' helpers take it (`yaml_doc.documents(ctx.source)`).
The FileFacts under a Context (`_facts`) are the engine's: rules do not read them (a test checks it).

Text files (build files, containers, scripts, YAML, Python: scanner.formats) have no tokens or AST: their
"file" rules read `ctx.lines` / `ctx.text` and the parsed form (`ctx.parsed`, per scanner.formats.parse), and
report with `ctx.report_at(line, col, ...)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import clang.cindex as ci

from scanner.analysis.ast import Node
from scanner.analysis.code_view import CodeView
from scanner.nametable import NameTable
from scanner.parsing.tokens import Directive, Guard, Include, Token, TokenView
from scanner.port import Port
from scanner.target import TargetProfile

if TYPE_CHECKING:
    from scanner.rules.base import Rule

K = ci.CursorKind
# A guard that names one of these is platform-aware code: a HIP branch, or the CUDA branch beside it. The one
# definition every rule uses (Context.platform_guarded, and the rules that read #if conditions themselves).
# Case-sensitive, and HIP only as a word part of its own (`__HIP_PLATFORM_AMD__`, `USE_HIP`), not `CHIP_ID`. A
# project's own switch (`PROJ_ON_AMD`) is not here: scanner.port learns it and hip_branches says what HIP compiles.
HIP_GUARD = re.compile(r"(?<![A-Za-z0-9])_*HIP(?![a-z])|(?<![A-Za-z])HIP_|ROCM|[Rr]ocm|AMDGCN|__gfx|__AMDGPU__")
PLATFORM_GUARD = re.compile(HIP_GUARD.pattern + r"|__NVCC__|NVIDIA|__CUDA_ARCH__|__NVPTX__")
# Parameters and functions whose names say "this is a lane or thread index".
LANE_NAME = re.compile(r"^(lane|lane_?id|laneid|lane_?idx|tid|thread_?id|thread_?idx|thid|warp_?lane|lid)$", re.I)
LANE_FUNCTIONS = frozenset(
    {"__lane_id", "__laneid", "lane_id", "laneid", "thread_rank", "get_lane_id", "laneId", "LaneId"}
)
THREAD_BUILTINS = frozenset({"threadIdx"})
# Calls whose result is still arithmetic on their arguments (a clamped or converted thread id).
_ARITHMETIC_CALLS = frozenset(
    {"min", "max", "abs", "umin", "umax", "__umulhi", "__mul24", "__umul24", "int", "unsigned", "static_cast", ""}
)


@dataclass
class FunctionInfo:
    name: str
    node: Node | None
    start_line: int
    end_line: int
    is_kernel: bool
    is_device: bool
    is_host: bool
    _thread_vars: set[str] | None = None

    @property
    def runs_on_device(self) -> bool:
        return self.is_kernel or self.is_device

    def thread_vars(self) -> set[str]:
        """Locals and parameters whose value derives from threadIdx or a lane id, to a fixed point."""
        if self._thread_vars is not None:
            return self._thread_vars
        derived: set[str] = set()
        assignments: list[tuple[str, Node]] = []
        if self.node is not None:
            for node in self.node.walk():
                if node.kind == K.PARM_DECL and LANE_NAME.match(node.name):
                    derived.add(node.name)
                elif node.kind == K.VAR_DECL and node.children:
                    assignments.append((node.name, node))
                elif node.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and len(node.children) == 2:
                    target = node.children[0].strip()
                    if target.kind == K.DECL_REF_EXPR and node.operator in ("=", "+=", "-=", "*=", "|=", "^="):
                        assignments.append((target.name, node.children[1]))
        changed = True
        while changed:
            changed = False
            for name, expr in assignments:
                if name not in derived and _mentions_thread(expr, derived):
                    derived.add(name)
                    changed = True
        self._thread_vars = derived
        return derived


def _mentions_thread(expr: Node, derived: set[str]) -> bool:
    """`expr` computes with a thread or lane id. A value loaded from memory at a thread-derived index
    (`x[tid]`, `*(p + tid)`) is data, not an id: its operands are not looked into."""
    stack = [expr]
    while stack:
        node = stack.pop()
        kind = node.kind
        if kind == K.ARRAY_SUBSCRIPT_EXPR or (kind == K.UNARY_OPERATOR and node.operator == "*"):
            continue
        if kind == K.CALL_EXPR and node.name not in LANE_FUNCTIONS and node.name not in _ARITHMETIC_CALLS:
            continue  # `get_int_b4(qh, tid)` returns data loaded for the thread, not its id
        stack.extend(node.children)
        if kind == K.DECL_REF_EXPR:
            name = node.name
            if name in THREAD_BUILTINS or name in derived:
                return True
        elif kind in (K.CALL_EXPR, K.MEMBER_REF_EXPR) and node.name in LANE_FUNCTIONS:
            return True
    return False


@dataclass
class Report:
    rule: Rule
    message: str
    line: int
    col: int
    end_line: int
    end_col: int
    function: str
    # At most this severity, whatever the rule's: the rule saw that this case is milder (a 32-lane tile the code
    # keeps to throughout, a use guarded by __has_include).
    severity: Any = None


@dataclass
class FileFacts:
    """What every event of one file shares."""

    path: str
    language: str
    lines: list[str]
    view: TokenView
    functions: list[FunctionInfo]
    names: NameTable
    target: TargetProfile
    has_ast: bool
    reports: list[Report] = field(default_factory=list)
    parsed: Any = None  # text files: scanner.formats.Parsed (the format's parsed form, or the parser's error)
    cache: dict = field(default_factory=dict)  # per-file memo of the format helpers (scanner.formats.*)
    # Lines of the main file where clang reported an error although the file has a tree: the code there may be
    # missing from it, so the token shapes of the AST rules look at them too.
    error_lines: frozenset[int] = frozenset()
    port: Port = field(default_factory=Port)  # the repository's own ROCm path (scanner.port)
    build: Any = None  # scanner.build.model.FileBuild: which builds compile this file, or None (not known)
    build_lines: dict = field(default_factory=dict)  # a build file's lines for another platform: line -> condition
    root: str = ""  # the scanned tree's absolute path ("" when not known): where the repository's own files are

    _guarded: dict = field(default_factory=dict)
    _identifiers: frozenset[str] | None = None
    _text: str | None = None
    _code_view: CodeView | None = None
    _seen: dict = field(default_factory=dict)  # rule name -> the keys it marked (Context.seen)

    @property
    def code_view(self) -> CodeView:
        """The token view rules read (Context.view), made once per file."""
        if self._code_view is None:
            self._code_view = CodeView(self.view)
        return self._code_view

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "\n".join(self.lines)
        return self._text

    @property
    def identifiers(self) -> frozenset[str]:
        """Every identifier spelled in the file's code, in any #if branch."""
        if self._identifiers is None:
            self._identifiers = frozenset(t.text for t in self.view.code if t.kind == "identifier")
        return self._identifiers

    def guarded_lines(self, pattern: re.Pattern) -> frozenset[int]:
        """Lines inside an #if whose condition matches `pattern`; computed once per file and pattern."""
        lines = self._guarded.get(pattern)
        if lines is None:
            lines = frozenset(
                line
                for line, guards in self.view.guards_by_line.items()
                if any(pattern.search(g.condition) for g in guards)
            )
            self._guarded[pattern] = lines
        return lines

    def function_at(self, line: int) -> FunctionInfo | None:
        best = None
        for fn in self.functions:
            if fn.start_line <= line <= fn.end_line and (best is None or fn.start_line >= best.start_line):
                best = fn
        return best


Anchor = Node | Token | Include | Directive


class Context:
    """What one rule sees of one event of one file: the event's subject (`node`, `token`, `include`, `directive`,
    `asm_text`, `launch_kernel`, the "line" event's `line_code`), the enclosing `function`, the file (the module
    docstring lists it) and the report methods."""

    __slots__ = (
        "_facts",
        "rule",
        "event",
        "node",
        "token",
        "include",
        "directive",
        "asm_text",
        "function",
        "launch_kernel",
        "line_code",
        "line_tokens",
        "_line_starts",
    )

    def __init__(
        self,
        facts: FileFacts,
        rule: Rule,
        event: str,
        *,
        node: Node | None = None,
        token: Token | None = None,
        include: Include | None = None,
        directive: Directive | None = None,
        function: FunctionInfo | None = None,
        asm_text: str = "",
        launch_kernel: str = "",
    ):
        self._facts = facts
        self.rule = rule
        self.event = event
        self.node = node
        self.token = token
        self.include = include
        self.directive = directive
        self.function = function
        self.asm_text = asm_text
        self.launch_kernel = launch_kernel
        self.line_code = ""  # the "line" event (Rule.token_check): the code tokens of one line, space-joined
        self.line_tokens: list[Token] = []
        self._line_starts: list[int] = []

    def set_line(self, tokens: list[Token]) -> None:
        """The "line" event's line: its code tokens, and their text joined by single spaces."""
        self.line_tokens, starts, parts, offset = tokens, [], [], 0
        for tok in tokens:
            starts.append(offset)
            parts.append(tok.text)
            offset += len(tok.text) + 1
        self.line_code, self._line_starts = " ".join(parts), starts
        self.token = tokens[0] if tokens else None

    def token_at(self, offset: int) -> Token | None:
        """The token of `line_code` that starts at or covers `offset` (a regex match's start)."""
        chosen = None
        for start, tok in zip(self._line_starts, self.line_tokens):
            if start > offset:
                break
            chosen = tok
        return chosen

    # -- where ----------------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        return self._facts.path

    @property
    def root(self) -> str:
        """The scanned tree's absolute path, "" when not known."""
        return self._facts.root

    @property
    def target(self) -> TargetProfile:
        return self._facts.target

    @property
    def view(self) -> CodeView:
        """The file's tokens, code tokens, directives and includes, with a code token's index and neighbours."""
        return self._facts.code_view

    @property
    def functions(self) -> list[FunctionInfo]:
        """The file's functions, in file order."""
        return self._facts.functions

    def function_at(self, line: int) -> FunctionInfo | None:
        """The innermost function whose lines hold `line`."""
        return self._facts.function_at(line)

    @property
    def memo(self) -> dict:
        """A per-file dict for what a rule computes once per file; keys of its own (`"rocport:..."`)."""
        return self._facts.cache

    @property
    def source(self) -> FileFacts:
        """The file as scanner.formats' helpers take it (path, language, lines, text, parsed, their cache)."""
        return self._facts

    @property
    def port(self) -> Port:
        """The repository's own ROCm path: its HIP switches and where it builds or tests for ROCm."""
        return self._facts.port

    @property
    def build(self):
        """What the build model says of this file (scanner.build.model.FileBuild: which targets compile it, for
        which GPU, under which macros), or None when no model was read. Rules ask it, never search words."""
        return self._facts.build

    @property
    def names(self) -> NameTable:
        return self._facts.names

    @property
    def has_ast(self) -> bool:
        return self._facts.has_ast

    @property
    def line(self) -> int:
        anchor = self._anchor()
        return anchor.line if anchor is not None else 1

    @property
    def lines(self) -> list[str]:
        return self._facts.lines

    @property
    def text(self) -> str:
        return self._facts.text

    @property
    def language(self) -> str:
        return self._facts.language

    @property
    def parsed(self):
        """Text files: the parsed form of the file (scanner.formats.Parsed.value), None if it has none."""
        parsed = self._facts.parsed
        return parsed.value if parsed is not None else None

    @property
    def parse_error(self) -> str:
        """Text files: the parser's complaint when it rejected the file ("" when it parsed, or has no parser)."""
        parsed = self._facts.parsed
        return parsed.error if parsed is not None else ""

    def line_text(self, line: int | None = None) -> str:
        line = self.line if line is None else line
        lines = self._facts.lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    @property
    def in_kernel(self) -> bool:
        return self.function is not None and self.function.is_kernel

    @property
    def in_device_code(self) -> bool:
        return self.function is not None and self.function.runs_on_device

    @property
    def guards(self) -> tuple[Guard, ...]:
        return self._facts.view.guards_at(self.line)

    @property
    def platform_guarded(self) -> bool:
        """Inside an #if that tests the platform (a HIP branch, or the CUDA branch of such a test)."""
        lines = self._facts.guarded_lines(PLATFORM_GUARD)
        return bool(lines) and self.line in lines

    @property
    def hip_guarded(self) -> bool:
        lines = self._facts.guarded_lines(HIP_GUARD)
        return bool(lines) and self.line in lines

    # -- what -----------------------------------------------------------------------------------------
    @property
    def callee_name(self) -> str:
        return self.node.callee_name if self.node is not None else ""

    @property
    def args(self) -> list[Node]:
        return self.node.arguments if self.node is not None else []

    def arg(self, index: int) -> Node | None:
        args = self.args
        return args[index] if 0 <= index < len(args) else None

    def operands(self) -> tuple[Node | None, Node | None]:
        if self.node is None or len(self.node.children) != 2:
            return None, None
        return self.node.children[0], self.node.children[1]

    @staticmethod
    def literal_value(expr: Node | None) -> int | None:
        """The integer value of a constant expression, macros expanded and template parameters at their defaults;
        None if not constant."""
        if expr is None:
            return None
        return expr.const_value()

    def derives_from_thread_id(self, expr: Node | None) -> bool:
        if expr is None:
            return False
        derived = self.function.thread_vars() if self.function is not None else set()
        return _mentions_thread(expr, derived)

    def name_entry(self, name: str):
        return self._facts.names.get(name)

    # -- report ---------------------------------------------------------------------------------------
    @property
    def reports(self) -> list[Report]:
        """The file's reports so far, every rule's, in the order they were made."""
        return self._facts.reports

    def seen(self) -> set:
        """The keys this rule marked in this file (a line, `("function", start)`, `("file", group)`, ...): the
        one store of "report once" (scanner.rules.libraries._common.report_once, scanner.rules.textual.once).
        Shared by the rule's judged variants (same name)."""
        return self._facts._seen.setdefault(self.rule.name, set())

    def is_own(self, report: Report) -> bool:
        """Whether `report` is this rule's, whichever severity it was judged at."""
        rule = self.rule
        return report.rule is rule or (report.rule.code == rule.code and report.rule.name == rule.name)

    def reported_on(self, line: int, containing: str = "") -> bool:
        """Whether this rule already reported on `line` (with a message containing `containing`, when given)."""
        return any(
            self.is_own(report) and report.line == line and (not containing or containing in report.message)
            for report in self._facts.reports
        )

    def report(self, message: str, at: Anchor | None = None, severity=None) -> None:
        anchor = at if at is not None else self._anchor()
        if isinstance(anchor, Node):
            line, col, end_line, end_col = anchor.line, anchor.col, anchor.end_line, anchor.end_col
        elif isinstance(anchor, Token):
            line, col = anchor.line, anchor.col
            end_line, end_col = line, col + len(anchor.text)
        elif isinstance(anchor, (Include, Directive)):
            line, col = anchor.line, getattr(anchor, "col", 1)
            end_line, end_col = line, len(self.line_text(line)) + 1
        else:
            line, col, end_line, end_col = 1, 1, 1, 1
        function = self.function.name if self.function is not None else ""
        if self.event == "line":
            message += (
                " (found from tokens: clang could not parse this line)"
                if self._facts.has_ast
                else " (found from tokens: this file was not parsed to a syntax tree)"
            )
        self._facts.reports.append(Report(self.rule, message, line, col, end_line, end_col, function, severity))

    def report_at(self, line: int, col: int, message: str, length: int = 0, severity=None) -> None:
        """Report at a line and column of a text file; `length` characters wide (0: to the end of the line)."""
        end_col = col + length if length > 0 else len(self.line_text(line)) + 1
        function = self.function.name if self.function is not None else ""
        self._facts.reports.append(Report(self.rule, message, line, col, line, max(end_col, col), function, severity))

    def _anchor(self) -> Anchor | None:
        return self.node or self.token or self.include or self.directive
