"""Which branches of a `#if __CUDA_ARCH__ ...` chain HIP-Clang compiles, and the chains where that choice is
safe (ROC158). Not a rule module.

HIP-Clang does not define `__CUDA_ARCH__`, so each chain is evaluated on its own (scanner.analysis.hip_branches,
with a name compared with `__CUDA_ARCH__` read as a positive SM number) and split into the branches HIP may take
and the ones it never compiles; a chain without `#else` gets an empty one. The choice is safe, and the finding
an info note, when:
- every branch HIP may take is a deliberate "unsupported" stop (`__trap()`, `assert(false)`, `NO_DEVICE_CODE`,
  possibly followed by a `return` to satisfy the compiler): it fails loudly, and the host code decides whether
  such a kernel is ever launched on AMD;
- the branches differ only by barriers (`__syncthreads()`, `__syncwarp()`, `block.sync()`, fences) and HIP's has
  at least as many: HIP runs the conservative path;
- every branch HIP never compiles is PTX: inline `asm`, or a wrapper named after a PTX instruction (`ldmatrix`,
  `cp_async`, `mma_sync`...), that could not run on AMD anyway. When HIP's branch computes, it is the portable
  implementation; when HIP's branch is empty, only PTX hints whose absence changes no result are safe
  (`prefetch`, `griddepcontrol`, `setmaxnreg`, `createpolicy`, `applypriority`, `discard`), without outputs;
- every branch HIP never compiles is PTX for one NVIDIA architecture only (under `__CUDA_ARCH_FEAT_SM90_ALL` or
  another arch-specific feature macro, or `wgmma`/`tcgen05` instructions) and HIP's branch is empty: an older
  NVIDIA GPU compiles the same empty branch, so the code belongs to that architecture's kernels, which a port
  replaces rather than runs;
- every branch HIP never compiles is the Tensor Memory Accelerator's side of a choice the code makes elsewhere
  (only declarations, `if (<a name with a tma part>) {...}` and `EnableTma ? x :`) and HIP's branch is empty: TMA
  exists from sm_90 on, so every older NVIDIA GPU compiles the same empty branch, and the code around the chain
  is the project's complete path without TMA. A TMA call outright, or an `else` with a body, still reports;
- the branches differ only by `__launch_bounds__` (in the code or in a `#define` of the same macro) and HIP's
  has none: an occupancy hint, and HIP-Clang assumes up to 1024 threads per block without it.
(And, in the rule: HIP's branch is empty and what it leaves out calls a function the project defines only where
HIP-Clang never compiles, scanner.port.Port.hip_absent.)
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from scanner.analysis import hip_branches

_ARCH = "__CUDA_ARCH__"
_COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})
# A branch written as unreachable: it stops the program instead of computing something.
TRAPS = frozenset(
    {
        "__trap",
        "__builtin_trap",
        "__builtin_unreachable",
        "abort",
        "assert",
        "static_assert",
        "__assert_fail",
        "NO_DEVICE_CODE",
        "__brkpt",
    }
)
_BARRIERS = (
    r"__syncthreads|__syncwarp|__threadfence(?:_block|_system)?|__builtin_amdgcn_s_barrier|__barrier_sync|"
    r"sync|__syncthreads_all"
)
_BARRIER_STATEMENT = re.compile(rf"^(?:[\w:]+\s*(?:\.|->|::)\s*)*(?:{_BARRIERS})\s*\(.*\)$")
# `GGML_UNUSED(x);`, `MAYBE_UNUSED(x);`: silencing the compiler about what the stop leaves unused.
_UNUSED = re.compile(r"^\w*UNUSED\w*\s*\(", re.I)
_ASM = frozenset({"asm", "__asm__", "__asm"})
# A call of a project's wrapper named after a PTX instruction (the asm sits in the wrapper).
_PTX_WRAPPER = re.compile(
    r"(?i)ldmatrix|stmatrix|cp_?async|mma_?sync|wgmma|\bmma\b|_mma_|tma_|lop3|prmt|redux_sync|fence_proxy|"
    r"elect_sync|mbarrier|griddepcontrol"
)
# PTX whose absence changes no result: prefetches, cache policies, programmatic dependent launch, registers.
# Features of one NVIDIA architecture (sm_90a, sm_100a): no other GPU, not even an older NVIDIA one, has them.
_ARCH_SPECIFIC_MACRO = re.compile(r"^__CUDA_ARCH_(FEAT_\w+|SPECIFIC__|FAMILY_SPECIFIC__)$")
_ARCH_SPECIFIC_PTX = re.compile(r"\b(wgmma|tcgen05)\.[\w.]+")
# A name with a `tma` part (`EnableTma`, `tmaSmem`, `TMA_BOX`, `tma_load`), not `stmatrix` or `ultimately`.
_TMA_NAME = re.compile(r"(?:^|_|(?<=[a-z]))(?:tma|Tma|TMA)(?=$|_|[A-Z0-9])")
# `int lw = ...`, `Tile* tile = ...`, `extern __shared__ char smem[]`, `constexpr size_t n = ...`, as joined tokens.
_DECLARATION = re.compile(
    r"^(?:(?:extern|using|constexpr|const|static|typedef|__shared__)\b|\w+(?: :: \w+)*(?: < [^;]*? >)? (?:[*&] )*\w+"
    r" (?:=|\[|$))"
)
_PTX_HINT = re.compile(r"^\s*(prefetch|prefetchu|griddepcontrol|setmaxnreg|createpolicy|applypriority|discard)\b")


@dataclass(frozen=True)
class Branch:
    head: object  # the directive (#if/#elif/#else), None for the implicit empty #else
    first: int
    last: int
    tokens: tuple
    directives: bool = False  # the branch holds a preprocessor line of its own (#define, #include, #error)
    directive_texts: tuple = ()  # those lines, as token texts


def split(ctx, chain: list[tuple[object, int, int]]) -> tuple[list[Branch], list[Branch]]:
    """The chain's branches HIP may take, and those it never compiles (an implicit empty #else included)."""
    view = ctx.view
    kept = [d for d in view.directives if d.name != "pragma"]  # `#pragma unroll` changes no meaning
    lines = [d.line for d in kept]
    branches = [
        Branch(
            head,
            first,
            last,
            tuple(_tokens(view, first, last)),
            _has_directive(lines, first, last),
            _directive_texts(kept, lines, first, last),
        )
        for head, first, last in chain
    ]
    heads = [b.head for b in branches]
    if heads[-1].name != "else":
        heads.append(type(heads[0])("else", 0, 0, ()))
        branches.append(Branch(None, 0, -1, ()))
    # One body line per branch: line 2k+1 holds branch k's head, 2k+2 its body.
    directives = [type(h)(h.name, 2 * k + 1, 2 * k + 1, sm_names_as_numbers(h)) for k, h in enumerate(heads)]
    directives.append(type(heads[0])("endif", 2 * len(heads) + 1, 2 * len(heads) + 1, ()))
    port = ctx.port
    dead = hip_branches.dead_lines(
        directives, 2 * len(heads) + 1, port.hip_macros, port.hip_undefined, values=port.hip_values
    )
    taken = [b for k, b in enumerate(branches) if 2 * k + 2 not in dead]
    excluded = [b for k, b in enumerate(branches) if 2 * k + 2 in dead]
    return taken, excluded


def safe_choice(taken: list[Branch], excluded: list[Branch]) -> str:
    """Why HIP's choice in this chain is safe ("" when it is not): the note the info finding carries."""
    if not taken or not excluded:
        return ""
    if _launch_bounds_only(taken, excluded):
        return (
            f"the branches differ only by `__launch_bounds__`, and the {_where(taken[0])} that HIP compiles has "
            "none: an occupancy and register hint; without it HIP-Clang assumes up to 1024 threads per block, so "
            "nothing computes differently."
        )
    if any(b.directives for b in taken + excluded):
        return ""  # a branch that defines or includes something changes more than the code in it
    if all(_stops(b) for b in taken):
        where = _where(taken[0])
        return (
            f"HIP compiles the {where}, a deliberate stop (`{_first_trap(taken[0])}`): the kernel fails loudly on "
            "AMD rather than computing a wrong result, and the host code decides whether it is launched there."
        )
    kept = {_without_barriers(b) for b in excluded}
    if len(kept) == 1 and all(_without_barriers(b) in kept for b in taken):
        if all(_barriers(b) >= max(1, *(_barriers(e) for e in excluded)) for b in taken):
            return (
                f"the branches differ only by barriers and HIP compiles the {_where(taken[0])}, which "
                "synchronizes at least as much: the conservative path."
            )
    left_out = [b for b in excluded if b.tokens]
    tma = [_tma_name(b) for b in left_out]
    if left_out and all(tma) and all(not b.tokens for b in taken):
        return (
            f"what HIP leaves out is Tensor Memory Accelerator code (`{tma[0]}`), which NVIDIA GPUs have from "
            "sm_90 on: every older one compiles the same empty branch, so the code around it is the complete "
            "path without TMA, the one AMD needs."
        )
    if left_out and all(_ptx(b) for b in left_out):
        if all(_computes(b) for b in taken):
            return (
                f"what HIP leaves out is PTX (inline asm or a PTX wrapper) that cannot run on AMD anyway, and HIP "
                f"compiles the portable {_where(taken[0])}."
            )
        if all(not b.tokens for b in taken) and all(_hint_only(b) for b in left_out):
            return (
                "what HIP leaves out is a PTX hint (a prefetch, a cache policy, a dependent-launch or register "
                "directive) whose absence changes no result."
            )
        specific = [_arch_specific(b) for b in left_out]
        if all(not b.tokens for b in taken) and all(specific):
            return (
                f"what HIP leaves out is PTX for one NVIDIA architecture only (`{specific[0]}`), and an older "
                "NVIDIA GPU compiles the same empty branch: the code belongs to that architecture's kernels, "
                "which an AMD port replaces (on AMD, as there, the empty branch computes nothing if such a "
                "kernel is launched)."
            )
    return ""


def _arch_specific(branch: Branch) -> str:
    """The arch-specific feature macro its condition tests, or the arch-specific instruction its PTX holds."""
    if branch.head is not None:
        feature = next((t.text for t in branch.head.tokens if _ARCH_SPECIFIC_MACRO.match(t.text)), "")
        if feature:
            return feature
    for t in branch.tokens:
        if t.kind == "literal":
            found = _ARCH_SPECIFIC_PTX.search(t.text)
            if found:
                return found.group(0)
    return ""


def _tma_name(branch: Branch) -> str:
    """The first name in the branch with a `tma` part, when the branch is only TMA's side of a choice the code
    makes elsewhere: declarations, `if (<a TMA name>) {...}` (a trailing `else` attaches to the code after the
    `#endif`, which HIP keeps) or `(<a TMA name> && ...) ? x :`. "" otherwise: a branch that calls TMA outright, or holds
    an `else` with a body, drops work HIP has no other path for."""
    blocks = _blocks(branch.tokens)
    if any(b[0].text == "else" for b in blocks[:-1] if b):
        return ""
    names = [t.text for t in branch.tokens if t.kind == "identifier" and _TMA_NAME.search(t.text)]
    if not names or not all(_tma_side(s) for s in blocks):
        return ""
    return names[0]


def _tma_side(statement: list) -> bool:
    texts = [t.text for t in statement]
    if texts in (["else"], []):
        return True
    if texts[0] == "if" and "(" in texts:
        start, depth = texts.index("("), 0
        for k in range(start, len(texts)):
            depth += {"(": 1, ")": -1}.get(texts[k], 0)
            if depth == 0:
                return any(_TMA_NAME.search(x) for x in texts[start:k])
        return False
    if texts[-1] == ":" and "?" in texts and any(_TMA_NAME.search(x) for x in texts[: texts.index("?")]):
        return True  # `(EnableTma && aligned) ? x :`, the choice's TMA side, the rest of it after the #endif
    return bool(_DECLARATION.match(" ".join(texts)))


def _blocks(tokens) -> list[list]:
    """Top-level statements, a braced block closing one (`if (...) {...}`) as well as a `;`."""
    out, current, depth = [], [], 0
    for t in tokens:
        current.append(t)
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.text in (";", "}"):
            out.append(current[:-1] if t.text == ";" else current)
            current = []
    if current:
        out.append(current)
    return out


def _launch_bounds_only(taken: list[Branch], excluded: list[Branch]) -> bool:
    """The branches are the same but for `__launch_bounds__(...)`, which HIP's branches lack."""
    shapes = {_without_launch_bounds(b)[0] for b in taken + excluded}
    if len(shapes) != 1:
        return False
    return not any(_without_launch_bounds(b)[1] for b in taken) and any(_without_launch_bounds(b)[1] for b in excluded)


def _without_launch_bounds(branch: Branch) -> tuple[tuple[str, ...], bool]:
    """The branch's directive lines and code as texts, with each `__launch_bounds__(...)` cut out, and whether
    there was one."""
    texts = [text for line in branch.directive_texts for text in line] + [t.text for t in branch.tokens]
    out, found, k = [], False, 0
    while k < len(texts):
        if texts[k] == "__launch_bounds__" and k + 1 < len(texts) and texts[k + 1] == "(":
            found, depth, k = True, 0, k + 1
            while k < len(texts):
                depth += {"(": 1, ")": -1}.get(texts[k], 0)
                k += 1
                if depth == 0:
                    break
            continue
        out.append(texts[k])
        k += 1
    return tuple(out), found


def _directive_texts(directives, lines: list[int], first: int, last: int) -> tuple:
    if first > last:
        return ()
    inside = directives[bisect.bisect_left(lines, first) : bisect.bisect_right(lines, last)]
    return tuple((d.name, *(t.text for t in d.tokens)) for d in inside)


def computes(view, first: int, last: int) -> bool:
    """Whether lines first..last hold code, none of it a trap, an assert or an #error."""
    if any(d.name == "error" and first <= d.line <= last for d in view.directives):
        return False
    return _computes(Branch(None, first, last, tuple(_tokens(view, first, last))))


def _computes(branch: Branch) -> bool:
    tokens = branch.tokens
    return bool(tokens) and not any(t.text in TRAPS or (t.kind == "literal" and "trap" in t.text) for t in tokens)


def _has_directive(lines: list[int], first: int, last: int) -> bool:
    return first <= last and bisect.bisect_right(lines, last) > bisect.bisect_left(lines, first)


def _tokens(view, first: int, last: int) -> list:
    if first > last:
        return []
    lines = view.per_token("line")
    return view.code[bisect.bisect_left(lines, first) : bisect.bisect_right(lines, last)]


def _where(branch: Branch) -> str:
    if branch.head is None:
        return "empty `#else` it implies"
    return f"`#{branch.head.name}` branch at line {branch.head.line}"


def _statements(branch: Branch) -> list[str]:
    out, current, depth = [], [], 0
    for t in branch.tokens:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if t.text == ";" and depth == 0:
            out.append(" ".join(current))
            current = []
        else:
            current.append(t.text)
    if current:
        out.append(" ".join(current))
    return out


def _stops(branch: Branch) -> bool:
    """A deliberate stop: a trap or assert, and nothing else but `return ...`, `(void)x` or `UNUSED(x)`."""
    statements = _statements(branch)
    if not statements or not any(s.split(" ", 1)[0] in TRAPS for s in statements):
        return False
    return all(
        s.split(" ", 1)[0] in TRAPS or s.startswith(("return", "( void )")) or _UNUSED.match(s) for s in statements
    )


def _first_trap(branch: Branch) -> str:
    return next((t.text for t in branch.tokens if t.text in TRAPS), "trap")


def _without_barriers(branch: Branch) -> tuple[str, ...]:
    return tuple(s for s in _statements(branch) if not _BARRIER_STATEMENT.match(s))


def _barriers(branch: Branch) -> int:
    return sum(1 for s in _statements(branch) if _BARRIER_STATEMENT.match(s))


def _ptx(branch: Branch) -> bool:
    return any(t.text in _ASM or (t.kind == "identifier" and _PTX_WRAPPER.search(t.text)) for t in branch.tokens)


def _hint_only(branch: Branch) -> bool:
    """Only asm statements, each a PTX hint without output operands (`"=r"`, `"+f"`)."""
    statements = _statements(branch)
    if not statements or not all(s.split(" ", 1)[0] in _ASM for s in statements):
        return False
    literals = [t.text for t in branch.tokens if t.kind == "literal"]
    instructions = [s.strip('"') for s in literals if not re.match(r'^"[=+&]?[a-z]+"$', s)]
    outputs = [s for s in literals if re.match(r'^"[=+]', s)]
    return bool(instructions) and not outputs and all(_PTX_HINT.match(s) for s in instructions)


def sm_names_as_numbers(d) -> tuple:
    """`__CUDA_ARCH__ >= GGML_CUDA_CC_AMPERE`: the name stands for a positive SM number."""
    tokens = list(d.tokens)
    for i, tok in enumerate(tokens):
        if tok.text != _ARCH:
            continue
        for j, k in ((i + 2, i + 1), (i - 2, i - 1)):  # `ARCH op NAME` and `NAME op ARCH`
            if (
                0 <= j < len(tokens)
                and tokens[k].text in _COMPARISONS
                and tokens[j].kind == "identifier"
                and tokens[j].text != _ARCH
            ):
                tokens[j] = tokens[j]._replace(text="100000")
    return tuple(tokens)
