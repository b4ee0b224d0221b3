"""__AMDGCN_WAVEFRONT_SIZE set or tested in build settings (CMake defines, compiler flags, scripts).

What it finds:
    `__AMDGCN_WAVEFRONT_SIZE` / `__AMDGCN_WAVEFRONT_SIZE__` outside C++ sources: `-D__AMDGCN_WAVEFRONT_SIZE=64`
    in CMake (`add_compile_definitions`, `CMAKE_HIP_FLAGS`), Makefiles, build scripts, Dockerfiles, CI YAML and
    Python build scripts (`extra_compile_args`). Uses in C++ are ROC109's.

Why it breaks on ROCm:
    The macros are predefined by the compiler per target and deprecated as compile-time constants since
    ROCm 6.4 (to be removed). Defining one on the command line overrides the compiler's value for every target
    of the build: a wave64 value is wrong on RDNA (wave32) and compiles silently wrong lane arithmetic there, and
    the define will outlive the macro's removal.

Example:
    add_compile_definitions(__AMDGCN_WAVEFRONT_SIZE=64)
    HIPFLAGS += -D__AMDGCN_WAVEFRONT_SIZE__=64

Use instead:
    Remove the define; in device code read `warpSize` at run time (a non-constant since ROCm 7.0), or size
    arrays for the largest wavefront (64) and compute the lane count at run time. A project-owned macro
    (`MY_WARP_SIZE`) set per target by the build is the compile-time alternative.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html#warpsize
    https://rocm.docs.amd.com/en/latest/about/release-notes.html
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

_MACRO = re.compile(r"__AMDGCN_WAVEFRONT_SIZE(?:__)?(?!\w)")


def check(ctx: Context) -> None:
    if not mentions(ctx, "__amdgcn_wavefront_size"):
        return
    for line, col, match in command_matches(ctx, _MACRO):
        once(
            ctx,
            line,
            col,
            f"`{match.group(0)}` is deprecated since ROCm 6.4 and will be removed; set in the build "
            "it also overrides the compiler's per-target value (wrong on wave32 GPUs). Remove it and use "
            "`warpSize` at run time.",
            length=len(match.group(0)),
        )


RULE = text_rule(
    name="host-amdgcn-wavefront-size-define",
    summary="__AMDGCN_WAVEFRONT_SIZE set or tested in build settings (deprecated since ROCm 6.4)",
    risk=Risk.DEPRECATION,
    severity=Severity.MEDIUM,
    languages=SCRIPT_LANGUAGES | {"cmake", "python", "pyproject"},
    check=cuda_code_only(check),
)

# It checks the ROCm side itself: a repository that already builds for ROCm still needs it right
# (scanner.analysis.port_notes).
RULE.rocm_side = True
