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

Why it breaks on ROCm:
    HIP implements the core of cooperative groups (thread_block, grid_group with cooperative launch,
    multi_grid_group, tiled_partition, thread_block_tile, coalesced_group, binary_partition), but not these
    additions from CUDA 11 and 12: the names are undeclared under HIP-Clang and the sub-headers do not
    exist, so the file does not compile. CDNA GPUs have no thread-block clusters at all.

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

Known problems:
    HIP's cooperative groups are growing: development branches of HIP add `cg::reduce` and a
    `cluster_group` for GPUs with workgroup clusters, so with a recent ROCm some findings may already be
    resolved; check the release's `hip/amd_detail/amd_hip_cooperative_groups.h`. Grid-wide `this_grid().sync()`
    is supported by HIP (with `hipLaunchCooperativeKernel`) and is not reported.
"""

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.kernel._common import cg_aliases, cg_qualified, token_index

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


def check(ctx) -> None:
    if ctx.hip_guarded:
        return
    if ctx.event == "include":
        what = _HEADERS.get(ctx.include.header)
        if what is not None:
            ctx.report(f"<{ctx.include.header}> does not exist in HIP ({what} is not provided by HIP's "
                       "cooperative groups); include <hip/hip_cooperative_groups.h> and rewrite those calls.")
        return
    tok = ctx.token
    distinctive, advice = _GAPS[tok.text]
    view = ctx.facts.view
    aliases, using = cg_aliases(view)
    i = token_index(view, tok)
    if i < 0:
        return
    code = view.code
    if not cg_qualified(code, i, aliases):
        # Unqualified: only after `using namespace cooperative_groups;`, only distinctive names, and not as a
        # member (`x.wait()`), another namespace's name (`cuda::memcpy_async`) or a declaration of our own.
        if not (using and distinctive) or (i > 0 and code[i - 1].text in ("::", ".", "->")):
            return
    if any(r.rule is ctx.rule and r.line == tok.line for r in ctx.facts.reports):
        return  # `cg::cluster_group c = cg::this_cluster();` is one finding
    ctx.report(f"cooperative_groups::{tok.text} is not available in HIP: {advice}.")


RULE = Rule(
    name="cooperative-groups-gap",
    summary="Cooperative-groups API that HIP lacks (clusters, memcpy_async, reduce/scan, labeled_partition)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    on=("identifier", "include"),
    names=frozenset(_GAPS),
    check=check,
)
