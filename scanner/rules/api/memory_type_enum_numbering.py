"""Code that relies on the numeric values of cudaMemoryType.

What it finds:
    The memory type of `cudaPointerAttributes` (`attr.type`), a `cudaMemoryType` variable or a
    `cudaMemoryType*` enumerator used as a number: compared with an integer literal (`attr.type == 2`),
    switched on with numeric `case` labels, used as an array index (`names[attr.type]`) or cast to an integer
    type; and any use of the field `.memoryType`, which CUDA 11 removed from `cudaPointerAttributes`.
    A comparison or `case` label with 0-3 (Unregistered, Host, Device, Managed) is low on a profile of ROCm 6.0
    or later, which numbers those four like CUDA: it misreads memory only on ROCm 5. Array indices and integer
    casts keep the rule's severity (the AMD-only values fall outside a four-entry table).

Why it breaks on ROCm:
    CUDA numbers `cudaMemoryTypeUnregistered`=0, `Host`=1, `Device`=2, `Managed`=3. Before ROCm 6.0
    `hipMemoryType` was numbered `Host`=0, `Device`=1, `Array`=2, `Unified`=3, `Managed`=4, and the field
    was `hipPointerAttribute_t::memoryType`; ROCm 6.0 renamed the field to `type` and renumbered the enum to
    match CUDA for those four, adding AMD-specific `hipMemoryTypeArray`/`hipMemoryTypeUnified`. hipify
    renames enumerators but cannot translate raw numbers, so a literal 2 silently means "array" instead of
    "device" on ROCm 5, and names tables indexed by the value go out of range for the AMD-only values.

Example:
    cudaPointerAttributes attr;
    cudaPointerGetAttributes(&attr, ptr);
    if (attr.type == 2) { /* device pointer */ }

Use instead:
    Compare with the enumerators (`attr.type == cudaMemoryTypeDevice`, hipified to `hipMemoryTypeDevice`)
    and map them to names with a `switch` over enumerators, never with numbers or array indices.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/global_defines_enums_structs_files/global_enum_and_defines.html
    https://rocm.docs.amd.com/projects/HIP/en/docs-6.0.0/about/release-notes.html
    https://docs.nvidia.com/cuda/cuda-runtime-api/structcudaPointerAttributes.html

Known problems:
    A value copied into a plain `int` first (`int t = attr.type; if (t == 2)`) is not followed. `.memoryType`
    is reported only in a file that uses the pointer-attribute API (`cudaPointerAttributes`,
    `cudaPointerGetAttributes`): other APIs have a field of that name (Vulkan's memory allocator). Casts to an
    integer inside printf/ostream arguments are left alone (printing a number is harmless).
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import base_type, climb, is_int_literal
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import cuda_code_only

_ENUMERATORS = frozenset(
    {"cudaMemoryTypeUnregistered", "cudaMemoryTypeHost", "cudaMemoryTypeDevice", "cudaMemoryTypeManaged"}
)
_FIELD = re.compile(r"(\.|->)\s*type\s*$")
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">="})
_CASTS = frozenset({"CSTYLE_CAST_EXPR", "CXX_STATIC_CAST_EXPR", "CXX_FUNCTIONAL_CAST_EXPR"})
_INT_TYPE = re.compile(r"^(const\s+)?(unsigned\s+|signed\s+)?(char|short|int|long|long long|size_t|u?int\d+_t)$")
_PRINTERS = frozenset({"printf", "fprintf", "sprintf", "snprintf", "operator<<", "format", "to_string"})


def check(ctx: Context) -> None:
    if ctx.platform_guarded:
        return
    if ctx.event == "identifier":
        _memory_type_field(ctx)
        return
    node = ctx.node
    if node.name in _ENUMERATORS:
        _classify(ctx, node, f"`{node.name}`", compare=False)
        return
    kind = base_type(node)
    if kind == "cudaPointerAttributes":
        field = _field_of(node)
        if field is not None:
            _classify(ctx, field, f"`{field.text}`", compare=True)
    elif kind == "cudaMemoryType":
        _classify(ctx, node, f"`{node.name}` (a cudaMemoryType)", compare=True)


# What says a `.memoryType` is CUDA's pointer-attribute field: the file uses the pointer-attribute API. Vulkan's
# allocator (VMA: `VmaStatistics.memoryType[i]`, `VmaAllocationInfo.memoryType`) and other APIs have a field of
# that name too, in files that also hold CUDA interop code.
_POINTER_ATTRIBUTE_API = frozenset(
    {"cudaPointerAttributes", "cudaPointerGetAttributes", "hipPointerAttribute_t", "hipPointerGetAttributes"}
)


def _memory_type_field(ctx) -> None:
    tok = ctx.token
    prev = ctx.view.neighbour(tok, -1)
    if prev is None or prev.text not in (".", "->") or ctx.reported_on(tok.line, "memoryType"):
        return
    if not _POINTER_ATTRIBUTE_API & ctx.source.identifiers:
        return
    ctx.report(
        "`.memoryType` was removed from cudaPointerAttributes in CUDA 11 and renamed `type` in HIP 6.0 "
        "(before, hipMemoryType was numbered differently); read `.type` and compare with enumerators.",
        at=tok,
    )


def _field_of(node):
    """`attr.type` above a reference to `attr` (a member expression, or clang's recovery expression)."""
    current = node
    for _ in range(3):
        parent = current.parent
        if parent is None:
            return None
        if parent.kind_name in ("MEMBER_REF_EXPR", "UNEXPOSED_EXPR") and _FIELD.search(parent.text):
            return parent
        if parent.kind_name not in ("UNEXPOSED_EXPR", "PAREN_EXPR"):
            return None
        current = parent
    return None


def _classify(ctx, expr, what: str, compare: bool) -> None:
    top = climb(expr)
    parent = top.parent
    if parent is None:
        return
    kind = parent.kind_name
    if compare and kind == "BINARY_OPERATOR" and parent.operator in _COMPARE and len(parent.children) == 2:
        other = parent.children[1] if parent.children[0] is top else parent.children[0]
        if is_int_literal(other):
            number = other.text.strip()
            _report(ctx, parent, f"{what} compared with the number {number}", _shared_number(ctx, number))
    elif kind == "ARRAY_SUBSCRIPT_EXPR" and len(parent.children) == 2 and parent.children[1] is top:
        _report(ctx, parent, f"{what} used as an array index")
    elif kind in _CASTS and _INT_TYPE.match(parent.type_name) and not _printed(parent):
        _report(ctx, parent, f"{what} converted to `{parent.type_name}`")
    elif compare and kind == "SWITCH_STMT" and parent.children and parent.children[0] is top:
        labels = [c for c in _cases(parent) if c.children and is_int_literal(c.children[0])]
        if labels:
            shared = all(_shared_number(ctx, c.children[0].text.strip()) for c in labels)
            _report(ctx, labels[0], f"switch on {what} with numeric case labels", shared)


def _cases(switch):
    stack = list(switch.children[1:])
    while stack:
        node = stack.pop()
        if node.kind_name == "SWITCH_STMT":
            continue
        if node.kind_name == "CASE_STMT":
            yield node
        stack.extend(node.children)


def _printed(node) -> bool:
    for ancestor in node.ancestors():
        name = ancestor.kind_name
        if name == "CALL_EXPR" and ancestor.name in _PRINTERS:
            return True
        if name.endswith("_STMT") or name == "VAR_DECL":
            return False
    return False


def _shared_number(ctx, text: str) -> bool:
    """A number ROCm 6.0 and later give the same meaning as CUDA (Unregistered=0, Host=1, Device=2, Managed=3),
    on a profile of such a ROCm: `attr.type == 2` still selects device memory there, and only ROCm 5 reads it
    as Array (FasterTransformer's custom all-reduce)."""
    try:
        value = int(text.rstrip("uUlL"), 0)
    except ValueError:
        return False
    return 0 <= value <= 3 and ctx.target.rocm_at_least(6, 0)


def _report(ctx, at, what: str, shared: bool = False) -> None:
    if ctx.reported_on(at.line):
        return
    ctx.report(
        f"{what}: cudaMemoryType and hipMemoryType are numbered differently before ROCm 6.0 and hipify "
        "cannot translate numbers; compare with the enumerators (cudaMemoryTypeDevice...).",
        at=at,
        severity=Severity.LOW if shared else None,
    )


def _severity(profile, base):
    if not profile.rocm_at_least(6, 0):
        return Severity.HIGH, (
            f"ROCm {profile.rocm_text} numbers hipMemoryType Host=0, Device=1, Array=2, Unified=3, Managed=4."
        )
    return base, (
        f"ROCm {profile.rocm_text} numbers Unregistered..Managed like CUDA, but the numbers still "
        "break on ROCm 5 and for the AMD-only Array/Unified values."
    )


RULE = Rule(
    name="api-memory-type-enum-numbering",
    formerly=("memory-type-enum-numbering",),
    summary="Numeric use of cudaMemoryType values (hipMemoryType numbered differently before ROCm 6.0)",
    risk=Risk.SILENT_WRONG_RESULT,
    severity=Severity.MEDIUM,
    on=("decl_ref", "identifier"),
    names=frozenset({"memoryType"}),
    requires=(
        "cudaPointerAttributes",
        "cudaMemoryType",
        "memoryType",
        "cuPointerGetAttribute",
        "cudaMemoryType*",
        "CU_MEMORYTYPE*",
        "CUmemorytype",
    ),
    check=cuda_code_only(check),
    target_severity=_severity,
)
