"""cuTENSOR used.

What it finds:
    Includes of `cutensor.h` (and `cutensor/types.h`, `cutensorMg.h`) and lines calling or naming the
    cuTENSOR API (`cutensorCreate`, `cutensorHandle_t`, `cutensorContract`, `cutensorCreatePlan`, ...).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    cuTENSOR is not available on ROCm. hipTensor mirrors its design (handles, tensor descriptors,
    operation descriptors, plans, workspace) for a subset of operations: contractions, permutations and
    reductions, with fewer data-type and compute-type combinations; elementwise binary/trinary operations,
    the multi-GPU `cutensorMg` API and some cuTENSOR 2.x features have no counterpart.

Example:
    cutensorContract(handle, plan, &alpha, A, B, &beta, C, D, work, workSize, stream);

Use instead:
    hipTensor (`#include <hiptensor/hiptensor.hpp>`, `hiptensorCreate`, `hiptensorContraction`, ...):
    check each operation and data type against hipTensor's supported list; otherwise express the
    contraction as batched GEMMs with hipBLAS/hipBLASLt.

References:
    https://rocm.docs.amd.com/projects/hipTensor/en/latest/
    https://docs.nvidia.com/cuda/cutensor/latest/index.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

RULE = library_rule(
    name="libraries-cutensor-usage",
    formerly=("cutensor-usage",),
    summary="cuTENSOR use (port to hipTensor, which covers a subset)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    headers=[
        Header(
            r"cutensor(Mg)?\.h|cutensor/.+",
            "<{header}> (cuTENSOR) is not on ROCm: port to hipTensor (<hiptensor/hiptensor.hpp>), which "
            "supports contractions, permutations and reductions.",
        ),
    ],
    uses=[
        Use(
            "cutensor",
            "cuTENSOR `{name}` → hipTensor (hiptensor*): check the operation and data types are supported.",
            r"cutensor[A-Z]\w*",
        ),
    ],
    fold=True,
    cuda_only=True,
)
