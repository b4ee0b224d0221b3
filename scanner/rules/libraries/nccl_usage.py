"""NCCL used.

What it finds:
    Includes of `nccl.h` and NCCL calls and types (`ncclAllReduce`, `ncclComm_t`, ...).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line). A file that includes RCCL's
    header (`rccl/rccl.h`, as ROCport's translation writes it) is RCCL code already: its nccl* names are RCCL's.

Why it breaks on ROCm:
    NCCL is not available on ROCm; the header and `libnccl` are missing and the build or link fails. RCCL
    implements the same API under the same names (`ncclCommInitRank`, `ncclAllReduce`, ...), so the code
    itself rarely changes; the build must include `<rccl/rccl.h>` and link `librccl`.

Example:
    #include <nccl.h>
    ncclAllReduce(send, recv, n, ncclFloat, ncclSum, comm, stream);

Use instead:
    RCCL: `#include <rccl/rccl.h>`, link `-lrccl` (CMake `find_package(rccl)`); streams become
    `hipStream_t`. `NCCL_*` environment variables (`NCCL_DEBUG`, `NCCL_SOCKET_IFNAME`, ...) still apply;
    topology and tuning defaults differ, so re-measure collective performance.

References:
    https://rocm.docs.amd.com/projects/rccl/en/latest/
    https://github.com/ROCm/rccl
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, hip_aware, library_rule


def _rccl_code(ctx) -> bool:
    """Ported code: in a HIP-aware branch, or in a file that includes RCCL's header (the nccl* names are RCCL's)."""
    return hip_aware(ctx) or any(i.header in ("rccl/rccl.h", "rccl.h") for i in ctx.view.includes)


RULE = library_rule(
    name="libraries-nccl-usage",
    formerly=("nccl-usage",),
    summary="NCCL use (port to RCCL: same API, different header and library)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.LOW,
    headers=[
        Header(
            r"nccl(_net)?\.h",
            "<{header}> (NCCL) → RCCL: include <rccl/rccl.h> and link librccl; the nccl* API names stay the same.",
        ),
    ],
    uses=[
        Use(
            "nccl",
            "NCCL (`{name}`) → RCCL, which keeps the nccl* names: include <rccl/rccl.h> and link librccl.",
            r"nccl[A-Z]\w*",
            per="file",
        ),
    ],
    fold=True,
    quiet_when=_rccl_code,
    cuda_only=True,
)
