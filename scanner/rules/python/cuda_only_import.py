"""Python code importing CUDA-only modules (pycuda, tensorrt, pynvml, cuda-python, numba.cuda).

What it finds:
    Imports of `pycuda`, `tensorrt` / `tensorrt_llm` / `torch_tensorrt` / `torch2trt`, `pynvml`, NVIDIA's
    `cuda` bindings (`from cuda import cudart`, `cuda.bindings`), `numba.cuda` and `nvidia.dali`. Plain
    `torch.cuda.*` is not reported: ROCm builds of PyTorch keep the `torch.cuda` namespace (it drives HIP).

    An import inside `try:` whose `except` catches the failure (`ImportError`, `OSError`, `Exception`, a bare
    `except:`) and goes on without re-raising or exiting is an optional dependency: low. An import inside a
    function (`def build_engine(): import tensorrt`) fails only when that function is called, not when the
    program starts: medium. One in the body of an `if` whose `else` binds the names it imports
    (`if is_cuml_available(): from numba import cuda` ... `else: cuda = None`) is optional too: low. A module-level
    import in a CuTe DSL kernel module for NVIDIA Blackwell (it imports
    `cutlass.cute` and Blackwell's `tcgen05` atoms or `blackwell_helpers`, or its path is named `sm100`, `sm12x`,
    `blackwell`) is low: NVIDIA's CUTLASS DSL has no ROCm backend, a ROCm port never loads the module. So is its
    wrapper: a module importing `cutlass.cute` and, relatively, a sibling module that is such a kernel
    (`from .topk_fwd import TopKKernel`, an API class that compiles and launches it).

Why it breaks on ROCm:
    These modules wrap NVIDIA's driver, runtime or libraries directly. On an AMD machine they are missing or
    fail at import ("libcuda.so.1: cannot open shared object file"), or find no device.

Example:
    import pycuda.autoinit
    import pynvml
    pynvml.nvmlInit()

Use instead:
    `hip-python` for PyCUDA / cuda-python, `amdsmi` for pynvml (AMD SMI's Python API), MIGraphX
    (`torch_migraphx`) or ONNX Runtime's MIGraphX provider for TensorRT, `numba-hip` or Triton for numba.cuda
    kernels; code written against `torch.cuda` keeps working unchanged.

References:
    https://rocm.docs.amd.com/projects/hip-python/en/latest/
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://rocm.docs.amd.com/projects/AMDMIGraphX/en/latest/
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/3rd-party/pytorch-install.html
"""

import ast
import os
import posixpath
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.formats.python_src import walk_ast
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.python._fallbacks import MISSING_MODULE, graceful_try
from scanner.rules.textual import once, text_rule
from scanner.sourcetext import read_capped

# module (or module prefix, "x." meaning x and its submodules) -> advice
_MODULES = {
    "pycuda": "PyCUDA has no ROCm build: port to `hip-python`, CuPy or PyTorch",
    "tensorrt": "TensorRT has no ROCm build: MIGraphX (`torch_migraphx`) or ONNX Runtime's MIGraphX provider",
    "tensorrt_llm": "TensorRT-LLM has no ROCm build: serve with vLLM or SGLang on ROCm",
    "torch_tensorrt": "Torch-TensorRT has no ROCm build: `torch_migraphx` or `torch.compile`",
    "torch2trt": "torch2trt has no ROCm build: `torch_migraphx` or `torch.compile`",
    "pynvml": "NVML has no AMD implementation: use `amdsmi` (AMD SMI's Python API)",
    "cuda": "NVIDIA's cuda-python bindings: use `hip-python` (`from hip import hip`)",
    "numba.cuda": "Numba's CUDA target has no ROCm backend: `numba-hip`, Triton or PyTorch",
    "nvidia.dali": "DALI has no ROCm build: rocAL or torchvision data pipelines",
}


def check(ctx: Context) -> None:
    for ref in python_src.imports(ctx.source):
        module = ref.text
        for name, advice in _MODULES.items():
            if module == name or module.startswith(name + "."):
                message = (
                    f"`{module}` is CUDA-only: {advice}. (Plain `torch.cuda` is fine: ROCm builds of PyTorch keep it.)"
                )
                fallback = graceful_try(ctx.source, ref.line, MISSING_MODULE)
                guarded = "" if fallback else _else_binds(ctx.source, ref.line)
                if guarded:
                    with judged(ctx, Severity.LOW):
                        once(
                            ctx,
                            ref.line,
                            ref.col,
                            f"{message} It is imported only where {guarded}, and the `else` binds the name without "
                            "it: on an AMD host the module goes on without the feature (low).",
                            key=name,
                        )
                    break
                function = "" if fallback else _enclosing_function(ctx.source, ref.line)
                if function:
                    with judged(ctx, Severity.MEDIUM):
                        once(
                            ctx,
                            ref.line,
                            ref.col,
                            f"{message} It is imported inside `{function}()`: on an AMD host that path fails when "
                            "it is called, at run time; the rest of the program starts.",
                            key=name,
                        )
                    break
                blackwell = "" if fallback else _blackwell_dsl_module(ctx)
                if blackwell:
                    with judged(ctx, Severity.LOW):
                        once(
                            ctx,
                            ref.line,
                            ref.col,
                            f"{message} This module is a CuTe DSL kernel for NVIDIA Blackwell ({blackwell}): NVIDIA's "
                            "CUTLASS DSL has no ROCm backend, so a ROCm port never loads the module and rewrites the "
                            "kernel rather than swapping this import: low.",
                            key=name,
                        )
                    break
                if not fallback:
                    once(ctx, ref.line, ref.col, message, key=name)
                    break
                with judged(ctx, Severity.LOW):
                    once(
                        ctx,
                        ref.line,
                        ref.col,
                        f"{message} It is imported inside `try` (line {fallback}) whose `except` goes on without "
                        "it: on an AMD host the optional feature is off, nothing stops.",
                        key=name,
                    )
                break


# NVIDIA's CuTe DSL for Blackwell: its tcgen05/UMMA atoms and helpers, or a file or folder named for SM100/SM12x.
_BLACKWELL_IMPORT = re.compile(r"^cutlass\.(?:utils\.blackwell_helpers|cute\.nvgpu\.tcgen05)|tcgen05$")
_BLACKWELL_PATH = re.compile(r"(?i)(?:^|[/_.-])(?:sm_?1[012]\dx?[af]?|blackwell)(?=[/_.-]|$)")


def _blackwell_dsl_module(ctx) -> str:
    """How a Python module is a CuTe DSL kernel for Blackwell (it imports `cutlass.cute` at module level and
    either Blackwell's atoms or helpers, or its path is named for SM100/SM12x), or empty."""
    imports = [ref.text for ref in python_src.imports(ctx.source)]
    if not any(module == "cutlass.cute" or module.startswith("cutlass.cute.") for module in imports):
        return ""
    for module in imports:
        if _BLACKWELL_IMPORT.search(module):
            return f"`{module}`"
    named = _BLACKWELL_PATH.search(ctx.path)
    if named:
        return f"`{named.group(0).strip('/_.-')}` in its path"
    sibling = _blackwell_sibling(ctx)
    return f"through `{sibling}`, the Blackwell kernel it imports" if sibling else ""


# A module's text that imports Blackwell's CuTe DSL atoms or helpers.
_BLACKWELL_TEXT = re.compile(
    r"^\s*(?:from\s+cutlass\.cute\.nvgpu\s+import\b[^\n]*\btcgen05\b"
    r"|(?:from|import)\s+cutlass\.(?:utils\.blackwell_helpers|cute\.nvgpu\.tcgen05)\b)",
    re.M,
)


def _blackwell_sibling(ctx) -> str:
    """A module beside this one, imported relatively at module level (`from .topk_fwd import Kernel`), that is a
    CuTe DSL kernel for Blackwell: this module is its wrapper (an API class that compiles and launches it), and a
    ROCm port never loads either. Its import as written (`.topk_fwd`), or ""."""
    module = python_src.tree(ctx.source)
    if module is None or not ctx.root:
        return ""
    directory = posixpath.dirname(ctx.path)
    for node in module.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            path = os.path.join(ctx.root, directory, *node.module.split(".")) + ".py"
            if os.path.isfile(path) and not os.path.islink(path) and _BLACKWELL_TEXT.search(read_capped(path, _CAP)):
                return f".{node.module}"
    return ""


_CAP = 512 * 1024


def _else_binds(source, line: int) -> str:
    """`the test on line N holds` when the import on `line` sits in the body of an `if` whose `else` binds the
    names it imports (`if is_cuml_available(): from numba import cuda` ... `else: cuda = None`), or ""."""
    module = python_src.tree(source)
    for node in walk_ast(module) if module is not None else ():
        if not isinstance(node, ast.If) or not node.orelse:
            continue
        for statement in node.body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)) and statement.lineno == line:
                imported = {(a.asname or a.name).split(".")[0] for a in statement.names}
                bound = {
                    target.id
                    for other in node.orelse
                    if isinstance(other, ast.Assign)
                    for target in other.targets
                    if isinstance(target, ast.Name)
                }
                if imported <= bound:
                    return f"the test on line {node.lineno} holds"
    return ""


def _enclosing_function(source, line: int) -> str:
    """The name of the innermost function whose body holds `line`, or "" at module or class level."""
    module = python_src.tree(source)
    best = None
    for node in walk_ast(module) if module is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            if node.body[0].lineno <= line <= (node.end_lineno or node.lineno):
                if best is None or node.lineno > best.lineno:
                    best = node
    return best.name if best is not None else ""


RULE = text_rule(
    name="python-cuda-only-import",
    summary="Python import of a CUDA-only module (pycuda, tensorrt, pynvml, cuda-python, numba.cuda)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    languages={"python"},
    check=cuda_code_only(check),
)
