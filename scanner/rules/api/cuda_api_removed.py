"""CUDA API name removed from current CUDA.

What it finds:
    Uses of CUDA runtime, driver and math-library names that a CUDA release removed, yet HIP still maps:
    `cudaConfigureCall`/`cudaSetupArgument`/`cudaLaunch` (removed in 10.1), the cuSPARSE legacy API
    (`cusparseScsrmv`, `cusparseXcsrgemmNnz`, `cusparseCreateHybMat`, removed in 11.0/12.0), removed driver
    enumerators. One finding per name per line.

Why it breaks on ROCm:
    The code no longer builds with a current CUDA toolkit, so it is usually stale and untested. HIP may
    still provide `hipX` (hipSPARSE keeps many legacy routines, deprecated), but those entry points are on
    their way out in ROCm too and their behaviour is not validated against current CUDA semantics: the code
    needs updating, not just renaming.

Example:
    cusparseScsrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, &alpha, descr, val, rowPtr, colInd,
                   x, &beta, y);

Use instead:
    The API CUDA replaced it with (the generic cuSPARSE API `cusparseSpMV` -> `hipsparseSpMV`, kernel
    launches instead of `cudaConfigureCall`/`cudaLaunch`), then port that.

References:
    https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html
    https://docs.nvidia.com/cuda/cusparse/index.html#deprecated-apis
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUSPARSE_API_supported_by_HIP.html

Known problems:
    Removed names with no HIP equivalent are reported by ROC150 instead, texture/surface references by
    ROC153, cuDNN names by ROC131; a removed name is never also reported as deprecated (ROC151).
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import api_rule_check, names_owned_by
from scanner.rules.base import Rule

NAMES = names_owned_by("ROC152")


def check(ctx: Context) -> None:
    name = ctx.token.text
    if ctx.platform_guarded or ctx.reported_on(ctx.token.line, f"`{name}`"):
        return
    entry = ctx.names.get(name)
    if entry is None:
        return
    target = entry.hip or entry.roc
    hip = f"HIP may still have `{target}`" if target else "HIP has no direct equivalent"
    ctx.report(
        f"`{name}` was removed in CUDA {entry.cuda_removed}; {hip}, but the code needs updating "
        "to the API that replaced it."
    )


RULE = Rule(
    name="api-cuda-api-removed",
    formerly=("cuda-api-removed",),
    summary="CUDA API name removed from current CUDA releases",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    on=("identifier",),
    names=NAMES,
    check=api_rule_check(check),
)
