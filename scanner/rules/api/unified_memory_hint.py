"""Unified-memory hints and prefetches (cudaMemAdvise, cudaMemPrefetchAsync).

What it finds:
    Calls of `cudaMemAdvise` (with `cudaMemAdviseSetReadMostly`, `SetPreferredLocation`, `SetAccessedBy`...),
    `cudaMemPrefetchAsync`, `cudaMemRangeGetAttribute(s)` and their driver forms (`cuMemAdvise`,
    `cuMemPrefetchAsync`): code that tunes `cudaMallocManaged` memory. One finding per call.
    A hint that runs only where the device says it can migrate pages is info: inside
    `if (prop.concurrentManagedAccess)`, under `if (v)` after
    `cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, dev)`, or past an `if (!v) return;`
    (or a block that ends in `exit(...)`); also a program whose device selection keeps only devices that pass
    such a test and that leaves, before the call, in a branch that waives the run or names the capability
    (`exit(EXIT_WAIVED)` when no such device is found).
    HIP has `hipMemPrefetchAsync` and `hipDeviceAttributeConcurrentManagedAccess`, which ROCm reports as 0
    without XNACK, so the same check keeps the hint off where it would do nothing; hipify translates it
    directly.
    A hint on memory the function maps from a file (`mmap(...)`, `OpenMmap(...)`, no managed allocation in it)
    is info too: CUDA takes hints on such pageable memory only on a device with pageable memory access, so the
    code already runs only there; on AMD that is XNACK (HMM) on, where the hint works.

Why it breaks on ROCm:
    On discrete Instinct GPUs (MI200 gfx90a, MI300X gfx942) managed memory migrates on page faults only
    when XNACK is enabled (`HSA_XNACK=1`, a kernel with HMM/page-migration support, and code built for
    the `xnack+` or generic target). Without it, `hipMallocManaged` memory stays where it was first placed
    and GPU kernels reach host-resident pages over the interconnect: advice and prefetches become no-ops
    or are only partly honoured, and the performance the hints were tuned for is lost; on GPUs without
    managed-memory support the calls fail. On MI300A (an APU) host and GPU share the same HBM, so the
    hints have no effect at all.

Example:
    cudaMallocManaged(&x, bytes);
    cudaMemAdvise(x, bytes, cudaMemAdviseSetReadMostly, device);
    cudaMemPrefetchAsync(x, bytes, device, stream);

Use instead:
    Explicit `hipMalloc` + `hipMemcpyAsync` for data whose placement matters; or keep managed memory, run
    with `HSA_XNACK=1` on a system with page migration, check `hipDeviceAttributeManagedMemory` /
    `hipDeviceAttributePageableMemoryAccess`, and measure with and without the hints.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/memory_management/unified_memory.html
    https://rocm.docs.amd.com/en/latest/conceptual/gpu-memory.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/memory_management/managed_memory.html

Known problems:
    `cudaMallocManaged` alone is not reported: it works on ROCm, the hints are what assume CUDA's
    migration behaviour. The `_v2` forms with a location struct are reported here even when HIPIFY lists
    them as unsupported (ROC150 then reports them too).
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._capability import capability_gate, program_gate
from scanner.rules.api._common import UNIFIED_HINT_CALLS, api_rule_check, call_tokens
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import judged


def check(ctx: Context) -> None:
    tok = ctx.token
    tokens = call_tokens(ctx, tok)
    if not tokens or ctx.platform_guarded:
        return
    advice = next((t.text for t in tokens if t.text.startswith(("cudaMemAdvise", "CU_MEM_ADVISE"))), "")
    what = f"`{tok.text}` ({advice})" if advice else f"`{tok.text}`"
    if "RangeGetAttribute" in tok.text:
        ctx.report(
            f"{what} reads unified-memory hints, which on MI200/MI300X take effect only with XNACK "
            "(HSA_XNACK=1); code that branches on them may take another path on ROCm."
        )
        return
    gate = capability_gate(ctx, tok) or program_gate(ctx, tok)
    if gate:
        with judged(ctx, Severity.INFO):
            ctx.report(
                f"{what} runs only where `{gate}` says the device migrates pages: HIP has the same check "
                "(hipDeviceAttributeConcurrentManagedAccess, 0 on ROCm without XNACK) and the same call, so "
                "hipify translates it directly and the hint stays off where it would do nothing."
            )
        return
    mapped = _mapped_file(ctx)
    if mapped:
        with judged(ctx, Severity.INFO):
            ctx.report(
                f"{what} advises memory this function maps from a file (`{mapped}`), pageable host memory, not "
                "managed memory: CUDA takes such a hint only on a device with pageable memory access, so the code "
                "runs only where that holds; on AMD it holds with XNACK (HMM) on, where the hint takes effect."
            )
        return
    ctx.report(
        f"{what} assumes CUDA's page migration: on MI200/MI300X managed memory migrates only with "
        "XNACK (HSA_XNACK=1), otherwise the hint is a no-op; prefer explicit hipMalloc/hipMemcpyAsync "
        "or measure with XNACK on."
    )


# A call that maps a file into memory: `mmap(...)`, `OpenMmap(...)`, `mmap_file(...)`.
_MMAP = re.compile(r"^(?:\w*_)?mmap\w*$|^\w*Mmap\w*$", re.IGNORECASE)
_MANAGED = ("cudaMallocManaged", "cuMemAllocManaged", "hipMallocManaged")


def _mapped_file(ctx) -> str:
    """The call that maps a file in the function around the hint (a constructor's initializers included), when the
    function allocates no managed memory: the hinted range is then the mapping, "" otherwise."""
    function = ctx.function
    if function is None:
        return ""
    code = [t for t in ctx.view.code if function.start_line <= t.line <= function.end_line]
    if any(t.text in _MANAGED for t in code):
        return ""
    for k, t in enumerate(code[:-1]):
        if t.kind == "identifier" and code[k + 1].text == "(" and _MMAP.match(t.text) and "unmap" not in t.text.lower():
            return t.text
    return ""


def _severity(profile, base):
    apu = [t for t in profile.targets if t == "gfx942"]
    if apu and len(apu) == len(profile.targets):
        return base, (
            "On MI300A (gfx942 APU) host and GPU share memory and these hints are no-ops; on MI300X "
            "(also gfx942) they need XNACK."
        )
    return base, ""


RULE = Rule(
    name="api-unified-memory-hint",
    formerly=("unified-memory-hint",),
    summary="cudaMemAdvise / cudaMemPrefetchAsync hints (need XNACK on Instinct GPUs)",
    risk=Risk.PERFORMANCE,
    severity=Severity.MEDIUM,
    on=("identifier",),
    names=UNIFIED_HINT_CALLS,
    check=api_rule_check(check),
    target_severity=_severity,
)
