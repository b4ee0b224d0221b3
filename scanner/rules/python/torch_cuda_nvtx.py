"""torch.cuda.nvtx ranges (and autograd's emit_nvtx): they go to roctx on ROCm, not to Nsight.

What it finds:
    Uses of `torch.cuda.nvtx` (`range_push`, `range_pop`, `range`, `mark`), imports of it, and
    `torch.autograd.profiler.emit_nvtx`. Other `torch.cuda.*` calls are not reported: they work unchanged on
    ROCm builds of PyTorch.

Why it breaks on ROCm:
    Nothing crashes: ROCm builds of PyTorch route these calls to roctx. But the ranges appear only in ROCm's
    profilers (rocprofv3 with marker tracing, Omnitrace), not in Nsight Systems, so a profiling workflow built
    on `nsys` and NVTX ranges has to change, and ranges not pushed and popped in the same thread are handled
    differently.

Example:
    torch.cuda.nvtx.range_push("forward")
    out = model(batch)
    torch.cuda.nvtx.range_pop()

Use instead:
    Keep the calls (they become roctx ranges) and profile with `rocprofv3 --marker-trace` or
    `torch.profiler` (which works on both platforms); replace `nsys`/`ncu` invocations in scripts.

References:
    https://rocm.docs.amd.com/projects/rocprofiler-sdk/en/latest/how-to/using-rocprofv3.html
    https://pytorch.org/docs/stable/cuda.html#nvidia-tools-extension-nvtx
    https://pytorch.org/docs/stable/profiler.html
"""

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_NAMES = ("torch.cuda.nvtx", "torch.autograd.profiler.emit_nvtx")


def check(ctx: Context) -> None:
    refs = [r for r in python_src.imports(ctx.source) if r.text.startswith(_NAMES)]
    refs += [r for r in python_src.dotted_names(ctx.source) if r.text.startswith(_NAMES)]
    for ref in sorted(refs, key=lambda r: (r.line, r.col)):
        once(
            ctx,
            ref.line,
            ref.col,
            f"`{ref.text}` records roctx ranges on ROCm builds of PyTorch: they show in "
            "rocprofv3 (--marker-trace), not Nsight; adapt the profiling workflow (or use torch.profiler).",
        )


RULE = text_rule(
    name="python-torch-cuda-nvtx",
    summary="torch.cuda.nvtx ranges (roctx on ROCm: visible in rocprofv3, not Nsight)",
    risk=Risk.PERFORMANCE,
    severity=Severity.INFO,
    languages={"python"},
    check=cuda_code_only(check),
)
