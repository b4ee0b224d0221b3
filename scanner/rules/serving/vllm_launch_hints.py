"""vLLM launched with tensor parallelism but no --distributed-executor-backend (informational, for MI300X).

What it finds:
    `vllm serve ...` and `python -m vllm.entrypoints.openai.api_server ...` launches in scripts, Dockerfiles and
    YAML, and `LLM(...)` / `EngineArgs(...)` in Python, that use tensor parallelism (`--tensor-parallel-size N`,
    `-tp N`, `tensor_parallel_size=N` with N > 1) without choosing the distributed executor backend.

Why it breaks on ROCm:
    It does not break; it is slower or less robust than it should be. On ROCm, vLLM's guidance for single-node
    tensor parallelism is the multiprocessing executor (`--distributed-executor-backend mp`); the default may
    pick Ray when it is installed, which costs start-up time and memory per GPU. MI300X's 192 GB per GPU also
    often allows a smaller tensor-parallel size than the H100 configuration this came from.

Example:
    vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8

Use instead:
    `vllm serve ... --tensor-parallel-size 4 --distributed-executor-backend mp` (re-check the TP size against
    MI300X's memory), `LLM(..., tensor_parallel_size=4, distributed_executor_backend="mp")` in Python.

References:
    https://docs.vllm.ai/en/latest/serving/distributed_serving.html
    https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/vllm-optimization.html
"""

import ast
import re

from scanner.analysis.context import Context
from scanner.formats import python_src
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import cuda_code_only
from scanner.rules.textual import logical, mentions, once, text_rule

_LAUNCH = re.compile(r"(?<![\w-])vllm\s+serve\b|vllm\.entrypoints\.(?:openai\.)?api_server\b")
_TP = re.compile(r"(?:--tensor-parallel-size|-tp)[= ]\s*[\"']?(\d+)")
_MESSAGE = (
    "vLLM with tensor parallelism {tp} and no distributed executor backend: on ROCm add "
    "`--distributed-executor-backend mp` (vLLM's recommendation for one node), and re-check the TP size "
    "against MI300X's 192 GB per GPU."
)


def check(ctx: Context) -> None:
    if not mentions(ctx, "vllm") and not mentions(ctx, "LLM("):
        return
    if ctx.language == "python":
        _python(ctx)
        return
    for item in logical(ctx):
        launch = _LAUNCH.search(item.text)
        if launch is None:
            continue
        tp = _TP.search(item.text, launch.start())
        if tp and int(tp.group(1)) > 1 and "--distributed-executor-backend" not in item.text:
            line, col = item.where(tp.start())  # the flag that wants its companion
            once(ctx, line, col, _MESSAGE.format(tp=tp.group(1)), length=len(tp.group(0)))


def _python(ctx) -> None:
    for name, call in python_src.calls(ctx.source, frozenset({"LLM", "EngineArgs", "AsyncEngineArgs"})):
        keywords = {k.arg: k.value for k in call.keywords}
        tp = keywords.get("tensor_parallel_size")
        if (
            isinstance(tp, ast.Constant)
            and isinstance(tp.value, int)
            and tp.value > 1
            and "distributed_executor_backend" not in keywords
        ):
            once(
                ctx,
                call.lineno,
                call.col_offset + 1,
                _MESSAGE.format(tp=tp.value).replace(
                    "`--distributed-executor-backend mp`", '`distributed_executor_backend="mp"`'
                ),
                length=len(name),
            )


RULE = text_rule(
    name="serving-vllm-launch-hints",
    summary="vLLM tensor-parallel launch without --distributed-executor-backend (informational)",
    risk=Risk.PERFORMANCE,
    severity=Severity.INFO,
    languages={"shell", "dockerfile", "yaml", "make", "python"},
    check=cuda_code_only(check),
)
