"""NVTX annotations used.

What it finds:
    Includes of `nvToolsExt.h` / `nvToolsExtCuda*.h` / `nvtx3/...` and lines calling or naming NVTX
    (`nvtxRangePushA`, `nvtxRangePop`, `nvtxMarkA`, `nvtxRangeStartEx`, `nvtxEventAttributes_t`,
    `nvtx3::scoped_range`, `NVTX3_FUNC_RANGE`).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    NVTX headers and `libnvToolsExt` are not part of ROCm, so the build fails. ROCm's equivalent is the
    roctx marker API (roctracer's `roctx.h`, or rocprofiler-sdk's `rocprofiler-sdk-roctx`), which covers
    push/pop ranges, start/stop ranges and marks, but not NVTX event attributes (colours, payloads,
    categories), domains, registered strings or the nvtx3 C++ wrappers.

Example:
    nvtxRangePushA("forward");  ...  nvtxRangePop();

Use instead:
    `#include <roctracer/roctx.h>` (or `<rocprofiler-sdk-roctx/roctx.h>`): `roctxRangePushA`,
    `roctxRangePop`, `roctxMarkA`, `roctxRangeStartA`/`roctxRangeStop`; drop attributes and domains, or
    wrap them in a small macro that compiles out on HIP. Traces are collected with rocprofv3 --marker-trace.

References:
    https://rocm.docs.amd.com/projects/roctracer/en/latest/
    https://rocm.docs.amd.com/projects/rocprofiler-sdk/en/latest/
    https://nvidia.github.io/NVTX/doxygen/index.html
"""

import re

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

_ROCTX = {
    "nvtxRangePushA": "roctxRangePushA",
    "nvtxRangePush": "roctxRangePushA",
    "nvtxRangePop": "roctxRangePop",
    "nvtxMarkA": "roctxMarkA",
    "nvtxMark": "roctxMarkA",
    "nvtxRangeStartA": "roctxRangeStartA",
    "nvtxRangeStart": "roctxRangeStartA",
    "nvtxRangeEnd": "roctxRangeStop",
}
_NO_EQUIVALENT = re.compile(r"nvtx(\w*Ex|Domain\w*|EventAttributes\w*|Name\w*|\w*Category\w*|\w*Payload\w*)$")


def _use(ctx, tok) -> str:
    name = tok.text
    if name in _ROCTX:
        return f"NVTX `{name}` → roctx `{_ROCTX[name]}` (<roctracer/roctx.h>)."
    if name == "nvtx3" or name.startswith("NVTX3_"):
        return (
            f"NVTX3 C++ API (`{name}`) has no roctx counterpart: wrap roctxRangePushA/roctxRangePop in an RAII helper."
        )
    if _NO_EQUIVALENT.match(name):
        return f"NVTX `{name}` (attributes, domains, naming) has no roctx equivalent: drop it or compile it out on HIP."
    return f"NVTX `{name}`: port to the roctx marker API (roctxRangePushA/roctxRangePop/roctxMarkA)."


RULE = library_rule(
    name="libraries-nvtx-usage",
    formerly=("nvtx-usage",),
    summary="NVTX annotations (port to roctx)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.LOW,
    headers=[
        Header(r"(nvtx3/.*|nvToolsExt\w*\.h)", "<{header}> (NVTX) is not on ROCm: use roctx (<roctracer/roctx.h>)."),
    ],
    uses=[
        Use("nvtx", _use, r"nvtx[A-Z]\w*"),
        Use("nvtx3", _use, scope=True),
        Use("NVTX3_", _use, r"NVTX3_\w+"),
    ],
    fold=True,
    cuda_only=True,
)
