"""Shared machinery of the rules on text files (the ROC2xx families: build files, containers, shell and CI,
Python and packaging, serving configuration, host setup).

A text rule is a "file" rule over one or more text languages (scanner.formats.TEXT_LANGUAGES). It reads the
file through the format helpers (scanner.formats.*) and reports at a line with `once`, which keeps one finding
per rule, line and key however many patterns or passes reach the same spot.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from scanner.formats import lines as text_lines
from scanner.formats import python_src
from scanner.model import Risk, Severity
from scanner.rules.base import Rule, TargetSeverity

# Where commands are written: scripts, Makefile recipes, Dockerfile RUN lines, CI and deployment YAML.
SCRIPT_LANGUAGES = frozenset({"shell", "make", "dockerfile", "yaml"})


def text_rule(
    *,
    name: str,
    summary: str,
    risk: Risk,
    severity: Severity,
    languages,
    check: Callable,
    target_severity: TargetSeverity | None = None,
    formerly: tuple[str, ...] = (),
) -> Rule:
    return Rule(
        name=name,
        summary=summary,
        risk=risk,
        severity=severity,
        on=("file",),
        check=check,
        languages=frozenset(languages),
        target_severity=target_severity,
        formerly=formerly,
    )


def once(ctx, line: int, col: int, message: str, length: int = 0, key: str = "") -> bool:
    """Report unless this rule already reported `key` on this line; True when reported."""
    seen = ctx.seen()
    if (line, key) in seen:
        return False
    seen.add((line, key))
    ctx.report_at(line, col, message, length)
    return True


def matches(
    ctx, pattern: re.Pattern, group: int | str = 0, python_lines: bool = False
) -> Iterator[tuple[int, int, re.Match]]:
    """(line, column, match) of `pattern` where commands and settings are written: the code lines of scripts,
    build and YAML files, the string constants of Python files (their code lines with `python_lines`, for
    patterns spanning several constants, such as `os.environ["X"] = "v"`). In scripts, Make recipes, Dockerfiles
    and CI steps, not what an `echo` or `printf` prints to the terminal (scanner.formats.lines.echoed)."""
    if ctx.language == "python" and not python_lines:
        for ref in python_src.strings(ctx.source):
            for match in pattern.finditer(ref.text):
                if ref.end_line > ref.line:  # a literal spanning lines: find the line inside it
                    before = ref.text[: match.start(group)]
                    newlines = before.count("\n")
                    if newlines:
                        yield min(ref.line + newlines, ref.end_line), len(before) - before.rfind("\n"), match
                        continue
                yield ref.line, ref.col, match
        return
    printing = ctx.language in _SCRIPTS
    for line, col, match in text_lines.find(ctx.source, pattern, group):
        if printing and text_lines.echoed(match.string, match.start(group)):
            continue  # what `echo`/`printf` prints: a usage line or a hint, not a command or a setting
        yield line, col, match


# Where `echo "..."` prints text: scripts, Make recipes, Dockerfile RUN lines, CI steps.
_SCRIPTS = frozenset({"shell", "make", "dockerfile", "yaml"})


def logical(ctx):
    """Comment-free logical lines (continuations joined) of a script-like file."""
    return text_lines.logical_lines(ctx.source)


def mentions(ctx, needle: str) -> bool:
    """A cheap pre-filter on the raw text (case-insensitive)."""
    return text_lines.has(ctx.source, needle)


def offload_arch(ctx) -> str:
    """`--offload-arch=...` for the scan's target profile."""
    return " ".join(f"--offload-arch={t}" for t in ctx.target.targets)


def arch_list(ctx) -> str:
    return ";".join(ctx.target.targets)


# CUDA libraries and their ROCm counterparts: library -> (link flag, CMake target, what it is).
CUDA_LIBRARIES: dict[str, tuple[str, str, str]] = {
    "cudart": ("-lamdhip64", "hip::host (hip::device for HIP sources)", "the HIP runtime"),
    "cudart_static": ("-lamdhip64", "hip::host (hip::device for HIP sources)", "the HIP runtime"),
    "cuda": ("-lamdhip64", "hip::host", "the HIP runtime (its module/driver API)"),
    "cuda_driver": ("-lamdhip64", "hip::host", "the HIP runtime (its module/driver API)"),
    "cublas": ("-lhipblas", "roc::hipblas", "hipBLAS (or rocBLAS)"),
    "cublaslt": ("-lhipblaslt", "roc::hipblaslt", "hipBLASLt"),
    "cufft": ("-lhipfft", "hip::hipfft", "hipFFT"),
    "curand": ("-lhiprand", "hip::hiprand", "hipRAND"),
    "cusparse": ("-lhipsparse", "roc::hipsparse", "hipSPARSE"),
    "cusparselt": ("-lhipsparselt", "roc::hipsparselt", "hipSPARSELt"),
    "cusolver": ("-lhipsolver", "roc::hipsolver", "hipSOLVER"),
    "cudnn": ("-lMIOpen", "MIOpen", "MIOpen (its API differs: a port, not a rename)"),
    "nccl": ("-lrccl", "rccl::rccl", "RCCL"),
    "nvtoolsext": ("-lroctx64", "roctx (rocprofiler-sdk / roctracer)", "roctx"),
    "nvtx3": ("-lroctx64", "roctx (rocprofiler-sdk / roctracer)", "roctx"),
    "nvrtc": ("-lhiprtc", "hiprtc", "hipRTC"),
    "nvidia-ml": ("-lamd_smi", "amd_smi", "the AMD SMI library"),
    "nvml": ("-lamd_smi", "amd_smi", "the AMD SMI library"),
    "cupti": ("-lrocprofiler-sdk", "rocprofiler-sdk", "rocprofiler-sdk"),
    "nvjpeg": ("-lrocjpeg", "rocjpeg", "rocJPEG"),
    "thrust": ("", "roc::rocthrust", "rocThrust"),
    "cub": ("", "hip::hipcub", "hipCUB"),
}
# TensorRT's libraries: no ROCm build, and no drop-in. MIGraphX (its C/C++ API: `migraphx::c`) is where the
# inference path goes, after a port rather than a relink.
TENSORRT_LIBRARIES = frozenset(
    {"nvinfer", "nvinfer_plugin", "nvonnxparser", "nvparsers", "nvinfer_lean", "nvinfer_dispatch", "nvinfer_vc_plugin"}
)
for _name in TENSORRT_LIBRARIES:
    CUDA_LIBRARIES[_name] = (
        "-lmigraphx_c",
        "migraphx::c",
        "MIGraphX, once the TensorRT inference path is ported to it: TensorRT has no ROCm build",
    )


def library_replacement(name: str, style: str) -> str:
    """ "-lhipblas (hipBLAS (or rocBLAS))"-style text for a CUDA library, per `style` ("flag" or "cmake")."""
    entry = CUDA_LIBRARIES.get(name.lower())
    if entry is None:
        return "its HIP/ROCm counterpart"
    flag, target, what = entry
    return f"`{flag}` ({what})" if style == "flag" and flag else f"`{target}` ({what})"
