"""Which branches of a Python file a ROCm build takes: an `if` on the ROCm build (`if not IS_ROCM:`,
`if torch.version.hip:`, `BUILD_TARGET == "rocm"`) evaluated three-valued. The setup.py reader (scanner.build.
setuptools) uses it for the extensions a branch builds; scanner.analysis.port_notes for the lines of any Python
file (a build helper's `-lcurand` in the CUDA branch of `is_rocm_pytorch()`): the ROCm side never runs them.
"""

from __future__ import annotations

import ast
import re

from scanner.formats.python_src import walk_ast

# A name in an `if` test that says "this is the ROCm build": its branch is built only on ROCm, the other only on
# CUDA (flash-attention's `if not SKIP_CUDA_BUILD and not IS_ROCM:` around its FA2 CUDAExtension; detectron2's
# collect_env reports ROCM_HOME under `if has_rocm:`, CUDA_HOME in its `else`).
_ROCM_NAME = re.compile(
    r"^(?:IS_ROCM|IS_HIP|IS_HIP_EXTENSION|USE_ROCM|BUILD_FOR_ROCM|ROCM_BUILD|(?:is|has)_(?:rocm|hip)\w*)$"
)
# A flag named for the ROCm build (`USE_TRITON_ROCM`, `BUILD_HIP`, `ROCM_HOME`), unless the name negates it.
_ROCM_WORD = re.compile(r"^(?:[A-Z0-9]+_)*(?:ROCM|HIP)(?:_[A-Z0-9]+)*$")
_NEGATING = re.compile(r"SKIP|DISABLE|(?:^|_)NOT?(?:_|$)")
_ROCM_ATTRIBUTE = re.compile(r"torch\.version\.hip$")
_CUDA_ATTRIBUTE = re.compile(r"torch\.version\.cuda$")


def on_rocm(test: ast.expr, known: dict[str, bool] | None = None) -> bool | None:
    """The test's value in a ROCm build, three-valued: True, False or None (it depends on something else);
    `known`: module-level names whose ROCm value `rocm_names` worked out."""
    if isinstance(test, ast.Name):
        if known and test.id in known:
            return known[test.id]
        rocm_flag = _ROCM_NAME.match(test.id) or (_ROCM_WORD.match(test.id) and not _NEGATING.search(test.id))
        return True if rocm_flag else None
    if isinstance(test, ast.Attribute | ast.Call):
        text = ast.unparse(test.func if isinstance(test, ast.Call) else test)
        if _ROCM_ATTRIBUTE.search(text) or _ROCM_NAME.match(text.rsplit(".", 1)[-1]):
            return True
        if _CUDA_ATTRIBUTE.search(text) and not isinstance(test, ast.Call):
            return False  # None on a ROCm build of PyTorch
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = on_rocm(test.operand, known)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is | ast.IsNot):
        left, right = on_rocm(test.left, known), test.comparators[0]
        if left is None or not (isinstance(right, ast.Constant) and right.value is None):
            return None
        return left if isinstance(test.ops[0], ast.IsNot) else not left  # `torch.version.hip is not None`
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq | ast.NotEq):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and isinstance(right.value, str) and right.value.lower() in ("rocm", "hip"):
            return isinstance(test.ops[0], ast.Eq)
        return None
    if isinstance(test, ast.BoolOp):
        operands = test.values
        if isinstance(test.op, ast.Or):
            # `os.getenv("CUDA_VERSION", None) or torch.version.cuda`: unset in the default configuration, the
            # variable gives way to the rest
            operands = [v for v in operands if not _unset_variable(v)] or operands
        values = [on_rocm(v, known) for v in operands]
        if isinstance(test.op, ast.And):
            return False if False in values else (True if all(v is True for v in values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    return None


def _unset_variable(node: ast.expr) -> bool:
    """`os.getenv("X")`, `os.getenv("X", None)`, `os.environ.get("X", None)`: None where the variable is unset."""
    if not isinstance(node, ast.Call) or node.keywords or not 1 <= len(node.args) <= 2:
        return False
    if ast.unparse(node.func) not in ("os.getenv", "os.environ.get", "getenv", "environ.get"):
        return False
    return len(node.args) == 1 or (isinstance(node.args[1], ast.Constant) and node.args[1].value is None)


def rocm_names(tree: ast.Module) -> dict[str, bool]:
    """Module-level names whose value on a ROCm build follows from the file (`IS_ROCM = torch.version.hip is not
    None`; `if USE_TRITON_ROCM: SKIP_CUDA_BUILD = True`, flash-attention's hopper/setup.py)."""
    known: dict[str, bool] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                value = on_rocm(statement.value, known)
                if value is not None:
                    known[target.id] = value
                else:
                    known.pop(target.id, None)
        elif isinstance(statement, ast.If):
            taken = on_rocm(statement.test, known)
            for inner in statement.body if taken else statement.orelse if taken is False else ():
                if (
                    isinstance(inner, ast.Assign)
                    and len(inner.targets) == 1
                    and isinstance(inner.targets[0], ast.Name)
                    and isinstance(inner.value, ast.Constant)
                    and isinstance(inner.value.value, bool)
                ):
                    known[inner.targets[0].id] = inner.value.value
    return known


def dead_lines(text: str) -> dict[int, str]:
    """Lines of the branches a ROCm build never takes, each with the test that decides it ("`if not IS_ROCM`,
    line 12"); empty when the file does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    dead: dict[int, str] = {}
    known = rocm_names(tree)
    for node in walk_ast(tree):
        if not isinstance(node, ast.If):
            continue
        value = on_rocm(node.test, known)
        if value is None:
            continue
        branch = node.orelse if value else node.body
        if not branch:
            continue
        why = f"`if {ast.unparse(node.test)[:60]}`, line {node.lineno}"
        for line in range(branch[0].lineno, max(getattr(b, "end_lineno", b.lineno) or b.lineno for b in branch) + 1):
            dead.setdefault(line, why)
    return dead
