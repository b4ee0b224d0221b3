"""CUTLASS or CuTe used.

What it finds:
    Includes of `cutlass/...` and `cute/...` headers, and code using the `cutlass::` or `cute::`
    namespaces.
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    CUTLASS and CuTe are NVIDIA's header-only template libraries for tensor-core GEMMs and convolutions.
    They are written against NVIDIA's architectures (warp-level `mma.sync`, `ldmatrix`, TMA, WGMMA, SM80/SM90
    kernel schedules) and inline PTX, and have no ROCm port: nothing that instantiates them compiles for AMD
    GPUs, and a hipify pass cannot translate them.

Example:
    using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, cutlass::layout::RowMajor, ...>;

Use instead:
    hipBLASLt (GEMMs with fused epilogues: bias, activation, scaling), rocBLAS/hipBLAS for plain GEMMs, or
    Composable Kernel (CK) for custom fused kernels, which plays CUTLASS's role on AMD Instinct GPUs
    (`ck::tensor_operation::device::DeviceGemm...`). Triton kernels are another portable route.

References:
    https://rocm.docs.amd.com/projects/composable_kernel/en/latest/
    https://rocm.docs.amd.com/projects/hipBLASLt/en/latest/
    https://github.com/NVIDIA/cutlass
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

_FIX = "has no ROCm port: reimplement with hipBLASLt/rocBLAS or Composable Kernel (CK)."

RULE = library_rule(
    name="libraries-cutlass-usage",
    formerly=("cutlass-usage",),
    summary="CUTLASS/CuTe use (no ROCm port: Composable Kernel or hipBLASLt)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.CRITICAL,
    headers=[
        Header(
            r"(cutlass|cute)/.+",
            "<{header}> (CUTLASS/CuTe) has no ROCm port: use hipBLASLt/rocBLAS or Composable Kernel (CK).",
        ),
    ],
    uses=[
        Use("cutlass", f"CUTLASS (`cutlass::{{next}}`) {_FIX}", scope=True),
        Use("cute", f"CuTe (`cute::{{next}}`) {_FIX}", scope=True),
    ],
    fold=True,
    cuda_only=True,
)
