"""CI jobs in CUDA containers, or installing the CUDA toolkit (GitHub Actions, GitLab CI).

What it finds:
    In GitHub Actions: a job `container:` (or a service `image:`) that is a CUDA image, and steps using
    toolkit-installing actions (`Jimver/cuda-toolkit`, `N-Storm/cuda-toolkit`). In GitLab CI: `image:` (global,
    `default:` or per job) and `services:` naming a CUDA image. Not a workflow that names OpenCL and names CUDA
    only in its images: its jobs build for OpenCL (pocl) on a CUDA base image, which is no CUDA build to port.

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
_OPENCL = re.compile(r"opencl|\bpocl\b|ocl-icd", re.I)
_CUDA = re.compile(r"cuda|nvcc", re.I)
_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$", re.M)
# An image reference naming CUDA (`nvcr.io/nvidia/cuda:12.9.1-devel-ubuntu22.04`, `nvidia/cuda:12.4.1-base`).
_CUDA_IMAGE = re.compile(r"[\w.-]*(?:/[\w.-]+)*/cuda(?::[\w.-]+)?", re.I)


def check(ctx: Context) -> None:
    kinds = yaml_doc.kinds(ctx.source)
    if not kinds & {"github-actions", "gitlab-ci"} or _opencl_only(ctx):
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


def _opencl_only(ctx) -> bool:
    """A workflow that names OpenCL (`pocl`, `ocl-icd`, `--integrated-opencl`) and CUDA nowhere but in its images
    only borrows a CUDA image as a base for its OpenCL builds: vendor-neutral jobs, not the CUDA side of the
    project, and nothing for a HIP port to twin."""
    text = _CUDA_IMAGE.sub("", _COMMENT.sub("", ctx.text))
    return bool(_OPENCL.search(text)) and not _CUDA.search(text)


RULE = text_rule(
    name="shell-ci-cuda-image",
    formerly=("ci-cuda-image",),
    summary="CI job in a CUDA container or installing the CUDA toolkit",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    languages={"yaml"},
    check=cuda_code_only(check),
)
