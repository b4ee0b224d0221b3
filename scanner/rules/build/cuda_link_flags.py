"""CUDA libraries linked by flag (-lcudart, -lcublas, -lcudnn, -lnccl, ...) or by name in setup.py.

What it finds:
    `-l` flags naming CUDA libraries in Makefiles, shell scripts, Dockerfiles, CI YAML and Python build
    scripts, and CUDA library names in a setup.py `libraries=[...]` list; TensorRT's libraries (`-lnvinfer`,
    `-lnvinfer_plugin`, `-lnvonnxparser`) among them. Not a flag after a `-L` into the project's own tree
    (`-L$(BUILDDIR)/lib -lnccl` with `BUILDDIR ?= ../../build` in the same Makefile): that library is the
    project's own build output, which its port builds under the same name.

Why it breaks on ROCm:
    The libraries are not installed on a ROCm machine: the link fails with `cannot find -lcudart`. Each has a
    ROCm counterpart under another name (the HIP runtime is `libamdhip64`), some with a different API
    (cuDNN → MIOpen); TensorRT has none: the inference code is ported to MIGraphX before anything links.
    The CUDA runtime, driver and NVRTC (`-lcudart`, `-lcuda`, `-lnvrtc`) are medium: the fix is one flag,
    renamed (`-lamdhip64`, `-lhiprtc`) or dropped (hipcc links the HIP runtime itself); the libraries keep the
    rule's severity.

Example:
    LDFLAGS += -L$(CUDA_HOME)/lib64 -lcudart -lcublas -lnccl

Use instead:
    `-L$(ROCM_PATH)/lib -lamdhip64 -lhipblas -lrccl` (the message names the counterpart of each library); link
    with hipcc, which adds the HIP runtime itself.

References:
    https://rocm.docs.amd.com/en/latest/reference/api-libraries.html
    https://rocm.docs.amd.com/projects/HIPCC/en/latest/
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.formats.python_src import walk_ast
from scanner.model import Risk, Severity
from scanner.rules.build._common import build_matches, nvidia_arch_only
from scanner.rules.build._in_tree import links_in_tree
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import CUDA_LIBRARIES, SCRIPT_LANGUAGES, TENSORRT_LIBRARIES, once, text_rule

# `-lcudart`, `-lcublasLt`, `-lnvidia-ml`; not `-lcudart_helpers` (looked up below), nor `-lpython3.11`.
_FLAG = re.compile(r"(?<![\w-])-l([A-Za-z][\w+-]*)(?![\w.+-])")
# CUDA libraries that have no counterpart to link: what to do instead.
_NO_COUNTERPART = {
    "cudadevrt": "drop it: HIP links relocatable device code (`-fgpu-rdc`) without a device runtime library, and "
    "has no dynamic parallelism (ROC154)",
    "culibos": "drop it: only CUDA's static libraries need it",
}

# The CUDA runtime, the driver and NVRTC: HIP's runtime and hipRTC take their place under another name (hipcc links
# the runtime itself), so the fix is one flag renamed or dropped: medium in the policy's build-break band.
_RUNTIME = frozenset({"cudart", "cuda", "nvrtc"})
_ONE_FLAG = "The fix is one flag, renamed or dropped (medium)."


def check(ctx: Context) -> None:
    for line, col, match in build_matches(ctx, _FLAG):
        if links_in_tree(ctx, line, col):  # the project's own build output, named like an NVIDIA library
            continue
        _report(ctx, line, col, match.group(0), match.group(1), as_flag=True)
    if ctx.language == "python":
        for const in _library_lists(ctx):
            _report(ctx, const.lineno, const.col_offset + 1, f'"{const.value}"', const.value, as_flag=False)


def _library_lists(ctx) -> list[ast.Constant]:
    """The string constants of `libraries=[...]` arguments (Extension, CUDAExtension, setup) and of variables
    named `*libraries` assigned a list."""
    module = python_src.tree(ctx.source)
    if module is None:
        return []
    values = []
    for node in walk_ast(module):
        if isinstance(node, ast.keyword) and node.arg == "libraries":
            values.append(node.value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(
                isinstance(t, ast.Name) and t.id.lower().endswith("libraries") for t in targets
            ):
                values.append(node.value)
    out = []
    for value in values:
        if isinstance(value, (ast.List, ast.Tuple, ast.BinOp)):
            out += [n for n in ast.walk(value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return sorted(out, key=lambda n: (n.lineno, n.col_offset))


def _report(ctx, line: int, col: int, spelled: str, name: str, as_flag: bool) -> None:
    base = name.lower().removesuffix("_static")
    if base.startswith("cudnn_"):  # cuDNN 8's sub-libraries (cudnn_ops_infer, cudnn_cnn_train, ...)
        base = "cudnn"
    if base in _NO_COUNTERPART:
        advice = _NO_COUNTERPART[base]
    elif CUDA_LIBRARIES.get(base, ("",))[0]:
        flag, _, what = CUDA_LIBRARIES[base]
        advice = f"link `{flag if as_flag else flag.removeprefix('-l')}` ({what}) instead"
    else:
        return
    what = "TensorRT" if base in TENSORRT_LIBRARIES else "a CUDA library"
    message = f"`{spelled}` links {what}, which ROCm machines do not have: {advice}."
    only = nvidia_arch_only(ctx, line)
    if only:
        with judged(ctx, Severity.INFO):
            once(ctx, line, col, f"{message} {only}", length=len(spelled), key=base)
        return
    if base in _RUNTIME:
        with judged(ctx, Severity.MEDIUM):
            once(ctx, line, col, f"{message} {_ONE_FLAG}", length=len(spelled), key=base)
        return
    once(ctx, line, col, message, length=len(spelled), key=base)


RULE = text_rule(
    name="build-cuda-link-flags",
    summary="CUDA libraries linked by flag (-lcudart, -lcublas, -lnccl, ...) or named in setup.py",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
