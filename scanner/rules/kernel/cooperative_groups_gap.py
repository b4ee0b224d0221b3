"""Cooperative-groups features that HIP does not provide.

What it finds:
    Uses of CUDA cooperative-groups APIs that HIP's `hip_cooperative_groups.h` lacks: thread-block
    clusters (`cg::this_cluster()`, `cg::cluster_group`), asynchronous copies (`cg::memcpy_async`,
    `cg::wait`, `cg::wait_prior`), group collectives (`cg::reduce`, `cg::inclusive_scan`,
    `cg::exclusive_scan`, `cg::reduce_update_async`, `cg::reduce_store_async`), `cg::labeled_partition`,
    `cg::invoke_one`, `cg::invoke_one_broadcast`, `cg::experimental::block_tile_memory`, and the headers
    `<cooperative_groups/reduce.h>`, `<cooperative_groups/scan.h>`, `<cooperative_groups/memcpy_async.h>`.
    Names count when qualified by `cooperative_groups::` or an alias of it (`namespace cg =
    cooperative_groups;`); the distinctive ones also when the file has `using namespace cooperative_groups;`.
    The collectives are judged by the target's ROCm release: HIP has `cg::reduce` from ROCm 7.13 (reported at
    info until 10.0, which fixed it for blocks with a y or z dimension) and `cg::inclusive_scan` /
    `cg::exclusive_scan` from ROCm 10.0, so for those targets the calls are not reported and the CUDA header
    names (`reduce.h`, `scan.h`, which HIP spells `hip_reduce.h`, `hip_scan.h`) are info.

Why it breaks on ROCm:
    HIP implements the core of cooperative groups (thread_block, grid_group with cooperative launch,
    multi_grid_group, tiled_partition, thread_block_tile, coalesced_group, binary_partition), but not these
    additions from CUDA 11 and 12, or only in recent releases (the collectives above): the names are
    undeclared under HIP-Clang and the sub-headers do not exist, so the file does not compile: a build break,
    high, also for a collective the target's ROCm release predates. CDNA GPUs have no thread-block clusters at
    all.

Example:
    #include <cooperative_groups/reduce.h>
    namespace cg = cooperative_groups;
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    float sum = cg::reduce(tile, v, cg::plus<float>());

Use instead:
    Write the collective with wavefront primitives (`__shfl_xor` / `__shfl_down` loops over `warpSize`
    lanes, or hipCUB's `WarpReduce` / `BlockScan`); replace `memcpy_async` + `wait` with plain loads into
    `__shared__` memory followed by `__syncthreads()`; replace `labeled_partition` with `__match_any` plus
    masks; replace `invoke_one(g, f)` with `if (g.thread_rank() == 0) f();` and a group sync.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/cooperative_groups.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/cooperative_groups_reference.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cooperative-groups
    https://github.com/ROCm/rocm-systems/blob/develop/projects/clr/CHANGELOG.md (HIP's changelog: "HIP 7.13
    for ROCm 7.13" adds `cooperative_groups::reduce()`; "HIP 10.0.0 for ROCm 10.0.0" adds `inclusive_scan` and
    `exclusive_scan` and fixes `reduce()` for block dimensions with y or z other than 1, a known issue of 7.14)

Known problems:
    HIP's cooperative groups keep growing: development branches also carry `memcpy_async` and a
    `cluster_group` for GPUs with workgroup clusters, not yet in a release's changelog, so they are reported
    whatever the target; check the release's `hip/amd_detail/amd_hip_cooperative_groups*.h`. Grid-wide
    `this_grid().sync()` is supported by HIP (with `hipLaunchCooperativeKernel`) and is not reported.
"""

from scanner.analysis.context import Context
from scanner.hip_releases import COOPERATIVE_GROUPS_SINCE
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.kernel._common import cg_aliases, cg_qualified
from scanner.rules.libraries._judgement import cuda_code_only, judged

_ASYNC = "HIP has no asynchronous group copies; load into __shared__ memory and __syncthreads()"
_COLLECTIVE = "HIP's cooperative groups lack this collective; use a __shfl_xor loop over warpSize lanes or hipCUB"
# name -> (distinctive enough to count without a qualifier, what to do instead)
_GAPS = {
    "this_cluster": (True, "CDNA GPUs have no thread-block clusters; use one thread block (workgroup)"),
    "cluster_group": (True, "CDNA GPUs have no thread-block clusters; use one thread block (workgroup)"),
    "memcpy_async": (False, _ASYNC),
    "wait": (False, _ASYNC),
    "wait_prior": (False, _ASYNC),
    "reduce": (False, _COLLECTIVE),
    "inclusive_scan": (False, _COLLECTIVE),
    "exclusive_scan": (False, _COLLECTIVE),
    "reduce_update_async": (True, _COLLECTIVE),
    "reduce_store_async": (True, _COLLECTIVE),
    "labeled_partition": (True, "HIP lacks it; group lanes with __match_any and masks"),
    "invoke_one": (True, "HIP lacks it; use `if (g.thread_rank() == 0)` and a group sync"),
    "invoke_one_broadcast": (True, "HIP lacks it; run on rank 0 and broadcast with g.shfl(value, 0)"),
    "block_tile_memory": (True, "HIP lacks it; tiles larger than a wavefront are not supported"),
}
_HEADERS = {
    "cooperative_groups/reduce.h": "cg::reduce",
    "cooperative_groups/scan.h": "cg::inclusive_scan/exclusive_scan",
    "cooperative_groups/memcpy_async.h": "cg::memcpy_async",
}
# The ROCm release whose HIP has it (scanner.hip_releases, from HIP's changelog).
_SINCE = COOPERATIVE_GROUPS_SINCE
_HIP_HEADER = {"cooperative_groups/reduce.h": "hip_reduce.h", "cooperative_groups/scan.h": "hip_scan.h"}
# cg::reduce in 7.13 and 7.14 gives wrong results (or fails to launch) for blocks whose y or z dimension is not 1.
_REDUCE_FIXED = (10, 0)


def check(ctx: Context) -> None:
    if ctx.hip_guarded:
        return
    target = ctx.target
    if ctx.event == "include":
        header = ctx.include.header
        what = _HEADERS.get(header)
        if what is None:
            return
        since = _SINCE.get(header)
        if since is not None and target.rocm_at_least(*since):
            with judged(ctx, Severity.INFO):
                ctx.report(
                    f"<{header}> is CUDA's name: HIP has {what} from ROCm {_version(since)} (the target is "
                    f"{target.rocm_text}) under its own header name, `{_HIP_HEADER[header]}`; include HIP's "
                    "(hipify maps it)."
                )
            return
        ctx.report(
            f"<{header}> does not exist in HIP ({what} is not provided by HIP's cooperative groups"
            f"{_until(since, target)}); include <hip/hip_cooperative_groups.h> and rewrite those calls."
        )
        return
    tok = ctx.token
    distinctive, advice = _GAPS[tok.text]
    view = ctx.view
    aliases, using = cg_aliases(view)
    i = view.index(tok)
    if i < 0:
        return
    code = view.code
    if not cg_qualified(code, i, aliases):
        # Unqualified: only after `using namespace cooperative_groups;`, only distinctive names, and not as a
        # member (`x.wait()`), another namespace's name (`cuda::memcpy_async`) or a declaration of our own.
        if not (using and distinctive) or (i > 0 and code[i - 1].text in ("::", ".", "->")):
            return
    if ctx.reported_on(tok.line):
        return  # `cg::cluster_group c = cg::this_cluster();` is one finding
    since = _SINCE.get(tok.text)
    if since is not None and target.rocm_at_least(*since):
        if tok.text == "reduce" and not target.rocm_at_least(*_REDUCE_FIXED):
            with judged(ctx, Severity.INFO, Risk.SILENT_WRONG_RESULT):
                ctx.report(
                    f"cooperative_groups::reduce is in HIP from ROCm {_version(since)}, but before "
                    f"{_version(_REDUCE_FIXED)} it gives wrong results (or fails to launch) when the block's y "
                    f"or z dimension is not 1 (the target is ROCm {target.rocm_text}); keep blocks 1-D here "
                    f"or target ROCm {_version(_REDUCE_FIXED)}."
                )
        return  # the target's HIP has it
    ctx.report(f"cooperative_groups::{tok.text} is not available in HIP{_until(since, target)}: {advice}.")


def _version(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def _until(since, target) -> str:
    """` before ROCm 7.13 (the target is 7.2)` for a gap a later release closes, else ""."""
    return f" before ROCm {_version(since)} (the target is {target.rocm_text})" if since is not None else ""


RULE = Rule(
    name="kernel-cooperative-groups-gap",
    formerly=("cooperative-groups-gap",),
    summary="Cooperative-groups API that HIP lacks (clusters, memcpy_async, reduce/scan, labeled_partition)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("identifier", "include"),
    names=frozenset(_GAPS),
    check=cuda_code_only(check),
)
