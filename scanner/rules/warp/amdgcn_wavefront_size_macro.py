"""`__AMDGCN_WAVEFRONT_SIZE` used as a compile-time constant.

What it finds:
    Any use of `__AMDGCN_WAVEFRONT_SIZE` or `__AMDGCN_WAVEFRONT_SIZE__` in code or preprocessor conditions.

Why it breaks on ROCm:
    ROCm 6.4 deprecated both macros as compile-time constants and later releases remove them: code that
    sizes arrays or selects branches with them stops compiling, or silently takes the wrong `#if` branch
    once the macro is gone (an undefined macro is 0 in `#if`).

Example:
    __shared__ float partial[1024 / __AMDGCN_WAVEFRONT_SIZE];

Use instead:
    Query the wavefront size at run time (`warpSize` in device code, `hipDeviceProp_t::warpSize` on the
    host) and size buffers for the largest case (64 lanes).

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/deprecated_api_list.html
    https://github.com/ROCm/HIP/blob/develop/docs/how-to/hip_porting_guide.md
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule

_MACROS = frozenset({"__AMDGCN_WAVEFRONT_SIZE", "__AMDGCN_WAVEFRONT_SIZE__"})


def check(ctx: Context) -> None:
    if ctx.event == "identifier":
        ctx.report(
            f"`{ctx.token.text}` is deprecated as a compile-time constant since ROCm 6.4; query warpSize at run time."
        )
        return
    # Preprocessor lines are not code tokens: look at #if/#elif/#define bodies too.
    for tok in ctx.directive.tokens:
        if tok.text in _MACROS:
            ctx.report(
                f"`{tok.text}` is deprecated as a compile-time constant since ROCm 6.4; "
                "an #if on it silently changes meaning once it is removed.",
                at=tok,
            )


def _severity(profile, base):
    if profile.rocm_at_least(7, 0):
        return Severity.HIGH, f"ROCm {profile.rocm_text} is past the deprecation (6.4)."
    return base, ""


RULE = Rule(
    name="warp-amdgcn-wavefront-size-macro",
    formerly=("amdgcn-wavefront-size-macro",),
    summary="__AMDGCN_WAVEFRONT_SIZE used as a compile-time constant (deprecated since ROCm 6.4)",
    risk=Risk.DEPRECATION,
    severity=Severity.MEDIUM,
    on=("identifier", "directive"),
    names=_MACROS,
    check=check,
    target_severity=_severity,
)
