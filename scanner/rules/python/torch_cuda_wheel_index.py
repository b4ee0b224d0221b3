"""PyTorch installed from a CUDA wheel index or as a CUDA build (cu121 index, +cu118 versions, pytorch-cuda).

What it finds:
    `https://download.pytorch.org/whl/cu121` (and `whl/nightly/cu124`) as an index in requirements files,
    pyproject.toml, Dockerfiles, scripts and CI; pinned versions with a CUDA local tag (`torch==2.4.0+cu121`);
    conda's `pytorch-cuda=12.1` and the `nvidia` channel. Not in a GitHub Actions job that says it runs on the
    CPU (`linux_cpu_tests` on `ubuntu-latest`): the CUDA wheel is PyTorch's default build there, and the job
    tests nothing a ROCm port changes.

Why it breaks on ROCm:
    These are PyTorch's CUDA builds: on an AMD machine `torch.cuda.is_available()` is False and every GPU tensor
    fails, with no error at install time. ROCm builds of PyTorch come from their own index (`whl/rocmX.Y`) or
    AMD's images, and keep the `torch.cuda` API.

Example:
    --extra-index-url https://download.pytorch.org/whl/cu121
    torch==2.4.0+cu121

Use instead:
    `--index-url https://download.pytorch.org/whl/rocm6.4` (the `rocmX.Y` matching your ROCm; torchvision and
    torchaudio from the same index), AMD's wheels from repo.radeon.com, or the `rocm/pytorch` image.

References:
    https://pytorch.org/get-started/locally/
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/3rd-party/pytorch-install.html
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, once, text_rule

_INDEX = re.compile(r"download\.pytorch\.org/whl/(?:nightly/|test/)?cu\d+")
_LOCAL = re.compile(r"\b(?:torch|torchvision|torchaudio|xformers)\s*={1,3}\s*[\d.]+(?:\w+)?\+cu\d+")
_CPU = re.compile(r"(?<![a-z0-9])cpu(?![a-z0-9])", re.I)
_GPU_RUNNER = re.compile(r"(?<![a-z0-9])(?:gpus?|cuda|nvidia|[abhlt]\d+\w*|rtx\w*)(?![a-z0-9])", re.I)
_CONDA = re.compile(r"(?<![\w-])pytorch-cuda\b|(?<![\w-])-c\s+nvidia\b")


def check(ctx: Context) -> None:
    for pattern, what in (
        (_INDEX, "a PyTorch CUDA wheel index"),
        (_LOCAL, "a CUDA build of PyTorch"),
        (_CONDA, "PyTorch's CUDA build from conda"),
    ):
        for line, col, match in command_matches(ctx, pattern):
            if line in _cpu_job_lines(ctx):
                continue
            if ctx.port.ported:  # the repository builds for ROCm: this install is its NVIDIA side
                message = (
                    f"`{match.group(0)}` is {what}: right for the NVIDIA side; where this install also serves "
                    "the ROCm path, take `https://download.pytorch.org/whl/rocmX.Y` (matching your ROCm) or "
                    "the `rocm/pytorch` image there."
                )
            else:
                message = (
                    f"`{match.group(0)}` is {what}: on AMD GPUs torch.cuda.is_available() is False. Install "
                    "from `https://download.pytorch.org/whl/rocmX.Y` (matching your ROCm) or use the "
                    "`rocm/pytorch` image."
                )
            once(ctx, line, col, message, length=len(match.group(0)))
    if ctx.language == "conda":
        for doc in yaml_doc.documents(ctx.source):
            for channel in yaml_doc.elements(yaml_doc.get(doc, "channels")):
                if yaml_doc.text(channel) == "nvidia":
                    once(
                        ctx,
                        yaml_doc.line_of(channel),
                        yaml_doc.col_of(channel),
                        "The `nvidia` conda channel "
                        "provides CUDA builds: on ROCm, PyTorch comes from the rocmX.Y wheel index or a "
                        "`rocm/pytorch` image.",
                        length=6,
                    )


def _cpu_job_lines(ctx) -> frozenset[int]:
    """The lines of GitHub Actions jobs that say they run on the CPU (`linux_cpu_tests`, `name: CPU tests`,
    `runs-on: linux-amd64-cpu`) and name no GPU runner: the CUDA wheel there is only the build PyTorch publishes
    by default, and the job tests nothing a ROCm port changes."""
    key = "rocport:torch-index-cpu-jobs"
    if key not in ctx.memo:
        lines: set[int] = set()
        if ctx.language == "yaml" and "github-actions" in yaml_doc.kinds(ctx.source):
            for doc in yaml_doc.documents(ctx.source):
                for name, _, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                    runner = " ".join(s.value for s in yaml_doc.scalars(yaml_doc.get(job, "runs-on")))
                    said = f"{name} {yaml_doc.text(yaml_doc.get(job, 'name'))} {runner}"
                    if _CPU.search(said) and not _GPU_RUNNER.search(runner):
                        lines.update(range(job.start_mark.line + 1, job.end_mark.line + 2))
        ctx.memo[key] = frozenset(lines)
    return ctx.memo[key]


RULE = text_rule(
    name="python-torch-cuda-wheel-index",
    summary="PyTorch from a CUDA wheel index or as a CUDA build (whl/cu121, +cu118, pytorch-cuda)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages=SCRIPT_LANGUAGES | {"requirements", "pyproject", "conda"},
    check=cuda_code_only(check),
)
