"""cuBLAS, cuFFT, cuRAND, cuSPARSE or cuSOLVER used.

What it finds:
    Includes of the CUDA math library headers (`cublas_v2.h`, `cufft.h`, `curand.h`, `curand_kernel.h`,
    `cusparse.h`, `cusolverDn.h`, ...) and lines that call or name their API (`cublasSgemm`,
    `cufftExecC2C`, `curand_init`, `curandState`, `cusparseSpMV`, `cusolverDnSgetrf`). cuBLASLt has its
    own rule (ROC138).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    These libraries do not exist on ROCm: the headers are missing and the build fails. Each has a HIP
    marshalling library with a near one-to-one API (hipBLAS, hipFFT, hipRAND, hipSPARSE, hipSOLVER) on top
    of the rocBLAS/rocFFT/rocRAND/rocSPARSE/rocSOLVER backends, so the port is mostly mechanical; the
    finding names the HIP function when HIPIFY's table has one, and says so when it has none.

Example:
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m);

Use instead:
    hipify the file: `#include <hipblas/hipblas.h>` and `hipblasSgemm(handle, HIPBLAS_OP_N, ...)`, likewise
    hipFFT, hipRAND (`hiprand_kernel.h`, `hiprand_init`), hipSPARSE and hipSOLVER; link the hip* libraries.
    Call rocBLAS/rocFFT/... directly only where the hip* layer lacks a function.

References:
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/tables/CUBLAS_API_supported_by_HIP.html
    https://rocm.docs.amd.com/projects/hipBLAS/en/latest/
    https://rocm.docs.amd.com/projects/hipRAND/en/latest/
    https://rocm.docs.amd.com/en/latest/reference/api-libraries.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule, named

# prefix -> (library, HIP library, its header)
_LIBS = {
    "cublas": ("cuBLAS", "hipBLAS", "<hipblas/hipblas.h>"),
    "cufft": ("cuFFT", "hipFFT", "<hipfft/hipfft.h>"),
    "curand": ("cuRAND", "hipRAND", "<hiprand/hiprand.h>"),
    "cusparse": ("cuSPARSE", "hipSPARSE", "<hipsparse/hipsparse.h>"),
    "cusolver": ("cuSOLVER", "hipSOLVER", "<hipsolver/hipsolver.h>"),
}


def _library(name: str) -> tuple[str, str, str]:
    for prefix, lib in _LIBS.items():
        if name.lower().startswith(prefix):
            return lib
    return ("a CUDA math library", "its hip* counterpart", "")


def _use(ctx, tok) -> str:
    lib, hip_lib, _ = _library(tok.text)
    roc_lib = hip_lib.replace("hip", "roc")
    return named(ctx, tok.text, lib, hip_lib, f"rework it with {roc_lib} or another API", roc_lib)


def _header(ctx, header) -> str:
    base = header.rsplit("/", 1)[-1]
    lib, hip_lib, hip_header = _library(base)
    if base.startswith("curand_"):
        hip_header = "<hiprand/hiprand_kernel.h>"
    elif base == "curand.h":
        hip_header = "<hiprand/hiprand.h>"
    return f"<{header}> ({lib}) is not on ROCm: include {hip_header} and link {hip_lib}."


RULE = library_rule(
    name="libraries-cuda-math-library-usage",
    formerly=("cuda-math-library-usage",),
    summary="cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER use (port to hipBLAS/hipFFT/hipRAND/hipSPARSE/hipSOLVER)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.LOW,
    headers=[
        Header(r"cublas(_v2|_api|Xt)?\.h", _header),
        Header(r"cufft(Xt|w)?\.h", _header),
        Header(r"curand(_\w+)?\.h", _header),
        Header(r"cusparse(_v2)?\.h", _header),
        Header(r"cusolver(Dn|Sp|Rf|Mg|_common|Sp_LOWLEVEL_PREVIEW)?\.h", _header),
    ],
    uses=[
        Use("cublas", _use, r"cublas(?!Lt)[A-Z]\w*", known_only=True),
        Use("cufft", _use, r"cufft[A-Z]\w*", known_only=True),
        Use("curand", _use, r"curand", call=True, known_only=True),
        Use("curand", _use, r"curand[A-Z_]\w*", known_only=True),
        Use("cusparse", _use, r"cusparse[A-Z]\w*", known_only=True),
        Use("cusolver", _use, r"cusolver[A-Z]\w*", known_only=True),
    ],
    fold=True,
    cuda_only=True,
)
