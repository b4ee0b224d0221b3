"""CI jobs in CUDA containers, or installing the CUDA toolkit (GitHub Actions, GitLab CI).

What it finds:
    In GitHub Actions: a job `container:` (or a service `image:`) that is a CUDA image, and steps using
    toolkit-installing actions (`Jimver/cuda-toolkit`, `N-Storm/cuda-toolkit`). In GitLab CI: `image:` (global,
    `default:` or per job) and `services:` naming a CUDA image.

Why it breaks on ROCm:
    The job builds and tests against CUDA only: the HIP build is never compiled in CI, and a step that needs
    nvcc fails as soon as the job moves to an AMD runner or a ROCm image.

Example:
    build:
      image: nvidia/cuda:12.4.1-devel-ubuntu22.04
      script: [make -j]

Use instead:
    `rocm/dev-ubuntu-22.04:<rocm>-complete` (or `rocm/pytorch`, `rocm/vllm`) for the HIP build job; compiling
    needs no GPU, so the HIP build can run on ordinary runners, tests on AMD GPU runners (ROC235).

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/docker.html
    https://docs.github.com/en/actions/using-jobs/running-jobs-in-a-container
    https://docs.gitlab.com/ci/yaml/#image
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.model import Risk, Severity
from scanner.rules.container._images import cuda_image
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule

_ACTION = re.compile(r"^(?:Jimver|N-Storm)/cuda-toolkit@", re.I)


def check(ctx: Context) -> None:
    kinds = yaml_doc.kinds(ctx.source)
    if not kinds & {"github-actions", "gitlab-ci"}:
        return
    for doc in yaml_doc.documents(ctx.source):
        for path, _key, value in yaml_doc.walk(doc):
            name = path[-1]
            if name in ("container", "image", "services"):
                for scalar in yaml_doc.scalars(value):
                    if cuda_image(scalar.value):
                        seen = (
                            "this job builds the NVIDIA side only"
                            if ctx.port.ported
                            else "the HIP build is never compiled"
                        )
                        once(
                            ctx,
                            yaml_doc.line_of(scalar),
                            yaml_doc.col_of(scalar),
                            f"CI runs in the CUDA image "
                            f"`{scalar.value}`: {seen}. Use {cuda_image(scalar.value)} for the ROCm job.",
                            length=len(scalar.value),
                        )
            elif name == "uses" and _ACTION.match(yaml_doc.text(value)):
                once(
                    ctx,
                    yaml_doc.line_of(value),
                    yaml_doc.col_of(value),
                    f"`{yaml_doc.text(value)}` installs the "
                    "CUDA toolkit: the ROCm job needs a `rocm/*` container or ROCm from repo.radeon.com instead.",
                    length=len(yaml_doc.text(value)),
                )


RULE = text_rule(
    name="shell-ci-cuda-image",
    formerly=("ci-cuda-image",),
    summary="CI job in a CUDA container or installing the CUDA toolkit",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"yaml"},
    check=cuda_code_only(check),
)
