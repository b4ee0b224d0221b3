"""The syntax tree keeps going past cursor kinds newer than the Python bindings of libclang know."""

from __future__ import annotations

import clang.cindex as ci

from scanner.analysis.ast import UnitSource, main_file_roots
from scanner.parsing import libclang  # noqa: F401  (loads the library the scanner uses)

SOURCE = """
struct Pair { int a; int b; };
int first() {
  Pair p(1, 2);  // C++20 parenthesized aggregate init: cursor kind 155, unknown to libclang 18's bindings
  return p.a;
}
int after() { return 7; }
"""


def test_a_cursor_kind_the_bindings_do_not_know_does_not_cut_the_tree(tmp_path):
    path = tmp_path / "pair.cpp"
    path.write_text(SOURCE)
    tu = ci.Index.create().parse(str(path), args=["-x", "c++", "-std=c++20"])
    unit = UnitSource(SOURCE)
    main_file_roots(tu, str(path), unit)
    names = [node.name for node in unit.function_nodes]
    assert names == ["first", "after"]
    first = unit.function_nodes[0]
    returns = [n for n in first.walk() if n.kind_name == "RETURN_STMT"]
    assert returns, "the visit stopped at the unknown kind inside first()"
