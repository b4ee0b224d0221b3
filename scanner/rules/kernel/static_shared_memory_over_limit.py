"""Shared memory beyond the LDS of one AMD workgroup.

What it finds:
    - a kernel or device function whose static `__shared__` variables together take more bytes than the
      target's LDS per workgroup (64 KiB on MI300X/gfx942 and RDNA, 160 KiB on MI350/gfx950);
    - `cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, N)` with a constant N
      above that limit;
    - a kernel launch whose dynamic shared-memory size (`<<<grid, block, N>>>`) is a constant above it.
    Dynamic `extern __shared__` arrays have no static size and are not counted. A dynamic request inside an
    `if` that tests the device's shared-memory size (`prop.sharedMemPerMultiprocessor >= SMEM_BYTES`,
    `sharedMemPerBlockOptin`, `cudaDevAttrMaxSharedMemoryPerBlockOptin`) runs only where the device has that
    much: info when the `if` has an `else` (a fallback, which AMD takes), low without one.

Why it breaks on ROCm:
    NVIDIA GPUs since Volta offer up to 96-227 KiB of shared memory per block (dynamic, after an opt-in
    with cudaFuncSetAttribute), and kernels tuned for A100/H100 use it. An AMD workgroup can address only
    the LDS of one compute unit: 64 KiB on CDNA3 and RDNA. Static allocations above it fail to compile
    ("local memory limit exceeded"); dynamic requests above it make the launch or hipFuncSetAttribute fail
    at run time.

Example:
    cudaFuncSetAttribute(attention_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
    attention_kernel<<<grid, 128, 160 * 1024>>>(q, k, v, o);

Use instead:
    Retile for 64 KiB: smaller tiles (fewer rows per block, or fewer pipeline stages), or split the work
    across more workgroups; query `hipDeviceProp_t::sharedMemPerBlock` (and
    `maxSharedMemoryPerMultiProcessor`) at run time instead of assuming the NVIDIA figure.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/understand/hardware_implementation.html
    https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#shared-memory-8-x

Known problems:
    Sizes that depend on template parameters are unknown before instantiation and are not checked;
    `__shared__` variables at file scope and those in called device functions are not added to a kernel's
    total. Arrays sized inside an inactive `#if` branch of the host-side parse are not seen.
"""

import bisect
import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import cuda_code_only, judged

_DYNAMIC_ATTRIBUTES = frozenset({"cudaFuncAttributeMaxDynamicSharedMemorySize"})
# Device properties and attributes that say how much shared memory a block may have.
_SIZE_QUERIES = re.compile(
    r"^(sharedMemPer(Multiprocessor|BlockOptin|Block)|maxSharedMemoryPerMultiProcessor|"
    r"(cuda|hip)DevAttrMaxSharedMemoryPer(Block|Multiprocessor)(Optin)?|"
    r"hipDeviceAttributeMaxSharedMemoryPer(Block|Multiprocessor)|"
    r"CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_(BLOCK|MULTIPROCESSOR)(_OPTIN)?)$"
)


def _limit(ctx) -> str:
    lds = ctx.target.lds_bytes
    targets = ", ".join(ctx.target.targets)
    return f"{lds // 1024} KiB ({lds} bytes) of LDS per workgroup on {targets}"


def check(ctx: Context) -> None:
    if ctx.event == "function":
        _check_function(ctx)
    elif ctx.callee_name == "cudaFuncSetAttribute":
        _check_attribute(ctx)
    elif ctx.callee_name == "__cudaPushCallConfiguration":
        _check_launch(ctx)


def _check_function(ctx) -> None:
    fn = ctx.function
    if fn is None or fn.node is not ctx.node or not fn.runs_on_device:
        return
    total, count = 0, 0
    for node in ctx.node.walk():
        if node.is_var_decl and node.is_shared:
            size = node.type_size
            if size > 0:
                total += size
                count += 1
    limit = ctx.target.lds_bytes
    if total <= limit or ctx.hip_guarded:
        return
    what = "kernel" if fn.is_kernel else "device function"
    ctx.report(
        f"{what} `{fn.name}` declares {total} bytes of static __shared__ memory "
        f"({count} variable{'s' if count > 1 else ''}), more than the {_limit(ctx)}; retile to fit.",
        at=ctx.node,
    )


def _check_attribute(ctx) -> None:
    attribute, value = ctx.arg(1), ctx.arg(2)
    if attribute is None or attribute.strip().name not in _DYNAMIC_ATTRIBUTES:
        return
    size = ctx.literal_value(value)
    if size is None or size <= ctx.target.lds_bytes or ctx.hip_guarded:
        return
    message = f"requests {size} bytes of dynamic shared memory, more than the {_limit(ctx)}"
    if not _report_guarded(ctx, ctx.node, message):
        ctx.report(f"{message}; hipFuncSetAttribute and the launch will fail. Retile to fit.")


def _check_launch(ctx) -> None:
    args = ctx.args
    if len(args) < 3:
        return
    size = ctx.literal_value(args[2])
    if size is None or size <= ctx.target.lds_bytes or ctx.hip_guarded:
        return
    message = f"the launch asks for {size} bytes of dynamic shared memory, more than the {_limit(ctx)}"
    if not _report_guarded(ctx, args[2], message):
        ctx.report(f"{message}; the launch will fail. Retile to fit.", at=args[2])


def _report_guarded(ctx, node, message: str) -> bool:
    """Report the request as guarded when an enclosing `if` tests the device's shared-memory size."""
    found = _size_check(ctx, node)
    if found is None:
        return False
    query, fallback = found
    if fallback:
        with judged(ctx, Severity.INFO):
            ctx.report(
                f"{message}, but it runs only where `{query}` is large enough, and the `if` has a fallback: "
                "on AMD the device reports less and the fallback runs.",
                at=node,
            )
    else:
        with judged(ctx, Severity.LOW, Risk.RUNTIME_FAILURE):
            ctx.report(
                f"{message}, but it runs only where `{query}` is large enough; with no fallback beside the check, "
                "AMD skips this work: give it a path that fits.",
                at=node,
            )
    return True


def _size_check(ctx, node) -> tuple[str, bool] | None:
    """(the shared-memory query an enclosing `if` or `else` tests, whether the `if` has an `else`), or None.
    Read from tokens, outward from the node to its function's body."""
    code = ctx.view.code
    lines = ctx.view.per_token("line")
    i = bisect.bisect_left(lines, node.line)
    depth = 0
    for j in range(i - 1, max(i - 6000, -1), -1):
        text = code[j].text
        if text == "}":
            depth += 1
        elif text == "{" and depth > 0:
            depth -= 1
        elif text == "{":
            head = j - 1
            is_else = head >= 0 and code[head].text == "else"
            if is_else:
                head = _if_close_before_block(code, head - 1)
                if head is None:
                    continue
            condition = _if_condition(code, head)
            if condition is None:
                if _opening(code, head) is None:
                    return None  # not `) {` of a statement: a function body or an initializer
                continue  # a loop or a switch: look further out
            flags = _size_variables(ctx)
            query = next((t.text for t in condition if _SIZE_QUERIES.match(t.text) or t.text in flags), "")
            if query:
                return query, is_else or _has_else(code, j)
    return None


def _size_variables(ctx) -> frozenset[str]:
    """Variables the file fills with a shared-memory size: `cudaDeviceGetAttribute(&v, <size attribute>, dev)`."""
    found = ctx.memo.get("roc157_sizes")
    if found is None:
        code = ctx.view.code
        names = set()
        for k, t in enumerate(code[:-5]):
            if t.text.endswith("DeviceGetAttribute") and code[k + 1].text == "(" and code[k + 2].text == "&":
                if code[k + 4].text == "," and _SIZE_QUERIES.match(code[k + 5].text):
                    names.add(code[k + 3].text)
        found = ctx.memo["roc157_sizes"] = frozenset(names)
    return found


def _opening(code, close: int) -> int | None:
    if close < 0 or code[close].text != ")":
        return None
    depth = 0
    for k in range(close, max(close - 400, -1), -1):
        depth += {")": 1, "(": -1}.get(code[k].text, 0)
        if depth == 0:
            k_before = k - 1
            if k_before >= 0 and code[k_before].text in ("if", "for", "while", "switch"):
                return k
            return None
    return None


def _if_condition(code, close: int):
    k = _opening(code, close)
    return code[k + 1 : close] if k is not None and code[k - 1].text == "if" else None


def _block_end(code, open_index: int) -> int | None:
    depth = 0
    for k in range(open_index, len(code)):
        depth += {"{": 1, "}": -1}.get(code[k].text, 0)
        if depth == 0:
            return k
    return None


def _has_else(code, open_index: int) -> bool:
    end = _block_end(code, open_index)
    return end is not None and end + 1 < len(code) and code[end + 1].text == "else"


def _if_close_before_block(code, close_brace: int) -> int | None:
    """For `if (...) { ... } else {`: the `)` of the if, given the `}` before `else`."""
    if close_brace < 0 or code[close_brace].text != "}":
        return None
    depth = 0
    for k in range(close_brace, max(close_brace - 20000, -1), -1):
        depth += {"}": 1, "{": -1}.get(code[k].text, 0)
        if depth == 0:
            return k - 1
    return None


RULE = Rule(
    name="kernel-static-shared-memory-over-limit",
    formerly=("static-shared-memory-over-limit",),
    summary="Shared memory per block above the AMD LDS limit (64 KiB on MI300X)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.HIGH,
    on=("function", "call"),
    check=cuda_code_only(check),
)
