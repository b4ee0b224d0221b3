"""PyTorch CUDA extensions (CUDAExtension, cpp_extension.load with CUDA sources): hipified by PyTorch, lower risk.

What it finds:
    `torch.utils.cpp_extension.CUDAExtension(...)` in setup.py or a build script, and `load(...)` /
    `load_inline(...)` given CUDA sources (`.cu` files, `cuda_sources=`, `extra_cuda_cflags=`).

Why it breaks on ROCm:
    Mostly it does not: on a ROCm build of PyTorch, `CUDAExtension` and `BuildExtension` run PyTorch's own
    hipify over the sources and compile them with hipcc, passing `extra_compile_args["nvcc"]` to hipcc. What
    breaks is what hipify cannot fix: nvcc-only flags in those arguments (ROC212 reports architectures), inline
    PTX, warp-size assumptions and CUDA-only libraries in the kernels, which the C++ rules report.

Example:
    CUDAExtension("fused_ops", ["fused_ops.cpp", "fused_kernel.cu"],
                  extra_compile_args={"nvcc": ["-O3", "--use_fast_math"]})

Use instead:
    Keep `CUDAExtension`; make its `nvcc` arguments conditional on `torch.version.hip` (no `--use_fast_math`,
    `-gencode` or `--expt-*` flags for hipcc), set `PYTORCH_ROCM_ARCH` for the targets, and run the C++ rules'
    fixes on the kernel sources.

References:
    https://pytorch.org/docs/stable/cpp_extension.html
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/3rd-party/pytorch-install.html
    https://github.com/pytorch/pytorch/blob/main/torch/utils/hipify/hipify_python.py
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats import lines as text_lines
from scanner.formats import python_src
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import arch_list, mentions, once, text_rule

_CALLS = frozenset({"CUDAExtension", "load", "load_inline"})
_CUDA_SOURCE = re.compile(r"\.cuh?$")
# nvcc-only flags in `extra_compile_args["nvcc"]` / `extra_cuda_cflags` (architectures are ROC212's).
_NVCC_ONLY = re.compile(
    r"^(?:--?use_fast_math|--(?:expt-)?extended-lambda|--expt-relaxed-constexpr|-Xptxas\b.*"
    r"|--ptxas-options\b.*|-maxrregcount\b.*|--maxrregcount\b.*|-lineinfo|--default-stream\b.*"
    r"|-rdc=true|--relocatable-device-code=true|--threads\b.*|-t\d+|--keep)$"
)
# A file `ast` rejects: CUDAExtension calls read from its lines.
_LINE_CALL = re.compile(r"(?<![\w])CUDAExtension\s*\(")


def check(ctx: Context) -> None:
    if not mentions(ctx, "CUDAExtension") and not mentions(ctx, "load"):
        return
    if python_src.tree(ctx.source) is None:
        for line, col, _match in text_lines.find(ctx.source, _LINE_CALL):
            once(ctx, line, col, _message(ctx, "CUDAExtension", []), length=len("CUDAExtension"))
        return
    for name, call in python_src.calls(ctx.source, _CALLS):
        if name != "CUDAExtension" and not _has_cuda_sources(name, call):
            continue
        func = call.func
        line = func.end_lineno or call.lineno
        col = (func.end_col_offset - len(name) + 1) if func.end_col_offset is not None else call.col_offset + 1
        once(ctx, line, col, _message(ctx, name, _nvcc_only_flags(name, call)), length=len(name))


def _has_cuda_sources(name: str, call: ast.Call) -> bool:
    """`load(name, sources)` with a `.cu` source, `load_inline(name, cpp_sources, cuda_sources)`, or either with
    CUDA compiler flags or `with_cuda=True` (json.load and torch.load have none of these)."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if "extra_cuda_cflags" in keywords or _is_true(keywords.get("with_cuda")):
        return True
    if name == "load_inline":
        sources = keywords.get("cuda_sources", call.args[2] if len(call.args) > 2 else None)
        return sources is not None and not _is_empty(sources)
    sources = keywords.get("sources", call.args[1] if len(call.args) > 1 else None)
    return sources is not None and any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and _CUDA_SOURCE.search(n.value)
        for n in ast.walk(sources)
    )


def _nvcc_only_flags(name: str, call: ast.Call) -> list[str]:
    """The nvcc-only flags of `extra_compile_args={"nvcc": [...]}` / `extra_cuda_cflags=[...]`."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    values = [keywords["extra_cuda_cflags"]] if "extra_cuda_cflags" in keywords else []
    args = keywords.get("extra_compile_args")
    if isinstance(args, ast.Dict):
        values += [
            v
            for k, v in zip(args.keys, args.values)
            if isinstance(k, ast.Constant) and k.value == "nvcc" and v is not None
        ]
    flags = []
    for value in values:
        for node in ast.walk(value):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _NVCC_ONLY.match(node.value):
                if node.value not in flags:
                    flags.append(node.value)
    return flags


def _is_true(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_empty(node) -> bool:
    return (isinstance(node, ast.Constant) and node.value in (None, "")) or (
        isinstance(node, (ast.List, ast.Tuple)) and not node.elts
    )


def _message(ctx, name: str, flags: list[str]) -> str:
    what = "`CUDAExtension`" if name == "CUDAExtension" else f"`{name}(...)` with CUDA sources"
    text = (
        f"{what} is hipified and built with hipcc by ROCm builds of PyTorch, so it mostly ports as is: set "
        f'`PYTORCH_ROCM_ARCH="{arch_list(ctx)}"` and check the kernels with the C++ rules.'
    )
    if flags:
        listed = ", ".join(f"`{f}`" for f in flags)
        text += f" Its nvcc-only flags ({listed}) must be passed only when `torch.version.hip` is None."
    return text


RULE = text_rule(
    name="build-torch-cuda-extension",
    summary="PyTorch CUDAExtension / cpp_extension.load with CUDA sources (hipified by PyTorch: lower risk)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.LOW,
    languages={"python"},
    check=cuda_code_only(check),
)
