"""CUDA-only Python packages in requirements, pyproject.toml, setup.py and conda environments.

What it finds:
    Dependencies that exist only as CUDA builds: `cupy-cuda*`, `pycuda`, TensorRT (`tensorrt*`,
    `torch-tensorrt`, `tensorrt-llm`), NVIDIA's library wheels (`nvidia-*`), NVML bindings (`pynvml`,
    `nvidia-ml-py`), `flash-attn`, `cuda-python`, `onnxruntime-gpu`, `jax[cuda*]`, RAPIDS' `*-cu11`/`*-cu12`
    wheels, and conda's `cudatoolkit`, `cuda-*`, `cudnn`, `nccl`, `pytorch-cuda`.

Why it breaks on ROCm:
    pip installs them happily on an AMD machine (or fails building them), and then they fail at import or at
    the first GPU call: they link the CUDA runtime, which is not there. Some have a ROCm build under another
    name or index, some have a ROCm counterpart, some have none.

Example:
    cupy-cuda12x==13.3.0
    pynvml==11.5.0
    flash-attn==2.6.3

Use instead:
    The ROCm build where one exists (the message names it): CuPy built for ROCm (`cupy-rocm-*` wheels, or
    from source with `CUPY_INSTALL_USE_HIP=1`), `amdsmi` for pynvml, ROCm/flash-attention (CK or Triton backend)
    for flash-attn, `hip-python` for cuda-python/PyCUDA, MIGraphX for TensorRT, `onnxruntime-rocm` /
    `onnxruntime-migraphx`, JAX's ROCm plugin; drop `nvidia-*` wheels (ROCm's libraries come with ROCm or the
    ROCm PyTorch wheel). NVML's pure-Python bindings (`pynvml`, `nvidia-ml-py`, `gpustat`, `nvitop`) install on
    any machine and fail only where code calls NVML (ROC243 reports the import): low, a run-time failure. Keep
    CUDA-only dependencies behind an extra or an environment marker. One in an opt-in group that is the CUDA
    variant is only what a CUDA install opts into: info. Such a group is named for CUDA
    (`[project.optional-dependencies] cu13 = [...]`), or asks for a package's CUDA build
    (`nvidia-cutlass-dsl[cu13]`, whatever the group's name). One in any other opt-in group (an extra, a PEP 735 dependency group, a setup.py
    `extras_require` key) is low: the base install never pulls it. A requirements file named for CUDA
    (`requirements_cuda12.txt`) beside a ROCm one in the same folder (`requirements_rocm6.txt`) is the NVIDIA
    side of a project that already splits its requirements per platform: info.

References:
    https://docs.cupy.dev/en/stable/install.html#using-cupy-on-amd-gpu-experimental
    https://rocm.docs.amd.com/projects/amdsmi/en/latest/
    https://github.com/ROCm/flash-attention
    https://rocm.docs.amd.com/projects/hip-python/en/latest/
    https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/model-acceleration-libraries.html
"""

import functools
import os
import posixpath
import re

from scanner import discovery
from scanner.analysis.context import Context
from scanner.formats import packages
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only, judged
from scanner.rules.textual import once, text_rule

# (pattern on the normalised name, advice); the first match wins.
_PACKAGES: list[tuple[re.Pattern, str]] = [
    (
        re.compile(r"cupy-cuda\w*"),
        "CuPy's ROCm build (`cupy-rocm-*` wheels, or from source with `CUPY_INSTALL_USE_HIP=1`)",
    ),
    (re.compile(r"pycuda"), "no ROCm build: port to `hip-python` (AMD's HIP bindings), CuPy or PyTorch"),
    (
        re.compile(r"(?:nvidia-)?tensorrt(?:-[\w-]+)?|torch-tensorrt|tensorrt-llm|torch2trt"),
        "no ROCm build of TensorRT: MIGraphX (`torch_migraphx`) or ONNX Runtime's MIGraphX provider",
    ),
    (
        re.compile(r"pynvml|nvidia-ml-py3?|gpustat|nvitop"),
        "NVML has no AMD implementation: use `amdsmi` (AMD SMI's Python package, shipped with ROCm)",
    ),
    (
        re.compile(r"flash-attn"),
        "the PyPI package builds CUDA kernels only: use ROCm/flash-attention (CK or "
        "Triton backend), or the attention of rocm/vllm and AITER",
    ),
    (re.compile(r"cuda-python|cuda-bindings|cuda-core"), "use `hip-python` (AMD's HIP bindings)"),
    (
        re.compile(r"onnxruntime-gpu"),
        "the CUDA build: use `onnxruntime-rocm` or `onnxruntime-migraphx` (repo.radeon.com)",
    ),
    (re.compile(r"jax-cuda\d+-(?:plugin|pjrt)"), "JAX's ROCm plugin (`jax-rocm7-plugin`, or the rocm/jax image)"),
    (
        # NVIDIA's library wheels by name, or any built for a CUDA version (`-cu12`, `-cuda120`); not every
        # `nvidia-` package is one (`nvidia-ncore` is a pure-Python data-format library, `nvidia-pyindex` an index).
        re.compile(
            r"nvidia-(?:[\w-]+-cu(?:da)?1\d+\w*"
            r"|(?:cublas|cuda|cudnn|cufft|cufile|curand|cusolver|cusparse|cupti|nccl|nvtx|nvjitlink|nvrtc|nvshmem"
            r"|nvcomp|nvimgcodec|nvjpeg|npp|dali|cutlass|mathdx|modelopt|cuquantum|cutensor)(?:-[\w-]+)?)"
        ),
        "an NVIDIA library wheel: ROCm's libraries come with ROCm (or the ROCm PyTorch wheel); drop it",
    ),
    (re.compile(r"[\w-]+-cu1\d+"), "a wheel built for CUDA: RAPIDS and similar have no ROCm build"),
]
_CONDA = re.compile(
    r"cudatoolkit|cuda-toolkit|cuda-nvcc|cuda-runtime|cuda-version|cuda-cudart\w*|cudnn|nccl"
    r"|cuda"
)
_JAX_EXTRA = re.compile(r"^jax(?:lib)?\[[^\]]*cuda", re.I)


# An extra named for CUDA (`cu13`, `cuda12`, `cuda`): what only a CUDA install opts into.
_CUDA_EXTRA = re.compile(r"^(?:cu\d+\w*|cuda[\w-]*|[\w-]*-cu\d+|[\w-]*-cuda\d*)$", re.I)


def check(ctx: Context) -> None:
    reqs = packages.requirements(ctx.source)
    beside = _rocm_sibling(ctx) if ctx.language == "requirements" and any(_advice(r) for r in reqs) else ""
    for req in reqs:
        advice = _advice(req)
        if not advice:
            continue
        message = f"`{req.raw}` is CUDA-only: {advice}."
        if beside:
            with judged(ctx, Severity.INFO):
                once(
                    ctx,
                    req.line,
                    req.col,
                    f"{message} This requirements file is named for CUDA and the project keeps ROCm ones beside "
                    f"it (`{beside}`): a ROCm install reads those, so this is the NVIDIA side.",
                    length=len(req.raw),
                    key=req.name,
                )
            continue
        cuda_group = _cuda_group(reqs, req.extra)
        if cuda_group:
            with judged(ctx, Severity.INFO):
                once(
                    ctx,
                    req.line,
                    req.col,
                    f"{message} It is in the opt-in extra `[{req.extra}]`, {cuda_group}: a ROCm install never "
                    "selects it and the base install does not need it; offer a ROCm extra beside it.",
                    length=len(req.raw),
                    key=req.name,
                )
            continue
        if _NVML_BINDINGS.fullmatch(req.name):
            with judged(ctx, Severity.LOW, Risk.RUNTIME_FAILURE):
                once(ctx, req.line, req.col, f"{message} {_PURE_PYTHON}", length=len(req.raw), key=req.name)
            continue
        if req.extra:
            with judged(ctx, Severity.LOW):
                once(
                    ctx,
                    req.line,
                    req.col,
                    f"{message} It is in the opt-in group `[{req.extra}]`: the base install never pulls it, so only "
                    "a ROCm install that opts into the group fails (low); keep it out of a group a ROCm user needs.",
                    length=len(req.raw),
                    key=req.name,
                )
            continue
        once(ctx, req.line, req.col, message, length=len(req.raw), key=req.name)


# A requirement that selects a package's CUDA build through its own extra (`nvidia-cutlass-dsl[cu13]`,
# `jax[cuda12]`): a group holding one is the CUDA variant, whatever its name (`cutedsl`).
_CUDA_BUILD_EXTRA = re.compile(r"^[\w.-]+\[[^\]]*\b(?:cu\d+|cuda\d*)\b[^\]]*\]", re.I)


def _cuda_group(reqs: list[packages.Requirement], extra: str) -> str:
    """Why the opt-in group `extra` is the CUDA variant, or "": it is named for CUDA (`cu13`, `cuda12`), or one of
    its requirements asks for a package's CUDA build (`nvidia-cutlass-dsl[cu13]`)."""
    if not extra:
        return ""
    if _CUDA_EXTRA.match(extra):
        return "named for CUDA"
    for other in reqs:
        if other.extra == extra and _CUDA_BUILD_EXTRA.match(other.raw):
            return f"the CUDA variant (`{other.raw}` asks for a CUDA build)"
    return ""


# A requirements file named for CUDA (`requirements_cuda12.txt`, `requirements-cu121.txt`, `requirements/cuda.txt`)
# and one named for ROCm (`requirements_rocm6.txt`, `requirements-hip.txt`, `requirements/rocm.txt`).
_CUDA_NAMED = re.compile(r"(?:^|[-_.])(?:cuda\d*\w*|cu\d+\w*|nvidia)(?=[-_.]|$)", re.I)
_ROCM_NAMED = re.compile(r"(?:^|[-_.])(?:rocm\d*\w*|hip|amd)(?=[-_.]|$)", re.I)


def _rocm_sibling(ctx) -> str:
    """A ROCm requirements file beside this CUDA-named one (its name), or "": the project already splits its
    requirements per platform, and a ROCm install reads the ROCm file."""
    name = posixpath.basename(ctx.path)
    if not ctx.root or not _CUDA_NAMED.search(posixpath.splitext(name)[0]):
        return ""
    directory = posixpath.dirname(ctx.path)
    for other in _listing(os.path.join(ctx.root, directory)):
        stem, suffix = posixpath.splitext(other)
        if other != name and suffix == posixpath.splitext(name)[1] and _ROCM_NAMED.search(stem):
            if discovery.language_of(other, directory) == "requirements":
                return posixpath.join(directory, other) if directory else other
    return ""


@functools.lru_cache(maxsize=256)
def _listing(directory: str) -> tuple[str, ...]:
    try:
        return tuple(sorted(os.listdir(directory)))
    except OSError:
        return ()


# NVML's Python bindings and the tools built on them are pure Python (ctypes over libnvidia-ml): pip installs them
# on any machine, and only code that calls NVML fails, where ROC243 reports its import (lmdeploy's test
# requirements list nvidia-ml-py and nothing imports pynvml).
_NVML_BINDINGS = re.compile(r"pynvml|nvidia-ml-py3?|gpustat|nvitop")
_PURE_PYTHON = (
    "It is pure Python and installs on a ROCm machine: only code that calls NVML fails, and ROC243 reports that "
    "code's import (low)."
)


def _advice(req: packages.Requirement) -> str:
    if _JAX_EXTRA.match(req.raw):
        return "JAX's ROCm plugin (`jax[rocm]` / `jax-rocm7-plugin`, or the rocm/jax image)"
    if req.source == "conda" and _CONDA.fullmatch(req.name):
        return "ROCm comes from the system or a `rocm/*` image, not from conda: drop it"
    for pattern, advice in _PACKAGES:
        if pattern.fullmatch(req.name):
            return advice
    return ""


RULE = text_rule(
    name="python-cuda-only-package",
    summary="CUDA-only Python package (cupy-cuda*, pycuda, tensorrt, nvidia-*, pynvml, flash-attn, ...)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    languages={"requirements", "pyproject", "conda", "python"},
    check=cuda_code_only(check),
)
