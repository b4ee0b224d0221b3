"""ROCport's own view of the main file's AST: Node objects built once from libclang cursors.

Rules read Nodes through the Context; the libclang cursor stays private (`_c`). Everything beyond the
kind and the children is computed lazily, because each libclang property is a native call and walking
cursors from Python is the scanner's main cost. Rules ask what a node is through its `is_*` predicates
(`node.is_call`, `node.is_decl_ref`, `node.is_shared`, ...), never by comparing libclang's cursor kinds: rules
import no libclang.
"""

from __future__ import annotations

import functools
import os
import re

import clang.cindex as ci

from scanner.parsing import libclang

K = ci.CursorKind
_TOP_SCOPES = {K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL}
FUNCTION_KINDS = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR}
_NO_SIZE = {ci.TypeKind.OVERLOAD, ci.TypeKind.DEPENDENT, ci.TypeKind.INVALID}
_REF_KINDS = {K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.OVERLOADED_DECL_REF}
_EXPLICIT_CASTS = (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR)
_WRAPPERS = (K.UNEXPOSED_EXPR, K.PAREN_EXPR)


class Node:
    __slots__ = ("kind", "children", "parent", "_c", "_name", "_loc", "_ext", "_unit")

    def __init__(self, cursor: ci.Cursor, kind: ci.CursorKind, parent: Node | None, unit: UnitSource):
        self._c = cursor
        self.kind = kind
        self.parent = parent
        self.children: list[Node] = []
        self._name = None
        self._loc = None
        self._ext = None
        self._unit = unit

    # -- identity and position ------------------------------------------------------------------------
    @property
    def kind_name(self) -> str:
        return self.kind.name

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = self._c.spelling or ""
        return self._name

    def _location(self) -> tuple[int, int]:
        if self._loc is None:
            loc = self._c.location
            self._loc = (loc.line, loc.column)
        return self._loc

    @property
    def line(self) -> int:
        return self._location()[0]

    @property
    def col(self) -> int:
        return self._location()[1]

    def _extent(self) -> tuple[int, int, int, int]:
        if self._ext is None:
            ext = self._c.extent
            start, end = ext.start, ext.end
            self._ext = (start.offset, end.offset, end.line, end.column)
        return self._ext

    @property
    def end_line(self) -> int:
        return self._extent()[2]

    @property
    def end_col(self) -> int:
        return self._extent()[3]

    @property
    def text(self) -> str:
        """The source text of this node (as written: a macro shows as its name)."""
        start, end, _, _ = self._extent()
        return self._unit.data[start:end].decode("utf-8", "replace")

    # -- semantics --------------------------------------------------------------------------------------
    @property
    def operator(self) -> str:
        if self.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            return libclang.binary_operator(self._c)
        if self.kind == K.UNARY_OPERATOR:
            return libclang.unary_operator(self._c)
        return ""

    def int_value(self) -> int | None:
        """Constant value with macros expanded (`WARP_SIZE` -> 32), or None when not a constant."""
        return libclang.evaluate_int(self._c)

    def const_value(self) -> int | None:
        """`int_value`, or inside a template the value its parameters' defaults give (`template <int kWarp = 32>`:
        `kWarp / 2` is 16): clang leaves such value-dependent expressions unevaluated."""
        node = self.strip()
        kind = node.kind
        if not in_template(node):
            return node.int_value()
        # Inside a template clang must not be asked to evaluate a value-dependent expression (libclang's release
        # build crashes on it): literals, references to plain constants and template parameters only, folded here.
        if kind == K.INTEGER_LITERAL:
            return node.int_value()
        if kind == K.DECL_REF_EXPR:
            referenced = node._c.referenced
            if referenced is not None and referenced.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
                return template_defaults(node).get(node.name)
            if (
                referenced is not None
                and referenced.kind in (K.VAR_DECL, K.ENUM_CONSTANT_DECL)
                and not _dependent_declaration(referenced)
            ):
                return node.int_value()
            return None
        if kind == K.BINARY_OPERATOR and len(node.children) == 2:
            operator = node.operator
            if operator in _FOLD:
                left, right = (child.const_value() for child in node.children)
                if left is not None and right is not None:
                    return _FOLD[operator](left, right)
        return None

    @property
    def type_name(self) -> str:
        return self._c.type.spelling

    @property
    def type_size(self) -> int:
        """sizeof the node's type in bytes, or -1 when unknown (incomplete or dependent)."""
        kind = self._c.type
        # get_size() on an overload set or a dependent type aborts libclang 18 (SIGILL): never ask.
        if kind.kind in _NO_SIZE or kind.spelling.startswith("<"):
            return -1
        size = kind.get_size()
        return size if size > 0 else -1

    @property
    def referenced_name(self) -> str:
        """For a reference, the name of what it refers to (the callee of a call)."""
        if self.kind in _REF_KINDS:
            return self.name
        if self.kind == K.CALL_EXPR:
            return self.callee_name
        return ""

    @property
    def callee_name(self) -> str:
        """A call's callee; inside templates clang leaves the call unnamed and names the overload set below it."""
        if self.kind != K.CALL_EXPR:
            return ""
        if self.name:
            return self.name
        if self.children:
            for node in self.children[0].walk():
                if node.kind in (K.OVERLOADED_DECL_REF, K.DECL_REF_EXPR, K.MEMBER_REF_EXPR) and node.name:
                    return node.name
        return ""

    @property
    def arguments(self) -> list[Node]:
        if self.kind != K.CALL_EXPR:
            return []
        count = ci.conf.lib.clang_Cursor_getNumArguments(self._c)
        if count <= 0:
            return []
        return self.children[-count:] if len(self.children) >= count else []

    def definition_tokens(self) -> list[str] | None:
        """A call's callee as defined, in this file or a header clang read (a project's warpReduceSum): the
        spellings of its tokens; None when clang knows no definition (a callee through a template parameter)."""
        if self.kind != K.CALL_EXPR:
            return None
        try:
            referenced = self._c.referenced
            definition = referenced.get_definition() if referenced is not None else None
            if definition is None or definition.kind not in FUNCTION_KINDS:
                return None
            extent = definition.extent
            source = extent.start.file.name if extent.start.file is not None else ""
            lines = _source_lines(source)[extent.start.line - 1 : extent.end.line]
        except (ValueError, AttributeError):  # libclang cursors of unknown kinds
            return None
        # clang does not tokenize ranges of included files for us: the definition's lines, split like code tokens
        # (comments and strings cannot hide a shuffle from this reader, which only needs identifiers and brackets).
        return _SPELLINGS.findall("\n".join(lines)) if lines else None

    def has_attr(self, kind: ci.CursorKind) -> bool:
        return any(child.kind == kind for child in self.children)

    # -- what kind of node: the questions rules ask ----------------------------------------------------
    @property
    def is_expression(self) -> bool:
        return self.kind.is_expression()

    @property
    def is_call(self) -> bool:
        return self.kind == K.CALL_EXPR

    @property
    def is_decl_ref(self) -> bool:
        """A use of a declared name (`x`, `threadIdx`)."""
        return self.kind == K.DECL_REF_EXPR

    @property
    def is_member_ref(self) -> bool:
        """A member access (`a.x`, `p->x`)."""
        return self.kind == K.MEMBER_REF_EXPR

    @property
    def is_binary_operator(self) -> bool:
        """A binary operator (`a / b`, `a = b`), not a compound assignment (`a += b`)."""
        return self.kind == K.BINARY_OPERATOR

    @property
    def is_compound_assignment(self) -> bool:
        """`a += b`, `a >>= b` and the like."""
        return self.kind == K.COMPOUND_ASSIGNMENT_OPERATOR

    @property
    def is_unary_operator(self) -> bool:
        return self.kind == K.UNARY_OPERATOR

    @property
    def is_conditional_operator(self) -> bool:
        """`c ? a : b`."""
        return self.kind == K.CONDITIONAL_OPERATOR

    @property
    def is_array_subscript(self) -> bool:
        return self.kind == K.ARRAY_SUBSCRIPT_EXPR

    @property
    def is_integer_literal(self) -> bool:
        return self.kind == K.INTEGER_LITERAL

    @property
    def is_c_cast(self) -> bool:
        """`(int)x`."""
        return self.kind == K.CSTYLE_CAST_EXPR

    @property
    def is_explicit_cast(self) -> bool:
        """`(int)x`, `static_cast<int>(x)`, `int(x)`."""
        return self.kind in _EXPLICIT_CASTS

    @property
    def is_wrapper(self) -> bool:
        """An implicit cast or parentheses (what `strip` looks under)."""
        return self.kind in _WRAPPERS

    @property
    def is_var_decl(self) -> bool:
        return self.kind == K.VAR_DECL

    @property
    def is_parm_decl(self) -> bool:
        return self.kind == K.PARM_DECL

    @property
    def is_decl_stmt(self) -> bool:
        """A declaration statement (`int i = 0, j;`), whose children are the VAR_DECLs."""
        return self.kind == K.DECL_STMT

    @property
    def is_for(self) -> bool:
        return self.kind == K.FOR_STMT

    @property
    def is_shared(self) -> bool:
        """Declared `__shared__`."""
        return self.has_attr(K.CUDASHARED_ATTR)

    # -- traversal ------------------------------------------------------------------------------------
    def walk(self):
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def strip(self) -> Node:
        """The node under implicit casts and parentheses."""
        node = self
        while node.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(node.children) == 1:
            node = node.children[0]
        return node

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def __repr__(self) -> str:
        return f"Node({self.kind.name}, {self.name!r})"


_SPELLINGS = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+\w*|\d+\w*|->|::|>>|<<|\S")


def _source_lines(path: str) -> list[str]:
    try:
        stat = os.stat(path)
    except OSError:
        return []
    return _read_lines(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _read_lines(path: str, _mtime_ns: int, _size: int) -> list[str]:
    """Keyed by the file's modification time and size too: a worker outlives one checkout's contents."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read().split("\n")
    except OSError:
        return []


_TEMPLATES = frozenset({K.FUNCTION_TEMPLATE, K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION})
_FOLD = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None,
}


def in_template(node: Node) -> bool:
    return any(ancestor.kind in _TEMPLATES for ancestor in node.ancestors())


def _dependent_declaration(cursor: ci.Cursor) -> bool:
    """A variable or enumerator declared inside a template (a static member of a class template): its value may
    depend on the template's arguments."""
    parent = cursor.semantic_parent
    while parent is not None and parent.kind != K.TRANSLATION_UNIT:
        if parent.kind in _TEMPLATES:
            return True
        parent = parent.semantic_parent
    return False


def template_defaults(node: Node) -> dict[str, int]:
    """Integer defaults of the non-type parameters of the templates around `node` (the innermost wins)."""
    found: dict[str, int] = {}
    for ancestor in node.ancestors():
        if ancestor.kind not in _TEMPLATES:
            continue
        for child in ancestor.children:
            if child.kind == K.TEMPLATE_NON_TYPE_PARAMETER and child.name not in found:
                defaults = [c.strip() for c in child.children if c.kind.is_expression()]
                # Only a literal default (`= 32`, `= WARP_SIZE` expanded): `= sizeof(T)` is value-dependent.
                value = defaults[-1].int_value() if defaults and defaults[-1].kind == K.INTEGER_LITERAL else None
                if value is not None:
                    found[child.name] = value
    return found


class UnitSource:
    """The main file as bytes, for slicing node text by offset; and its function nodes, found while building."""

    __slots__ = ("data", "function_nodes")

    def __init__(self, text: str):
        self.data = text.encode("utf-8")
        self.function_nodes: list[Node] = []


def main_file_roots(tu: ci.TranslationUnit, path: str, unit: UnitSource) -> list[Node]:
    """Trees for every declaration of the main file, descending into namespaces and extern "C" blocks."""
    lib = ci.conf.lib
    roots: list[Node] = []
    pending = [tu.cursor]
    while pending:
        scope = pending.pop()
        for cursor in scope.get_children():
            kind = cursor.kind
            if kind in (K.MACRO_DEFINITION, K.MACRO_INSTANTIATION, K.INCLUSION_DIRECTIVE):
                continue  # the token view covers the preprocessor
            if kind in _TOP_SCOPES:
                # A namespace named by a macro (`namespace FLASH_NAMESPACE {`) is located at the macro's definition
                # in a header; its `namespace` keyword, where its extent starts, is in the main file.
                # A namespace a header fragment's includer opened before including it (scanner.parsing.includers)
                # starts in that includer and runs on through the main file.
                if (
                    lib.clang_Location_isFromMainFile(lib.clang_getCursorLocation(cursor))
                    or lib.clang_Location_isFromMainFile(cursor.extent.start)
                    or lib.clang_Location_isFromMainFile(cursor.extent.end)
                ):
                    pending.append(cursor)
                continue
            if not lib.clang_Location_isFromMainFile(lib.clang_getCursorLocation(cursor)):
                # A declaration a macro of a header writes where the main file expands it (Catch2's
                # `TEST_CASE("name") { ... }`, a project's kernel-defining macro): its name is spelled in the header,
                # its extent is the main file's.
                # (isFromMainFile reads where a location is spelled; `.file` is where it is expanded.)
                extent = cursor.extent
                if not lib.clang_Location_isFromMainFile(extent.end):
                    continue
                start = extent.start.file
                if start is None or start.name != path:
                    continue
            roots.append(_build(cursor, kind, unit))
    return roots


_BREAK, _RECURSE = 0, 2  # CXChildVisit_Break, CXChildVisit_Recurse


def _cursor_kind(kind_id: int) -> ci.CursorKind:
    """The cursor kind of an id, UNEXPOSED_EXPR for one newer than the Python bindings know (libclang 18's
    bindings stop at 154; C++20's parenthesized aggregate init, `Pair p(1, 2)`, is 155). An exception inside the visitor callback would end the
    visit early and silently cut the tree."""
    try:
        return ci.CursorKind.from_id(kind_id)
    except ValueError:
        return ci.CursorKind.UNEXPOSED_EXPR


def _build(cursor: ci.Cursor, kind: ci.CursorKind, unit: UnitSource) -> Node:
    """The whole subtree in one clang_visitChildren call (one Python callback per cursor).

    The visit is preorder, so a cursor's parent is on the stack of open nodes; cursors are compared by their
    raw bytes (kind + data pointers), which is what clang_equalCursors compares.
    """
    root = Node(cursor, kind, None, unit)
    functions = unit.function_nodes
    if kind in FUNCTION_KINDS:
        functions.append(root)
    stack: list[tuple[bytes, Node]] = [(bytes(cursor), root)]
    from_id = _cursor_kind
    tu = cursor._tu

    def visit(child, parent, _data):
        parent_key = bytes(parent)
        while stack and stack[-1][0] != parent_key:
            stack.pop()
        if not stack:
            return _BREAK
        parent_node = stack[-1][1]
        child._tu = tu
        kind = from_id(child._kind_id)
        node = Node(child, kind, parent_node, unit)
        parent_node.children.append(node)
        if kind in FUNCTION_KINDS:
            functions.append(node)
        stack.append((bytes(child), node))
        return _RECURSE

    ci.conf.lib.clang_visitChildren(cursor, ci.callbacks["cursor_visit"](visit), None)
    return root
