"""CI jobs pinned to NVIDIA GPU runners (GitHub Actions runs-on, GitLab CI tags).

What it finds:
    GitHub Actions `runs-on:` labels and GitLab CI job `tags:` that name an NVIDIA GPU runner: `gpu`, `cuda`,
    `nvidia`, or an NVIDIA GPU model (`a100`, `h100`, `v100`, `t4`, `l4`, `a10g`, ...). Not a job whose labels
    also name a CPU runner (`runner=windows-cpu` beside `tag=build-win64-gpu`): the `gpu` there names the CUDA
    variant the job builds, and the machine has no GPU to pin.

Why it breaks on ROCm:
    The GPU jobs of the pipeline run only on NVIDIA machines: the ported code is never built or tested on an
    AMD GPU, so regressions in the HIP path (wave64 reductions, missing `--offload-arch`) reach users first.

Example:
    jobs:
      gpu-tests:
        runs-on: [self-hosted, linux, gpu, a100]

Use instead:
    A job on an AMD GPU runner (self-hosted with ROCm, labelled e.g. `rocm` / `mi300x`; or a cloud provider's
    MI300X runners) with a `rocm/*` container, next to or instead of the NVIDIA job.

References:
    https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/using-labels-with-self-hosted-runners
    https://docs.gitlab.com/ci/yaml/#tags
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_NVIDIA = re.compile(
    r"(?<![a-z0-9])(gpu|gpus|cuda|nvidia|a100|a10g|a10|h100|h200|b200|gh200|v100|t4|l4|l40s?"
    r"|rtx[\w-]*|tesla[\w-]*)(?![a-z0-9])",
    re.I,
)
_AMD = re.compile(r"rocm|amd|mi\d{3}|gfx\d+|radeon|instinct", re.I)
# A label that names the machine a CPU one (`runner=windows-cpu`): another label's `gpu` names what is built.
_CPU = re.compile(r"(?<![a-z0-9])cpu(?![a-z0-9])", re.I)


def check(ctx: Context) -> None:
    kinds = yaml_doc.kinds(ctx.source)
    for doc in yaml_doc.documents(ctx.source):
        if "github-actions" in kinds:
            for _, _, job in yaml_doc.items(yaml_doc.get(doc, "jobs")):
                _labels(ctx, yaml_doc.get(job, "runs-on"), "runs-on")
        if "gitlab-ci" in kinds:
            for _, _, job in yaml_doc.items(doc):
                _labels(ctx, yaml_doc.get(job, "tags"), "tags")


def _labels(ctx, node, key: str) -> None:
    if node is None:
        return
    labels = list(yaml_doc.scalars(yaml_doc.get(node, "labels") if isinstance(node, yaml_doc.MappingNode) else node))
    if any(_AMD.search(label.value) for label in labels):
        return  # an AMD runner that happens to be labelled `gpu`
    if any(_CPU.search(label.value) and not _NVIDIA.search(label.value) for label in labels):
        return  # a CPU runner; `tag=build-win64-gpu` names the CUDA variant it builds, not its hardware
    for label in labels:
        match = _NVIDIA.search(label.value)
        if match:
            if ctx.port.ported:  # the repository builds for ROCm somewhere: do not claim CI never does
                message = (
                    f"`{key}: {label.value}` pins this job to an NVIDIA GPU runner: it tests the NVIDIA side "
                    "only; make sure an AMD GPU runner (ROCm, e.g. MI300X) runs the same tests."
                )
            else:
                message = (
                    f"`{key}: {label.value}` pins this job to an NVIDIA GPU runner: the ROCm port is never "
                    "built or tested in CI. Add a job on an AMD GPU runner (ROCm, e.g. MI300X) with a "
                    "`rocm/*` image."
                )
            once(ctx, yaml_doc.line_of(label), yaml_doc.col_of(label), message, length=len(label.value))
            return


RULE = text_rule(
    name="shell-ci-nvidia-runner",
    formerly=("ci-nvidia-runner",),
    summary="CI job pinned to NVIDIA GPU runners (runs-on / tags)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"yaml"},
    check=cuda_code_only(check),
)
