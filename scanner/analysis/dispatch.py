"""One pass over a file's tokens and AST, handing each event to the rules that subscribed to it.

Each AST node is visited once; a rule pays only for the node kinds it asked for.
"""

from __future__ import annotations

from collections import defaultdict

import clang.cindex as ci

from scanner.analysis.ast import FUNCTION_KINDS, Node
from scanner.analysis.context import Context, FileFacts, FunctionInfo
from scanner.parsing.tokens import IDENT, KEYWORD, LITERAL, PUNCT, Token
from scanner.rules.base import Rule

K = ci.CursorKind
_EVENT_OF_KIND = {
    K.CALL_EXPR: "call",
    K.BINARY_OPERATOR: "binary_op",
    K.COMPOUND_ASSIGNMENT_OPERATOR: "binary_op",
    K.UNARY_OPERATOR: "unary_op",
    K.VAR_DECL: "var_decl",
    K.FOR_STMT: "for",
    K.DECL_REF_EXPR: "decl_ref",
    K.MEMBER_REF_EXPR: "member_ref",
    K.TYPE_REF: "type_ref",
    K.TEMPLATE_REF: "type_ref",
    K.CSTYLE_CAST_EXPR: "cast",
    K.CXX_STATIC_CAST_EXPR: "cast",
    K.CXX_FUNCTIONAL_CAST_EXPR: "cast",
    K.CASE_STMT: "case",
}
for _kind in FUNCTION_KINDS:
    _EVENT_OF_KIND[_kind] = "function"


class Dispatcher:
    """Built once per rule set; `run` is called per file."""

    def __init__(self, rules: list[Rule]):
        self.by_event: dict[str, list[Rule]] = defaultdict(list)
        self.by_name: dict[str, list[Rule]] = defaultdict(list)
        self.prefix_rules: list[Rule] = []
        for rule in rules:
            for event in rule.on:
                if event == "identifier":
                    for name in rule.names:
                        self.by_name[name].append(rule)
                    if rule.prefixes:
                        self.prefix_rules.append(rule)
                else:
                    self.by_event[event].append(rule)
        self.all_prefixes = tuple(p for r in self.prefix_rules for p in r.prefixes)
        self.token_rules = [rule for rule in rules if rule.token_check is not None]
        self.ast_kinds = {kind for kind, event in _EVENT_OF_KIND.items() if self.by_event.get(event)}

    # -- functions ------------------------------------------------------------------------------------
    @staticmethod
    def functions(function_nodes: list[Node]) -> list[FunctionInfo]:
        """Function definitions (with a body) among the nodes the AST build collected."""
        out = []
        for node in function_nodes:
            if any(c.kind == K.COMPOUND_STMT for c in node.children):
                out.append(
                    FunctionInfo(
                        name=node.name,
                        node=node,
                        start_line=node.line,
                        end_line=node.end_line,
                        is_kernel=node.has_attr(K.CUDAGLOBAL_ATTR),
                        is_device=node.has_attr(K.CUDADEVICE_ATTR),
                        is_host=node.has_attr(K.CUDAHOST_ATTR),
                    )
                )
        return out

    # -- the pass -------------------------------------------------------------------------------------
    def run(self, facts: FileFacts, roots: list[Node]) -> None:
        by_node = {id(fn.node): fn for fn in facts.functions}
        self._file(facts)
        self._tokens(facts)
        if roots and self.ast_kinds:
            self._ast(facts, roots, by_node)
        if self.token_rules and (not facts.has_ast or facts.error_lines):
            self._lines(facts, facts.error_lines if facts.has_ast else None)

    def file_pass(self, facts: FileFacts) -> None:
        """Text files: only the "file" rules (they have no tokens or AST)."""
        self._file(facts)

    def _file(self, facts: FileFacts) -> None:
        for rule in self._for(facts, "file"):
            rule.check(Context(facts, rule, "file"))

    def _for(self, facts: FileFacts, event: str) -> list[Rule]:
        return [r for r in self.by_event.get(event, ()) if facts.language in r.languages]

    def _ast(self, facts: FileFacts, roots: list[Node], by_node: dict[int, FunctionInfo]) -> None:
        idents = facts.identifiers
        event_rules = {
            event: [r for r in self._for(facts, event) if r.applies_to(idents)]
            for event in set(_EVENT_OF_KIND.values())
        }
        kinds = {kind for kind in self.ast_kinds if event_rules[_EVENT_OF_KIND[kind]]}
        if not kinds:
            return
        stack: list[tuple[Node, FunctionInfo | None]] = [(root, None) for root in reversed(roots)]
        while stack:
            node, function = stack.pop()
            function = by_node.get(id(node), function)
            if node.kind in kinds:
                event = _EVENT_OF_KIND[node.kind]
                for rule in event_rules[event]:
                    rule.check(Context(facts, rule, event, node=node, function=function))
            for child in reversed(node.children):
                stack.append((child, function))

    def _lines(self, facts: FileFacts, only: frozenset[int] | None = None) -> None:
        """The AST rules' token shapes, line by line (Rule.token_check): every line of a file with no syntax tree,
        or `only` the lines where clang reported errors in one that has a tree (never twice for a rule and line)."""
        rules = [r for r in self.token_rules if facts.language in r.languages and r.applies_to(facts.identifiers)]
        if not rules:
            return
        by_line: dict[int, list[Token]] = defaultdict(list)
        for tok in facts.view.code:
            if only is None or tok.line in only:
                by_line[tok.line].append(tok)
        reported = {(r.rule.code, r.line) for r in facts.reports}
        for line in sorted(by_line):
            tokens = by_line[line]
            for rule in rules:
                if (rule.code, line) in reported:
                    continue
                ctx = Context(facts, rule, "line", function=facts.function_at(line))
                ctx.set_line(tokens)
                rule.token_check(ctx)

    def _tokens(self, facts: FileFacts) -> None:
        view = facts.view
        for event, items, key in (("include", view.includes, "include"), ("directive", view.directives, "directive")):
            for rule in self._for(facts, event):
                for item in items:
                    rule.check(Context(facts, rule, event, function=facts.function_at(item.line), **{key: item}))
        by_name, prefixes = self.by_name, self.all_prefixes
        asm_rules = self._for(facts, "asm")
        launch_rules = self._for(facts, "launch")
        string_macros = None  # computed at the file's first asm statement
        code = view.code
        for i, tok in enumerate(code):
            kind = tok.kind
            if kind == IDENT:
                rules = by_name.get(tok.text)
                if rules:
                    self._identifier(facts, rules, tok)
                if prefixes and tok.text.startswith(prefixes):
                    matching = [
                        r for r in self.prefix_rules if tok.text.startswith(r.prefixes) and not (rules and r in rules)
                    ]
                    self._identifier(facts, matching, tok)
            elif kind == KEYWORD and asm_rules and tok.text in ("asm", "__asm__", "__asm"):
                if string_macros is None:
                    string_macros = _string_macros(view)
                text = _asm_text(code, i, string_macros)
                for rule in asm_rules:
                    if facts.language in rule.languages:
                        rule.check(
                            Context(facts, rule, "asm", token=tok, asm_text=text, function=facts.function_at(tok.line))
                        )
            elif kind == PUNCT and launch_rules and tok.text in ("<<<", "<<") and _is_launch(code, i):
                kernel = code[i - 1].text if i > 0 and code[i - 1].kind == IDENT else ""
                for rule in launch_rules:
                    rule.check(
                        Context(
                            facts, rule, "launch", token=tok, launch_kernel=kernel, function=facts.function_at(tok.line)
                        )
                    )

    @staticmethod
    def _identifier(facts: FileFacts, rules: list[Rule], tok: Token) -> None:
        function = None
        for rule in rules:
            if facts.language not in rule.languages:
                continue
            if function is None and facts.functions:
                function = facts.function_at(tok.line)
            rule.check(Context(facts, rule, "identifier", token=tok, function=function))


def _is_launch(code: list[Token], i: int) -> bool:
    tok = code[i]
    if tok.text == "<<<":
        return True
    # The raw C++ lexer splits `<<<` into `<<` `<`.
    nxt = code[i + 1] if i + 1 < len(code) else None
    return nxt is not None and nxt.text == "<" and nxt.offset == tok.offset + 2


def _string_macros(view) -> dict[str, str]:
    """Object-like macros of the file whose body is string literals (`#define LD_NC_V1 "ld.global.cs.nc.u32"`):
    asm templates are often built from them."""
    macros = {}
    for d in view.directives:
        if (
            d.name == "define"
            and len(d.tokens) >= 2
            and all(t.kind == LITERAL and t.text.endswith('"') for t in d.tokens[1:])
        ):
            macros[d.tokens[0].text] = "".join(_string_body(t.text) for t in d.tokens[1:])
    return macros


def _asm_text(code: list[Token], i: int, string_macros: dict[str, str] | None = None) -> str:
    """The concatenated string literals of an asm statement, with the file's string macros expanded: its
    instruction template."""
    parts, depth = [], 0
    for tok in code[i + 1 : i + 400]:
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
            if depth <= 0:
                break
        elif tok.text == ":" and depth == 1:
            break  # operands follow; the template is done
        elif tok.kind == LITERAL and tok.text.endswith('"'):
            parts.append(_string_body(tok.text))
        elif tok.kind == IDENT and string_macros and tok.text in string_macros and depth == 1:
            parts.append(string_macros[tok.text])
    return "".join(parts)


def _string_body(literal: str) -> str:
    start = literal.find('"')
    return literal[start + 1 : -1] if start >= 0 else literal
