"""A `setup.py`'s extensions (PyTorch's CUDAExtension / CppExtension, setuptools' Extension) read with `ast`,
never run: sources, include_dirs, define_macros and extra_compile_args, where they are literals, names bound to
literals at module level, `os.path.join`, list concatenation or `glob.glob` over the repository's files.

A CUDAExtension builds its `.cu` sources with nvcc; on a ROCm build of PyTorch, torch.utils.cpp_extension hipifies
them and builds with hipcc instead. That second build is counted when the setup.py branches on ROCm itself
(`torch.version.hip`, `IS_HIP_EXTENSION`, `ROCM_HOME`): then the project means it to build there. A `.hip`
source of a CUDAExtension is built by a ROCm PyTorch only, with hipcc (its `_is_cuda_file` counts `.hip` there).
So is a `.cu` source whose text is HIP code (a port in place: it includes a `hip/` header and no CUDA runtime
header): nvcc on an NVIDIA PyTorch no longer builds it, and a ROCm PyTorch's build-time hipify finds nothing to
change in it and builds it with hipcc.
"""

from __future__ import annotations

import ast
import fnmatch
import posixpath
import re
from dataclasses import replace

from scanner.build.model import HIPCC, HOST_CC, NVCC, Compilation
from scanner.build.python_rocm import on_rocm, rocm_names
from scanner.formats.python_src import dotted, walk_ast

_EXTENSIONS = {"CUDAExtension", "CppExtension", "Extension", "SyclExtension"}
_ROCM_BRANCH = re.compile(r"torch\.version\.hip|IS_HIP_EXTENSION|ROCM_HOME|\bis_rocm\b|\bUSE_ROCM\b")

_HIP_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]hip/', re.M)
_CUDA_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:cuda_runtime(?:_api)?\.h|cuda\.h)[">]', re.M)

_UNKNOWN = object()


def holds_hip(text: str) -> bool:
    """Whether a `.cu` source's text is HIP code: it includes a `hip/` header and no CUDA runtime header."""
    return bool(_HIP_INCLUDE.search(text)) and not _CUDA_INCLUDE.search(text)


class _Values:
    def __init__(self, directory: str, files: frozenset[str]):
        self.directory = directory
        self.files = files
        self.names: dict[str, object] = {}

    def value(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | type(None)):
            return node.value
        if isinstance(node, ast.List | ast.Tuple):
            items = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    items += self.filtered(e.value)
                else:
                    items.append(self.value(e))
            return _UNKNOWN if any(i is _UNKNOWN for i in items) else list(items)
        if isinstance(node, ast.Dict):
            keys = [self.value(k) for k in node.keys]
            values = [self.value(v) for v in node.values]
            if any(k is _UNKNOWN for k in keys):
                return _UNKNOWN
            return dict(zip(keys, values, strict=False))
        if isinstance(node, ast.Name):
            return self.names.get(node.id, _UNKNOWN)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(left, list) and isinstance(right, list) or isinstance(left, str) and isinstance(right, str):
                return left + right
            return _UNKNOWN
        if isinstance(node, ast.Call):
            name = _call_name(node.func)
            args = [self.value(a) for a in node.args]
            if name in ("os.path.join", "path.join", "osp.join") and all(isinstance(a, str) for a in args):
                return posixpath.join(*args) if args else _UNKNOWN
            if name in ("glob.glob", "glob") and args and isinstance(args[0], str):
                pattern = posixpath.normpath(posixpath.join(self.directory, args[0]))
                recursive = "**" in pattern
                matched = sorted(
                    f
                    for f in self.files
                    if fnmatch.fnmatchcase(f, pattern) and (recursive or f.count("/") == pattern.count("/"))
                )
                return [posixpath.relpath(m, self.directory or ".") for m in matched]
            if name in ("os.path.dirname", "os.path.abspath", "os.path.realpath") or name.endswith("dirname"):
                return ""
            if name in ("str", "list", "sorted") and args:
                return args[0]
        if isinstance(node, ast.Attribute) and _call_name(node) in ("os.path.sep",):
            return "/"
        return _UNKNOWN


_call_name = dotted


class _Conditional(str):
    """A source a call of the project's may leave out of the list (`*ncond("src/x.cu")`): built on a condition."""

    condition: str = ""


def _filtered(self, node) -> list:
    """`*f("a.cu", "b.cu")` in a list: a call given only string literals, which returns some of them (a filter on
    the build's options): each is a conditional item. Anything else is unknown."""
    value = self.value(node)
    if isinstance(value, list):
        return value
    if isinstance(node, ast.Call) and node.args and not node.keywords:
        args = [self.value(a) for a in node.args]
        if all(isinstance(a, str) for a in args):
            out = []
            for a in args:
                item = _Conditional(a)
                item.condition = f"{_call_name(node.func)}(...)"
                out.append(item)
            return out
    return [_UNKNOWN]


_Values.filtered = _filtered


def compilations(
    rel: str, text: str, files: frozenset[str], is_hip=lambda path: False
) -> tuple[list[tuple[str, Compilation, list[str]]], list[str]]:
    """(source, compilation, unknowns) for each extension source, and notes on what was not evaluated;
    `is_hip(path)`: whether a `.cu` source's text is HIP code (`holds_hip`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        return [], [f"{rel}: not parsed as Python ({type(exc).__name__})"]
    directory = posixpath.dirname(rel)
    values = _Values(directory, files)
    for statement in tree.body:  # module-level names bound to something evaluable
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            values.names[statement.targets[0].id] = values.value(statement.value)
    rocm = bool(_ROCM_BRANCH.search(text))
    out, notes = [], []
    conditions = _conditions(tree)
    rocm_sides = _rocm_sides(tree)
    for node in walk_ast(tree):
        if not isinstance(node, ast.Call) or _call_name(node.func).rsplit(".", 1)[-1] not in _EXTENSIONS:
            continue
        kind = _call_name(node.func).rsplit(".", 1)[-1]
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        name = (
            values.value(keywords["name"])
            if "name" in keywords
            else (values.value(node.args[0]) if node.args else _UNKNOWN)
        )
        sources_node = keywords.get("sources") or (node.args[1] if len(node.args) > 1 else None)
        sources = values.value(sources_node) if sources_node is not None else _UNKNOWN
        name = name if isinstance(name, str) else f"extension at line {node.lineno}"
        if not isinstance(sources, list):
            notes.append(f"{rel}:{node.lineno}: the sources of `{name}` are computed")
            continue
        includes = values.value(keywords["include_dirs"]) if "include_dirs" in keywords else []
        macros = values.value(keywords["define_macros"]) if "define_macros" in keywords else []
        extra = values.value(keywords["extra_compile_args"]) if "extra_compile_args" in keywords else []
        unknowns = [
            f"{rel}:{node.lineno}: {key} of `{name}` computed"
            for key, v in (("include_dirs", includes), ("define_macros", macros), ("extra_compile_args", extra))
            if v is _UNKNOWN
        ]
        include_dirs = tuple(
            posixpath.normpath(posixpath.join(directory, d)) if not d.startswith("/") else d
            for d in (includes if isinstance(includes, list) else [])
            if isinstance(d, str)
        )
        defines = []
        for macro in macros if isinstance(macros, list) else []:
            if isinstance(macro, list) and macro and isinstance(macro[0], str):
                defines.append(macro[0] if len(macro) < 2 or macro[1] is None else f"{macro[0]}={macro[1]}")
        for source in sources:
            if not isinstance(source, str):
                continue
            path = posixpath.normpath(posixpath.join(directory, source))
            if path not in files:
                continue
            cuda = path.endswith(".cu") and kind == "CUDAExtension"
            # A `.hip` source, or a `.cu` holding HIP code: only a ROCm PyTorch builds it (a CUDA file there), with
            # hipcc and the nvcc flags.
            hip = kind == "CUDAExtension" and (path.endswith(".hip") or cuda and is_hip(path))
            cuda = cuda and not hip
            flags = _flags(extra, "nvcc" if cuda or hip else "cxx")
            own_defines = tuple(defines + [f[2:] for f in flags if f.startswith("-D")])
            standard = next((f.split("=", 1)[1] for f in flags if re.match(r"--?std=", f)), "")
            language = "cuda" if cuda else "hip" if hip else ("c" if path.endswith(".c") else "c++")
            compilation = Compilation(
                name,
                rel,
                node.lineno,
                "setuptools",
                NVCC if cuda else HIPCC if hip else HOST_CC,
                language,
                standard,
                include_dirs,
                own_defines,
            )
            if isinstance(source, _Conditional):  # `*ncond("src/x.cu")`: the project's filter decides
                compilation = replace(compilation, condition=f"{source.condition} at {rel}:{node.lineno}")
            if node in conditions:  # `if "--cuda_ext" in sys.argv:`: built when the user asks
                compilation = replace(compilation, condition=f"{conditions[node]} at {rel}:{node.lineno}")
            on_rocm = rocm_sides.get(node)  # False: a branch the ROCm build never takes; True: ROCm's own
            if on_rocm is False:
                compilation = replace(compilation, cuda_only=True)
            if on_rocm is not True or not cuda:
                out.append((path, compilation, unknowns))
            if rocm and cuda and on_rocm is not False:  # a ROCm PyTorch hipifies the .cu sources, builds with hipcc
                hip = replace(compilation, compiler=HIPCC, language="hip")
                out.append((path, replace(hip, defines=(*own_defines, "USE_ROCM")), unknowns))
    return out, notes


def _conditions(tree: ast.Module) -> dict:
    """Each call inside an `if` (at any depth, through functions too), with the innermost test's text."""
    out: dict = {}

    def visit(node, condition: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = condition
            if isinstance(node, ast.If) and child in node.body + node.orelse:
                test = ast.unparse(node.test)[:80]
                here = f"if {test}" if child in node.body else f"not ({test})"
            if isinstance(child, ast.Call) and here:
                out[child] = here
            visit(child, here)

    visit(tree, "")
    return out


def _rocm_sides(tree: ast.Module) -> dict:
    """Each call under an `if` on the ROCm build: False when the ROCm build never takes its branch, True when
    only the ROCm build does (the innermost such `if` decides)."""
    out: dict = {}
    known = rocm_names(tree)

    def visit(node, side) -> None:
        for child in ast.iter_child_nodes(node):
            here = side
            if isinstance(node, ast.If) and child in node.body + node.orelse:
                value = on_rocm(node.test, known)
                if value is not None:
                    here = value if child in node.body else not value
            if isinstance(child, ast.Call) and here is not None:
                out[child] = here
            visit(child, here)

    visit(tree, None)
    return out


def _flags(extra, key: str) -> list[str]:
    if isinstance(extra, dict):
        chosen = extra.get(key, [])
    else:
        chosen = extra
    return [f for f in (chosen if isinstance(chosen, list) else []) if isinstance(f, str)]
