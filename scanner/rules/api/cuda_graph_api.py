"""CUDA graphs and stream capture.

What it finds:
    Calls of the CUDA graph API and stream capture (`cudaStreamBeginCapture`, `cudaStreamEndCapture`,
    `cudaGraphInstantiate`, `cudaGraphLaunch`, `cudaGraphAddKernelNode`, `cudaGraphExecUpdate`,
    `cuGraphLaunch`...) that HIP maps to `hipGraph*`/`hipStream*Capture*`. One finding per line.

Why it breaks on ROCm:
    HIP graphs (documented as beta) cover the common path (capture, instantiate, launch,
    kernel/memcpy/memset/host/event nodes) but not all of CUDA's: conditional nodes, some node types, parameters and capture modes are missing or
    experimental, and graph updates and memory nodes have had behavioural differences between ROCm
    releases. A graph that instantiates on CUDA can fail at capture or instantiation time on ROCm, or lose
    the launch-overhead benefit it was written for.

Example:
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    step<<<grid, block, 0, stream>>>(state);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);

Use instead:
    `hipStreamBeginCapture`/`hipGraphInstantiate`/`hipGraphLaunch` (hipify renames them), check every
    returned hipError_t, and test the captured sequence on the target ROCm release; keep a plain
    stream-launch fallback for node types HIP lacks.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/hipgraph.html
    https://rocm.docs.amd.com/projects/HIPIFY/en/latest/reference/tables/CUDA_Runtime_API_functions_supported_by_HIP.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-graphs

Known problems:
    Graph names with no HIP equivalent at all (`cudaGraphConditionalHandleCreate`,
    `cudaGraphAddNode_v2`...) are reported by ROC150, deprecated/removed ones by ROC151/ROC152. Graph
    handle types (`cudaGraph_t`) and enumerators are not reported: the calls carry the finding.
"""

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import api_rule_check, names_owned_by
from scanner.rules.base import Rule

NAMES = names_owned_by("ROC162")


def check(ctx: Context) -> None:
    tok = ctx.token
    if ctx.platform_guarded or ctx.reported_on(tok.line):
        return
    entry = ctx.names.get(tok.text)
    if entry is None or not entry.hip:
        return
    state = "experimental in HIP" if entry.status == "experimental" else "supported with gaps in HIP"
    ctx.report(
        f"`{tok.text}` -> `{entry.hip}`: CUDA graphs are {state} (no conditional nodes, some node "
        "types and capture modes missing); test this path on ROCm."
    )


RULE = Rule(
    name="api-cuda-graph-api",
    formerly=("cuda-graph-api",),
    summary="CUDA graph / stream capture API (HIP graphs are partial)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.LOW,
    on=("identifier",),
    names=NAMES,
    check=api_rule_check(check),
)
