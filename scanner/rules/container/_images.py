"""Shared by the container and CI rules: which container images are CUDA builds, and the ROCm image to use."""

from __future__ import annotations

import re

# (pattern on the image reference, what to use on ROCm)
_CUDA_IMAGES: list[tuple[re.Pattern, str]] = [
    (
        re.compile(r"^(?:docker\.io/)?nvidia/cuda(?:gl)?(?::|@|$)"),
        "`rocm/dev-ubuntu-22.04` (or `-24.04`; `:<rocm>-complete` for the full SDK)",
    ),
    (re.compile(r"^nvcr\.io/nvidia/pytorch(?::|@|$)"), "`rocm/pytorch`"),
    (re.compile(r"^nvcr\.io/nvidia/tensorflow(?::|@|$)"), "`rocm/tensorflow`"),
    (re.compile(r"^nvcr\.io/nvidia/jax(?::|@|$)"), "`rocm/jax`"),
    (
        re.compile(r"^nvcr\.io/nvidia/tritonserver(?::|@|$)"),
        "a ROCm serving image (`rocm/vllm`, or Triton's ROCm build); TensorRT backends have no ROCm equivalent",
    ),
    (re.compile(r"^nvcr\.io/nvidia/"), "the matching `rocm/*` image (rocm/pytorch, rocm/dev-ubuntu-22.04, ...)"),
    (re.compile(r"^(?:docker\.io/)?pytorch/pytorch:.*cuda"), "`rocm/pytorch`"),
    (re.compile(r"^(?:docker\.io/)?vllm/vllm-openai(?::|@|$)"), "`rocm/vllm`"),
    (re.compile(r"^(?:docker\.io/)?tensorflow/tensorflow:.*gpu"), "`rocm/tensorflow`"),
]


def cuda_image(image: str) -> str:
    """The ROCm image to use instead of `image` when it is a CUDA build, else ""."""
    image = image.strip().strip("'\"")
    for pattern, instead in _CUDA_IMAGES:
        if pattern.search(image):
            return instead
    return ""
