"""The `setup.py` part of a port's build switch (scanner.translate.build_switch): PyTorch extensions. Pure: no I/O.

How a ROCm machine builds a `torch.utils.cpp_extension.CUDAExtension`: a ROCm build of PyTorch hipifies the
extension's sources at build time and compiles its CUDA files with hipcc, and on ROCm a `.hip` source is one of
those CUDA files (`_is_cuda_file`). So the switch that is sure, side by side, is the sources list naming the `.hip`
copies instead of the `.cu` originals: each string literal that is exactly a ported source's path, in the
`sources` of a CUDAExtension or in a module-level list that `sources` names, becomes its copy's path (the build
model, scanner.build.setuptools, then reads a hipcc compilation of the copy). Spellings built at run time
(`os.path.join`, a glob, a comprehension) are not edited: the model of the result says what still builds the `.cu`,
and that is left for a person.

In place nothing needs editing: the `.cu` keeps its name and now holds HIP code, which nvcc on an NVIDIA PyTorch
no longer builds and a ROCm PyTorch builds with hipcc (its build-time hipify finds nothing left to change), so the
build model reads a hipcc compilation of it (scanner.build.setuptools.holds_hip) and the setup.py stays as it is.
"""

from __future__ import annotations

import ast
import posixpath

from scanner.formats.python_src import dotted
from scanner.translate.build_edits import Change

WHY = "the extension compiles the source's HIP copy: a ROCm build of PyTorch builds `.hip` sources with hipcc"


def _sources_nodes(tree: ast.Module) -> list[ast.AST]:
    """The `sources` expressions of the CUDAExtension calls, and the module-level values they name."""
    bound = {
        s.targets[0].id: s.value
        for s in tree.body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
    }
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or dotted(node.func).rsplit(".", 1)[-1] != "CUDAExtension":
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        sources = keywords.get("sources") or (node.args[1] if len(node.args) > 1 else None)
        if sources is None:
            continue
        out.append(sources)
        out += [bound[n.id] for n in ast.walk(sources) if isinstance(n, ast.Name) and n.id in bound]
    return out


def rename_sources(rel: str, text: str, renames: dict[str, str]) -> tuple[str, list[Change]]:
    """`text` of the setup.py at `rel` with each literal ported source in an extension's sources renamed to its
    copy (`renames`: repository paths); the changes made."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return text, []
    here = posixpath.dirname(rel)
    lines = text.split("\n")
    edits: dict[tuple[int, int], tuple[int, str, str]] = {}
    for sources in _sources_nodes(tree):
        for node in ast.walk(sources):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or node.lineno != node.end_lineno:
                continue
            path = posixpath.normpath(posixpath.join(here, node.value))
            if path not in renames:
                continue
            line = lines[node.lineno - 1]
            literal = line.encode()[node.col_offset : node.end_col_offset].decode()
            if literal[1:-1] != node.value or literal[0] not in "'\"" or literal[0] != literal[-1]:
                continue  # a prefix, an escape or a concatenation: not a plain literal
            new_value = posixpath.relpath(renames[path], here or ".")
            edits[(node.lineno, node.col_offset)] = (node.end_col_offset, literal, literal[0] + new_value + literal[0])
    originals = {number: lines[number - 1] for number, _ in edits}
    for (number, start), (end, _old, new) in sorted(edits.items(), reverse=True):  # back to front on a line
        raw = lines[number - 1].encode()
        lines[number - 1] = (raw[:start] + new.encode() + raw[end:]).decode()
    changes = [Change(number, before, lines[number - 1], WHY) for number, before in sorted(originals.items())]
    return "\n".join(lines), changes
