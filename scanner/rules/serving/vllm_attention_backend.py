"""vLLM attention backends that do not exist on ROCm (VLLM_ATTENTION_BACKEND=FLASHINFER, FLASH_ATTN, XFORMERS).

What it finds:
    `VLLM_ATTENTION_BACKEND` (and `--attention-backend`) set to a CUDA-only backend: `FLASH_ATTN`,
    `FLASHINFER`, `XFORMERS`, `FLASHMLA`, `CUTLASS_MLA`, `FLASH_ATTN_MLA`, `FLASHINFER_MLA` (and their `_VLLM_V1`
    spellings), in launch scripts, Dockerfiles, compose/Kubernetes YAML and Python (`os.environ[...] = ...`).

Why it breaks on ROCm:
    vLLM's ROCm platform implements its own backends; asking for a CUDA one makes vLLM refuse to start (or fall
    back, depending on the version) on an AMD GPU. The fast paths on MI300X are AMD's AITER kernels.

Example:
    export VLLM_ATTENTION_BACKEND=FLASHINFER
    vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4

Use instead:
    Leave it unset (vLLM picks the ROCm default), or choose a ROCm backend: `ROCM_AITER_FA` (with
    `VLLM_ROCM_USE_AITER=1`, the fastest on MI300X in vLLM's measurements), `ROCM_ATTN`, `TRITON_ATTN`, and
    `ROCM_AITER_MLA` / `TRITON_MLA` for MLA models.

References:
    https://docs.vllm.ai/en/latest/getting_started/installation/gpu.html
    https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference/benchmark-docker/vllm.html
    https://blog.vllm.ai/
"""

import re

from scanner.analysis.context import Context
from scanner.formats import yaml_doc
from scanner.model import Risk, Severity
from scanner.rules.libraries._judgement import command_matches, cuda_code_only
from scanner.rules.textual import SCRIPT_LANGUAGES, mentions, once, text_rule

CUDA_ONLY = frozenset(
    {
        "FLASH_ATTN",
        "FLASH_ATTN_VLLM_V1",
        "FLASHINFER",
        "FLASHINFER_VLLM_V1",
        "XFORMERS",
        "FLASHMLA",
        "FLASHMLA_VLLM_V1",
        "FLASHMLA_SPARSE",
        "CUTLASS_MLA",
        "CUTLASS_MLA_VLLM_V1",
        "FLASH_ATTN_MLA",
        "FLASHINFER_MLA",
    }
)
_SETTING = re.compile(r"(?:VLLM_ATTENTION_BACKEND[\"']?\]?\s*[=:,]\s*|--attention-backend[= ]\s*)[\"']?(\w+)")
_ADVICE = "on ROCm use `ROCM_AITER_FA` (with VLLM_ROCM_USE_AITER=1), `ROCM_ATTN` or `TRITON_ATTN`, or leave it unset"


def check(ctx: Context) -> None:
    if not (mentions(ctx, "vllm_attention_backend") or mentions(ctx, "--attention-backend")):
        return
    for line, col, match in command_matches(ctx, _SETTING, 1, python_lines=True):
        _report(ctx, line, col, match.group(1))
    if ctx.language == "yaml":  # Kubernetes `env: [{name: VLLM_ATTENTION_BACKEND, value: FLASHINFER}]`
        for doc in yaml_doc.documents(ctx.source):
            for path, _, value in yaml_doc.walk(doc):
                if path[-1] == "env":
                    for item in yaml_doc.elements(value):
                        if yaml_doc.text(yaml_doc.get(item, "name")) == "VLLM_ATTENTION_BACKEND":
                            node = yaml_doc.get(item, "value")
                            if node is not None:
                                _report(ctx, yaml_doc.line_of(node), yaml_doc.col_of(node), yaml_doc.text(node))


def _report(ctx, line: int, col: int, value: str) -> None:
    if value in CUDA_ONLY:
        once(
            ctx,
            line,
            col,
            f"vLLM attention backend `{value}` exists only on NVIDIA GPUs: {_ADVICE}.",
            length=len(value),
        )


RULE = text_rule(
    name="serving-vllm-attention-backend",
    summary="vLLM attention backend that does not exist on ROCm (FLASHINFER, FLASH_ATTN, XFORMERS, ...)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    languages=SCRIPT_LANGUAGES | {"python"},
    check=cuda_code_only(check),
)
