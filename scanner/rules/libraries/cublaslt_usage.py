"""cuBLASLt used.

What it finds:
    Includes of `cublasLt.h` and lines calling or naming the cuBLASLt API (`cublasLtMatmul`,
    `cublasLtMatmulDescCreate`, `cublasLtMatmulAlgoGetHeuristic`, `cublasLtHandle_t`, ...).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    cuBLASLt is not available on ROCm. hipBLASLt has the same structure (handle, matmul descriptor, matrix
    layouts, preference, heuristic query, `hipblasLtMatmul`) and hipify renames most names, but it is not a
    drop-in: only some epilogues (bias, ReLU/GELU, aux outputs) and data-type/compute-type/layout
    combinations are supported, FP8 scaling attributes differ, heuristics can return no algorithm for a
    shape cuBLASLt handles, and workspace requirements differ.

Example:
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));

Use instead:
    hipBLASLt (`#include <hipblaslt/hipblaslt.h>`): `hipblasLtMatmulDescCreate`,
    `hipblasLtMatmulAlgoGetHeuristic`, `hipblasLtMatmul`; check every epilogue and type against hipBLASLt's
    support tables and handle an empty heuristic result (fall back to hipBLAS).

References:
    https://rocm.docs.amd.com/projects/hipBLASLt/en/latest/
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/tables/CUBLASLT_API_supported_by_HIP.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule, named


def _use(ctx, tok) -> str:
    return named(ctx, tok.text, "cuBLASLt", "hipBLASLt", "rework this step with hipBLASLt or hipBLAS")


RULE = library_rule(
    name="libraries-cublaslt-usage",
    formerly=("cublaslt-usage",),
    summary="cuBLASLt use (port to hipBLASLt: epilogues and heuristics differ)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    headers=[
        Header(
            r"cublasLt\.h",
            "<{header}> (cuBLASLt) is not on ROCm: include <hipblaslt/hipblaslt.h>; check "
            "epilogues, data types and heuristics against hipBLASLt.",
        ),
    ],
    uses=[Use("cublasLt", _use, r"cublasLt[A-Z]\w*", known_only=True)],
    fold=True,
    cuda_only=True,
)
