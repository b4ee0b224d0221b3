"""Container images built on CUDA (FROM nvidia/cuda, nvcr.io/nvidia/*, vllm/vllm-openai, CUDA PyTorch tags).

What it finds:
    `FROM` lines of Dockerfiles/Containerfiles and `image:` values of compose files and Kubernetes manifests
    naming a CUDA image: `nvidia/cuda:*`, `nvcr.io/nvidia/*` (NGC), `pytorch/pytorch:*-cuda*`,
    `vllm/vllm-openai`, `tensorflow/tensorflow:*-gpu`. CI images are ROC236's.

Why it breaks on ROCm:
    These images carry the CUDA runtime and libraries, and frameworks built against them; none of it can use an
    AMD GPU (PyTorch in them reports `torch.cuda.is_available() == False` on a ROCm host), and nvcc-based
    builds inside them produce NVIDIA code.

Example:
    FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04
    FROM nvcr.io/nvidia/pytorch:24.05-py3

Use instead:
    AMD's images: `rocm/dev-ubuntu-22.04:<rocm>-complete` for building HIP code, `rocm/pytorch`, `rocm/vllm`,
    `rocm/tensorflow`, `rocm/jax`, pinned to a tag matching the host's ROCm driver.

References:
    https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/docker.html
    https://hub.docker.com/u/rocm
"""

from scanner.analysis.context import Context
from scanner.formats import dockerfile, yaml_doc
from scanner.formats.lines import words
from scanner.model import Risk, Severity
from scanner.rules.container._images import cuda_image
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import once, text_rule


def check(ctx: Context) -> None:
    if ctx.language == "dockerfile":
        for item in dockerfile.instructions(ctx.source):
            if item.keyword != "FROM":
                continue
            image = next(((w, off) for w, off in words(item.args) if not w.startswith("--")), None)
            if image is not None and cuda_image(image[0]):
                line, col = item.where(image[1])
                _report(ctx, line, col, image[0])
        return
    if yaml_doc.is_ci(ctx.source) or not yaml_doc.kinds(ctx.source) & {"compose", "kubernetes"}:
        return
    for doc in yaml_doc.documents(ctx.source):
        for path, _, value in yaml_doc.walk(doc):
            if path[-1] == "image" and cuda_image(yaml_doc.text(value)):
                _report(ctx, yaml_doc.line_of(value), yaml_doc.col_of(value), yaml_doc.text(value))


def _report(ctx, line: int, col: int, image: str) -> None:
    once(
        ctx,
        line,
        col,
        f"`{image}` is a CUDA image: nothing in it can use an AMD GPU. Use {cuda_image(image)} "
        "instead, tagged for the host's ROCm.",
        length=len(image),
    )


RULE = text_rule(
    name="container-nvidia-base-image",
    summary="container image built on CUDA (nvidia/cuda, nvcr.io/nvidia, vllm/vllm-openai, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"dockerfile", "yaml"},
    check=cuda_code_only(check),
)
