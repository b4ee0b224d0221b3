"""The compiler's diagnostics: parsed from clang's output, de-duplicated, sorted into kinds.

Kinds (each is one rule, scanner/rules/compile/):
- `undeclared-cuda-name`: a CUDA name HIP does not declare (`__shfl_down_sync` on ROCm 5, `nvtxRangePushA`);
- `type-mismatch`: types that do not fit (`cudaError_t` against `hipError_t`, no matching overload), and a 64-bit
  wavefront mask truncated to 32 bits (see below);
- `inline-asm`: inline assembly the AMDGPU backend rejects (PTX left in the translation);
- `missing-header`: an NVIDIA header the translation still includes, which no ROCm installation has;
- `other`: every other error.
A name the toolchain's headers predate (`newer`: the bundled ROCm headers are older than the profile's ROCm) is a
`toolchain-gap`: counted, listed and said so, never a finding or a failure.
A name left undeclared while headers were stubbed, and not a CUDA name, is most likely one the stubbed header
would have declared (`hipblasCreate` without hipBLAS installed): such errors are `set aside`, counted and listed,
but neither findings nor a failure. Warnings are dropped, except `-Wshorten-64-to-32` on a wave-wide mask
(`__ballot`, `__activemask`, `__lanemask_*`): on AMD those are 64-bit, so storing one in 32 bits silently loses
the upper half of a 64-lane wavefront. The check promotes that one warning to an error, as if with
`-Werror=shorten-64-to-32`, but only for mask expressions: the flag as such would also fail every `int n =
v.size();` of the host code, which is not a migration problem.

An error inside a header that the code only instantiated (HIP's static_assert on a 32-bit mask given to a `*_sync`
function) is moved to the repository line its "requested here" note names, and keeps its message there.

Clang reports a device-side diagnostic once per target and once for the host: one (path, line, column, message)
is kept once. A diagnostic located outside the translated tree (a system header, or a file a hostile repository
included by absolute path) keeps its location's file name but not its message, which could quote that file.
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass

from scanner import nametable

KINDS = ("undeclared-cuda-name", "type-mismatch", "inline-asm", "missing-header", "newer-rocm", "other")
SET_ASIDE = "set-aside"
# A name the toolchain's headers predate (clang_hip.NEWER_THAN_BUNDLED, empty while the bundled HIP is current):
# the environment's gap, not the code's error. Set aside like the stubs' names, and said so.
TOOLCHAIN_GAP = "toolchain-gap"
NOT_ERRORS = frozenset({SET_ASIDE, TOOLCHAIN_GAP})
# Where an error comes from, for the status: what the translation left, what the source does that no
# translation fixes, or the code itself.
ORIGIN = {
    "newer-rocm": "rocm",  # an API the profile's ROCm lacks and a later one has (scanner.hip_releases)
    "undeclared-cuda-name": "translation",
    "missing-header": "translation",
    "type-mismatch": "translation",
    "inline-asm": "source",
    "other": "code",
}

_DIAG = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): "
    r"(?P<msg>.*?)(?: \[(?P<flag>-W[^\]]+)\])?$"
)
_BARE = re.compile(r"^(?:[\w./+-]*(?:clang|hipcc|lld)[\w.+-]*|error): (?P<sev>fatal error|error): (?P<msg>.*)$")
_INCLUDED_FROM = re.compile(r"^(?:In file included from|\s+from) (?P<path>.+?):(?P<line>\d+)[:,]")
_NOT_FOUND = re.compile(r"'([^']+)' file not found")
_UNDECLARED = re.compile(
    r"use of undeclared identifier '([^']+)'|unknown type name '([^']+)'|"
    r"no (?:type|member|template) named '([^']+)' in (?:namespace|the global namespace)|no template named '([^']+)'|"
    r"undeclared identifier '([^']+)'"
)
_IN_NAMESPACE = re.compile(r"in namespace '([\w:]+)'")
_ASM = re.compile(
    r"\basm\b|inline assembly|invalid instruction|instruction not supported|invalid operand|"
    r"unknown directive|invalid (?:output |input )?constraint|couldn't allocate (?:output|input) reg|"
    r"unsupported inline asm|invalid register"
)
_TYPES = re.compile(
    r"The mask must be a 64-bit integer|cannot initialize|incompatible|no viable conversion|cannot convert|no matching (?:function|"
    r"constructor|member function|conversion)|assigning to '|invalid conversion|"
    r"implicit conversion loses integer precision|cannot bind|could not bind|"
    r"invalid operands to binary expression|cannot be narrowed|non-constant-expression cannot be "
    r"narrowed"
)
# Spellings of CUDA-only names that HIPIFY's table does not list: the warp-synchronous intrinsics (HIP added them
# in ROCm 6.2, behind a macro), NVIDIA's libraries without a same-name ROCm twin, NVVM builtins. `CUDA` alone is
# no API name: it is PyTorch's dispatch key (`TORCH_LIBRARY_IMPL(ns, CUDA, m)`, undeclared once torch is stubbed).
_CUDA_NAME = re.compile(
    r"^(?!CUDA$)(?:cuda|CUDA|cu[A-Z]|CU[A-Z_]|nvrtc|NVRTC|nvml|NVML|nvtx|NVTX|cublas|CUBLAS|cufft|"
    r"CUFFT|curand|CURAND|cusparse|CUSPARSE|cusolver|CUSOLVER|cudnn|CUDNN|cutensor|__nv_|"
    r"__nvvm_)|^__\w+_sync$|^__activemask$|^__syncwarp$"
)
# Headers only NVIDIA ships (beyond HIPIFY's table of CUDA headers): a translation still including one cannot
# build on any ROCm machine. thrust/ is not among them (rocThrust installs thrust/ headers; the check ships them).
_NVIDIA_HEADER = re.compile(
    r"^(?:cuda|cu(?:blas|fft|rand|sparse|solver|dnn|tensor|pti|file)|nvrtc|nvml|nvToolsExt|"
    r"nvtx3/|nvjpeg|nvperf|nccl|NvInfer|NvOnnx|cutlass/|cute/|cub/|crt/|nv/|sm_\d+_|"
    r"device_(?:functions|launch_parameters|atomic_functions)|mma\.h|cooperative_groups/|"
    r"vector_types\.h|builtin_types\.h|driver_types\.h|texture_fetch_functions|npp)"
)
_MASK_CALL = re.compile(r"\(?\s*(?:__ballot\w*|__activemask|__lanemask_\w+|__match_(?:any|all)\w*)\s*\(")
_SHORTEN = "-Wshorten-64-to-32"
# Not a type problem although clang says "no matching function": a host function called from device code.
_HOST_DEVICE = re.compile(r"call to __(?:host|device|global)__ function from __(?:host|device|global)__ function")


@dataclass
class Diagnostic:
    kind: str  # one of KINDS, or SET_ASIDE
    path: str  # as the compiler named it: a repository path inside the tree, or an outside file
    hip_line: int  # the line in the translated file
    column: int
    message: str
    in_tree: bool = True
    line: int = 0  # the line in the original file (scanner.compile.linemap), set by the check
    included_from: str = ""  # "src/a.cu:3": the unit's #include line that leads to this file

    def to_dict(self) -> dict:
        return asdict(self)


def is_cuda_name(name: str) -> bool:
    name = name.split("::")[-1] if "::" in name else name
    return name in nametable.load().by_name or bool(_CUDA_NAME.search(name))


def is_nvidia_header(name: str) -> bool:
    return name in nametable.load().headers or bool(_NVIDIA_HEADER.match(name))


def parse(
    output: str,
    in_tree,
    line_text,
    stubbed: bool,
    newer: frozenset[str] = frozenset(),
    later: frozenset[str] = frozenset(),
) -> list[Diagnostic]:
    """Errors (and the promoted mask truncations) of one compiler run. `in_tree(path)` says whether a path is a
    file of the translated tree; `line_text(path, line)` gives a translated line (for the mask check);
    `stubbed`: whether headers were stubbed in this run (undeclared non-CUDA names are then set aside).
    A "candidate function not viable" note says why an overload did not match: it joins the error's message."""
    entries: list[list] = []  # [path, line, col, message, included_from, why]
    seen: set[tuple] = set()
    chain: list[tuple[str, int]] = []
    current = None  # the entry the following notes belong to (None: a duplicate or a dropped warning)
    for raw in output.splitlines():
        included = _INCLUDED_FROM.match(raw)
        if included:
            chain.append((included.group("path"), int(included.group("line"))))
            continue
        match = _DIAG.match(raw)
        if match is None:
            bare = _BARE.match(raw)
            if bare and "generated" not in bare.group("msg") and ("", 0, 0, bare.group("msg")) not in seen:
                seen.add(("", 0, 0, bare.group("msg")))
                entries.append(["", 0, 0, bare.group("msg"), "", "", False])
            continue
        origin, chain = chain, []
        severity, message, flag = match.group("sev"), match.group("msg"), match.group("flag") or ""
        path, line, col = match.group("path"), int(match.group("line")), int(match.group("col"))
        if severity == "note":
            if current is not None and not current[5] and message.startswith("candidate function not viable"):
                current[5] = message
            elif current is not None and current[6] and "requested here" in message and in_tree(path):
                # An error inside a header the code only instantiated (HIP's 64-bit mask static_assert): it
                # belongs to the line that asked for the instantiation.
                current[0:3], current[6] = [path, line, col], False
            continue
        current = None
        if severity == "warning":
            if not (flag.startswith(_SHORTEN) and _MASK_CALL.match(line_text(path, line)[max(col - 1, 0) :])):
                continue
            message = (
                "a 64-bit wavefront mask stored in 32 bits: the upper 32 lanes of a 64-lane wavefront are "
                f"lost ({message})"
            )
        key = (path, line, col, message)
        if key in seen:
            continue
        seen.add(key)
        outside = not in_tree(path)
        current = [
            path,
            line,
            col,
            message,
            f"{origin[0][0]}:{origin[0][1]}" if origin and not outside else "",
            "",
            outside,
        ]
        entries.append(current)
    out = []
    for path, line, col, message, included_from, why, _ in entries:
        if why:
            message = f"{message} ({why})"
        kind = classify(message, stubbed, newer, later)
        inside = bool(path) and in_tree(path)
        if path.startswith("<"):  # "<inline asm>": the assembler's view of an asm statement
            kind = "inline-asm"
        elif path and not inside and kind != "missing-header":
            message = "an error in a file outside the repository"  # its text could quote that file
        out.append(Diagnostic(kind, path, line, col, message[:500], inside, included_from=included_from))
    # `cg::reduce(tile, v, cg::plus<float>())` without cg::plus also fails to parse the rest of its line: those
    # errors follow from the gap, not from the code.
    # Likewise for an API the profile's ROCm lacks, and for a name a stubbed header would have declared
    # (`std::chrono::...` unparsed where torch's headers, stubbed, brought <chrono>; `constexpr bool c =
    # std::is_same_v<T, complex_t>` not constant once `complex_t` is gone).
    # A stubbed name also leaves its line's types unknown: clang recovers an undeclared type as `int`, so
    # `std::optional<at::Tensor> out = std::nullopt` then fails as "no viable conversion from 'const nullopt_t' to
    # 'const int'". Type errors on such a line are set aside with it (not for the other two kinds: their lines'
    # types are HIP's own).
    line_text = functools.cache(line_text)  # each translated line read once (the check's reader splits the file)
    _declared_with_a_stub(out, line_text)
    _in_a_stubbed_statement(out, line_text)
    for kind in (TOOLCHAIN_GAP, "newer-rocm", SET_ASIDE):
        lines = {(d.path, d.hip_line) for d in out if d.kind == kind}
        follows = ("other", SET_ASIDE, "type-mismatch") if kind == SET_ASIDE else ("other", SET_ASIDE)
        for d in out:
            if d.kind in follows and (d.path, d.hip_line) in lines:
                d.kind = kind
    return out


_ENDS_STATEMENT = re.compile(r"[;{}]\s*(?://.*)?$")


def _in_a_stubbed_statement(out: list[Diagnostic], line_text) -> None:
    """A parse error further down a statement that a stubbed name began (pytorch_cluster's `torch::Tensor
    radius_cuda(torch::Tensor x, ...,` then `int64_t max_num_neighbors,` two lines below: once `torch` is
    undeclared, clang reads a variable with an initializer and calls the type name unexpected) follows from the
    stub: set aside, when no line in between ends a statement."""
    stubbed = {(d.path, d.hip_line) for d in out if d.kind == SET_ASIDE}
    for d in out:
        if d.kind != "other" or not d.in_tree:
            continue
        for line in range(d.hip_line - 1, max(d.hip_line - _DECLARATION_SPAN, 0), -1):
            if _ENDS_STATEMENT.search(line_text(d.path, line)):
                break
            if (d.path, line) in stubbed:
                d.kind = SET_ASIDE
                break


_NAMED_FUNCTION = re.compile(
    r"(?:cannot resolve overloaded function|no matching (?:member )?function for call to) '(\w+)'"
)
_DECLARATION_SPAN = 40  # lines a declaration's parameter list may take


def _declared_with_a_stub(out: list[Diagnostic], line_text) -> None:
    """A function whose declaration names a stubbed type (flash-fft-conv's kernels take torch's `complex_half_t`,
    lmdeploy's `Logger::LogFatal` fmt's `format_string`) is invalid, so every later use of it fails too ("cannot
    resolve overloaded function 'k'", "no matching (member) function for call to 'k'"): those errors follow from
    the stub and are set aside with it. The declaration is found from the
    set-aside line back to the line naming the function, through lines that end no statement."""
    stubbed = [d for d in out if d.kind == SET_ASIDE and d.in_tree]
    for d in out:
        named = _NAMED_FUNCTION.search(d.message) if d.kind in ("other", "type-mismatch") else None
        if named is None:
            continue
        call = re.compile(rf"\b{re.escape(named.group(1))}\s*[(<]")
        for s in stubbed:  # in any file: the function may be declared in a header (lmdeploy's logger.h)
            for line in range(s.hip_line, max(s.hip_line - _DECLARATION_SPAN, 0), -1):
                source = line_text(s.path, line)
                if line != s.hip_line and re.search(r"[;{}]\s*(?://.*)?$", source):
                    break  # the end of an earlier statement: the stub's line is not in a declaration of it
                if call.search(source):
                    d.kind = SET_ASIDE
                    break
            if d.kind == SET_ASIDE:
                break


def classify(
    message: str, stubbed: bool, newer: frozenset[str] = frozenset(), later: frozenset[str] = frozenset()
) -> str:
    """`newer`: names of a ROCm newer than any bundled HIP (the toolchain's gap); `later`: names the judging HIP
    lacks and a later ROCm has (scanner.hip_releases.added_after): the profile's ROCm cannot build the code."""
    found = _NOT_FOUND.search(message)
    if found:
        return "missing-header"
    if _ASM.search(message):
        return "inline-asm"
    if _HOST_DEVICE.search(message):
        return "other"
    undeclared = _UNDECLARED.search(message)
    if undeclared:
        name = next(g for g in undeclared.groups() if g)
        namespace = _IN_NAMESPACE.search(message)
        if name in newer or (namespace and f"{namespace.group(1)}::{name}" in newer):
            return TOOLCHAIN_GAP
        if name in later and (namespace is None or namespace.group(1) == "cooperative_groups"):
            return "newer-rocm"
        if is_cuda_name(name):
            return "undeclared-cuda-name"
        return SET_ASIDE if stubbed else "other"
    if _TYPES.search(message):
        return "type-mismatch"
    return "other"


def missing_header_name(message: str) -> str:
    found = _NOT_FOUND.search(message)
    return found.group(1) if found else ""
