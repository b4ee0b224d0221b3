"""Inline PTX with a sure HIP meaning, written as the C++ it computes; every other PTX statement stays as written
and is reported (an `Unconverted` entry: the AMDGPU backend cannot assemble it).

A statement is rewritten only when its whole template is one instruction of the table below, with exactly the
operands and constraint letters it takes there, as a lambda called on the operand expressions in their order:
`asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(d) : "f"(x))` -> `[](auto& d0, float s0) { d0 = ...; }((d), (x))`.
The operand expressions keep their tokens (the other passes still rename inside them) and each is evaluated once,
as the asm evaluated it; inputs take the type their constraint letter names (`h` 16-bit, `r` 32-bit, `f` float),
outputs are assigned, so a narrower result is sign- or zero-extended into a wider register as PTX does. Following
the PTX ISA:
- float to integer (`cvt.{rni,rzi,rmi,rpi}[.sat].{s,u}{8,16,32}.{f32,f16}`): rounded as the modifier says (nearest
  even, toward zero, down, up), clamped to the destination's range (PTX clamps float-to-integer conversions with or
  without `.sat`), NaN to 0; 32-bit destinations clamp in double, where both bounds are exact;
- `cvt.rn.f16.f32`, `cvt.rn.f16x2.f32 d, a, b` (a in the upper half), `cvt.f32.f16`: HIP's `__float2half_rn`,
  `__half2float` on the half's bits;
- half arithmetic (`{add,sub,mul}.f16[x2]`, `fma.rn.f16[x2]`: round to nearest even, subnormals kept, as without
  `.ftz`/`.sat`): HIP's `__hadd`, `__hsub`, `__hmul`, `__hfma` and their `2` forms on the registers' bits;
- scoped memory-model accesses (`ld.acquire.gpu.global.b32`, `st.release...`, `red.release.gpu.global.add.s32`,
  `.cta`/`.gpu`/`.sys`): the `__hip_atomic_load`/`_store`/`_fetch_add` builtins of that order and scope;
- the lane index (`mov.{u,s}32 %0, %%laneid;`): HIP's `__lane_id()`, the lane in the wavefront `warpSize` counts;
- packing (`mov.b32 d, {a, b}`: a in the low half) and unpacking (`mov.b32 {a, b}, d`);
- global loads whose qualifiers are cache hints (`ld.global.nc.f32 %0, [%1];`, `.cs`, `.v4.u32 {...}, [p]`) as the
  plain loads they hint at, as `__ldg`/`__ldcs` are (HIP's `__ldg` is that load); global stores likewise
  (`st.global.cg.b32 [%0], %1;`, `.wb`/`.cs`/`.wt`, vectors): weak stores, as PTX defines them;
- the asynchronous global-to-shared copy (`cp.async.{ca,cg}.shared.global[.L2::128B] [%0], [%1], 16;`, a 32-bit
  shared address and a global pointer) as the synchronous copy of its bytes, which is stronger (the bytes are there
  at once) and so safe; its groups (`cp.async.commit_group`, `cp.async.wait_group N`, `cp.async.wait_all`) then
  have nothing left to wait for and become `(void)0`; under a predicate (`@p cp.async...` after `setp.ne.b32 p,
  %0, 0`), the copy when the guard is not zero (scanner.translate.ptx_guarded). The zero-filling form (a fourth
  operand, src-size) is left.
These are FasterTransformer's decoder_masked_multihead_attention_utils.h idioms, copied into lmdeploy, qserve and
flash-attention. What has no sure counterpart (`ldmatrix`, `mma.sync`, `cp.async` into a 32-bit shared address...)
is not invented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scanner.translate import ptx_guarded, ptx_warp
from scanner.translate.ptx_rewrite import Rewrite
from scanner.translate.tokenwalk import COMMENT, LITERAL, Span, matching_close, next_code, text

Edit = tuple[int, int, bytes]

_ASM = frozenset({b"asm", b"__asm__", b"__asm"})
_QUALIFIERS = frozenset({b"volatile", b"__volatile__", b"inline", b"goto"})
_CVT_INT = re.compile(r"^cvt\.(rni|rzi|rmi|rpi)(?:\.sat)?\.([su])(8|16|32)\.(f32|f16)$")
_ROUND = {"rni": "rint", "rzi": "trunc", "rmi": "floor", "rpi": "ceil"}
_INT_TYPES = {
    ("s", "8"): ("signed char", -128, 127),
    ("u", "8"): ("unsigned char", 0, 255),
    ("s", "16"): ("short", -32768, 32767),
    ("u", "16"): ("unsigned short", 0, 65535),
    ("s", "32"): ("int", -2147483648, 2147483647),
    ("u", "32"): ("unsigned int", 0, 4294967295),
}
_CP_ASYNC = re.compile(r"^cp\.async\.(?:ca|cg)\.shared\.global(?:\.L2::(?:64|128|256)B)?$")
_CP_ASYNC_OPERANDS = re.compile(r"^\[%0\],\[%1\],(%2|4|8|16)$")
# a shared-memory address as PTX takes it (32 bits, from __cvta_generic_to_shared) back to a pointer HIP can use
_SHARED = "(void*)(__attribute__((address_space(3))) char*)(unsigned long long)s0"
_NOTHING = "(void)0"
# global loads whose qualifiers are cache hints only (not .volatile/.relaxed/.acquire/.cv, which order or refetch)
_LOAD = re.compile(
    r"^ld\.global(?:\.(?:nc|ca|cg|cs|lu))?(?:\.L1::no_allocate)?(?:\.L2::(?:64|128|256)B)?(?:\.(v2|v4))?"
    r"\.(f32|f64|s32|u32|b32|s64|u64|b64|s16|u16|b16)$"
)
# global stores whose qualifiers are cache hints only (write-back, cache-global, streaming, write-through)
_STORE = re.compile(
    r"^st\.global(?:\.(?:wb|cg|cs|wt))?(?:\.L1::no_allocate)?(?:\.(v2|v4))?"
    r"\.(f32|f64|s32|u32|b32|s64|u64|b64|s16|u16|b16)$"
)
_LOAD_TYPES = {
    "f32": ("float", "f"),
    "f64": ("double", "d"),
    "s32": ("int", "r"),
    "u32": ("unsigned int", "r"),
    "b32": ("unsigned int", "r"),
    "s64": ("long long", "l"),
    "u64": ("unsigned long long", "l"),
    "b64": ("unsigned long long", "l"),
    "s16": ("short", "h"),
    "u16": ("unsigned short", "h"),
    "b16": ("unsigned short", "h"),
}
# the async copies' groups: every copy was done when it was issued (above), so there is nothing to wait for
_COMPLETE = {("cp.async.commit_group", ""), ("cp.async.wait_all", ""), ("cp.async.wait_group", "%0")}
_HALF = "__ushort_as_half(s{})"
_HALF2 = "__builtin_bit_cast(__half2, s{})"
_ARITHMETIC = {"add": "__hadd", "sub": "__hsub", "mul": "__hmul", "fma.rn": "__hfma"}
# what a real PTX instruction looks like: a dotted mnemonic (`mma.sync.aligned...`), not a comment or a label
_PTX_WORD = re.compile(r"^(?:@!?\w+\s+)?([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)")


# PTX's opcodes and the qualifiers only PTX writes (types, state spaces, scopes): an asm statement whose instruction has
# both is PTX, whatever the file's extension (a header of LDMATRIX/CP_ASYNC macros with no other CUDA in it). Another
# architecture's dotted mnemonics (Thumb's `add.w`, NEON's `vld1.32`) have neither.
_PTX_OPCODES = frozenset(
    "ldmatrix stmatrix mma wmma wgmma cp cvta cvt shfl bar barrier membar fence red atom ld st mov prmt lop3 vote "
    "redux elect mbarrier setmaxnreg griddepcontrol createpolicy prefetch isspacep mapa multimem match brev bfind "
    "popc clz fma add sub mul mad div rcp sqrt rsqrt ex2 lg2 sin cos tanh min max abs neg setp selp and or xor not "
    "shl shr tex suld sust".split()
)
_PTX_QUALIFIERS = frozenset(
    "u8 u16 u32 u64 s8 s16 s32 s64 b8 b16 b32 b64 b128 f16 f16x2 bf16 bf16x2 f32 f64 tf32 e4m3 e5m2 pred "
    "shared global local const param sync aligned async cta gpu sys relaxed acquire release acq_rel volatile "
    "commit_group wait_group wait_all nc ca cg cs lu approx ftz rn rz rm rp rni rzi rmi rpi sat satfinite".split()
)


def is_ptx(instruction: str) -> bool:
    """Whether a dotted mnemonic is PTX's: a PTX opcode with a qualifier only PTX writes (`ldmatrix.sync...b16`)."""
    opcode, *qualifiers = instruction.split(".")
    return opcode in _PTX_OPCODES and any(q.split("::")[0] in _PTX_QUALIFIERS for q in qualifiers)


def uses_ptx(found: Plan) -> bool:
    """Whether a plan found any PTX statement (converted, emulated or left): such a file is CUDA."""
    return any(is_ptx(word) for _, word in found.converted + found.left)


def _table() -> dict[tuple[str, str], Rewrite]:
    table = {
        ("cvt.rn.f16.f32", "%0,%1"): Rewrite(("h",), "f", "d0 = __half_as_ushort(__float2half_rn(s0));"),
        ("cvt.rn.f16x2.f32", "%0,%1,%2"): Rewrite(
            ("r",),
            "ff",
            "d0 = static_cast<unsigned int>(__half_as_ushort(__float2half_rn(s0))) << 16 | "
            "__half_as_ushort(__float2half_rn(s1));",
        ),
        ("cvt.f32.f16", "%0,%1"): Rewrite(("f",), "h", "d0 = __half2float(__ushort_as_half(s0));"),
        # the lane's index in its warp, which in HIP is the wavefront warpSize counts (HIP's documented spelling)
        ("mov.u32", "%0,%laneid"): Rewrite(("r",), "", "d0 = __lane_id();"),
        ("mov.s32", "%0,%laneid"): Rewrite(("r",), "", "d0 = __lane_id();"),
        ("mov.b32", "%0,{%1,%2}"): Rewrite(("r",), "hh", "d0 = static_cast<unsigned int>(s1) << 16 | s0;"),
        ("mov.b32", "%0,{%1,%1}"): Rewrite(("r",), "h", "d0 = static_cast<unsigned int>(s0) << 16 | s0;"),
        ("mov.b32", "{%0,%1},%2"): Rewrite(
            ("h", "h"), "r", "d0 = static_cast<unsigned short>(s0); d1 = static_cast<unsigned short>(s0 >> 16);"
        ),
    }
    for op, fn in _ARITHMETIC.items():
        arity = 3 if op == "fma.rn" else 2
        operands = "%0," + ",".join(f"%{n + 1}" for n in range(arity))
        half = ", ".join(_HALF.format(n) for n in range(arity))
        table[(f"{op}.f16", operands)] = Rewrite(("h",), "h" * arity, f"d0 = __half_as_ushort({fn}({half}));")
        pair = ", ".join(_HALF2.format(n) for n in range(arity))
        table[(f"{op}.f16x2", operands)] = Rewrite(
            ("r",), "r" * arity, f"d0 = __builtin_bit_cast(unsigned int, {fn}2({pair}));"
        )
    return table


_TABLE = _table()


@dataclass
class Plan:
    edits: list[Edit] = field(default_factory=list)
    converted: list[tuple[int, str]] = field(default_factory=list)  # (offset of `asm`, instruction)
    left: list[tuple[int, str]] = field(default_factory=list)  # (offset, instruction) of PTX kept as written
    emulated: list[tuple[int, str]] = field(default_factory=list)  # (offset, instruction) done by ptx_warp's helpers
    uses_half: bool = False


def rewrite_for(instruction: str, operands: str) -> Rewrite | None:
    """The C++ for one PTX instruction and its operands (blanks removed: `%0,%1`), or None when it has no sure
    counterpart here."""
    if ptx_warp.is_warp_instruction(instruction):
        return ptx_warp.rewrite_for(instruction, operands)
    match = _CVT_INT.match(instruction)
    if match and operands == "%0,%1":
        rounding, sign, bits, source = match.groups()
        ctype, low, high = _INT_TYPES[(sign, bits)]
        value = "__half2float(__ushort_as_half(s0))" if source == "f16" else "s0"
        if bits == "32":  # float cannot hold 2^31 - 1: clamp in double
            clamp = f"v != v ? 0.0 : fmin(fmax({_ROUND[rounding]}(v), {low}.0), {high}.0)"
            kind = "double"
        else:
            clamp = f"v != v ? 0.0f : fminf(fmaxf({_ROUND[rounding]}f(v), {low}.0f), {high}.0f)"
            kind = "float"
        body = f"{kind} v = {value}; d0 = static_cast<{ctype}>({clamp});"
        return Rewrite(("rh" if bits != "32" else "r",), "h" if source == "f16" else "f", body)
    scoped = _SCOPED.match(instruction)
    if scoped:
        return _scoped(scoped, operands)
    load = _LOAD.match(instruction)
    if load:
        return _load(load.group(1), load.group(2), operands)
    store = _STORE.match(instruction)
    if store:
        return _store(store.group(1), store.group(2), operands)
    copy = _CP_ASYNC_OPERANDS.match(operands) if _CP_ASYNC.match(instruction) else None
    if copy:
        size = copy.group(1)
        body = f"__builtin_memcpy({_SHARED}, s1, {'s2' if size == '%2' else size});"
        return Rewrite((), "rln" if size == "%2" else "rl", body)
    if (instruction, operands) in _COMPLETE:
        return Rewrite((), "n" if operands else "", "" if operands else _NOTHING)
    if instruction == "cp.async.wait_group" and operands.isdigit():
        return Rewrite((), "", _NOTHING)
    return _TABLE.get((instruction, operands))


# scoped memory-model accesses (PTX ISA: .cta/.gpu/.sys are HIP's workgroup/agent/system scopes; acquire loads,
# release reductions and stores are the __hip_atomic_* builtins with that order), in either order of the state space
# and the semantics (`ld.global.acquire.gpu.b32`, `red.release.gpu.global.add.s32`)
_SCOPES = {"cta": "__HIP_MEMORY_SCOPE_WORKGROUP", "gpu": "__HIP_MEMORY_SCOPE_AGENT", "sys": "__HIP_MEMORY_SCOPE_SYSTEM"}
_ORDERS = {"relaxed": "__ATOMIC_RELAXED", "acquire": "__ATOMIC_ACQUIRE", "release": "__ATOMIC_RELEASE"}
_SCOPED = re.compile(
    r"^(ld|st|red)\.(?:global\.)?(relaxed|acquire|release)\.(cta|gpu|sys)(?:\.global)?(?:\.(add))?\.([bsu]32)$"
)
_SCOPED_TYPE = {"b32": "unsigned int", "u32": "unsigned int", "s32": "int"}


def _scoped(match: re.Match, operands: str) -> Rewrite | None:
    """`ld.acquire.gpu.global.b32 %0, [%1]`, `st.release...b32 [%0], %1`, `red.release...add.s32 [%0], %1` as the
    __hip_atomic_* builtins of the same order and scope; None for a form PTX does not have (an acquire store)."""
    op, order, scope, add, kind = match.groups()
    ctype, hip_order, hip_scope = _SCOPED_TYPE[kind], _ORDERS[order], _SCOPES[scope]
    target = f"static_cast<{ctype}*>(const_cast<void*>(s0))"
    if op == "ld" and add is None and order != "release" and operands == "%0,[%1]":
        body = f"d0 = __hip_atomic_load(static_cast<const {ctype}*>(s0), {hip_order}, {hip_scope});"
        return Rewrite(("r",), "l", body)
    immediate = re.fullmatch(r"\[%0\],(-?\d+)", operands)  # `red.release.gpu.global.add.s32 [%0], 1;`
    if op in ("st", "red") and (operands == "[%0],%1" or immediate):
        value, ins = (immediate.group(1), "l") if immediate else ("s1", "lr")
        if op == "st" and add is None and order != "acquire":
            body = f"__hip_atomic_store({target}, static_cast<{ctype}>({value}), {hip_order}, {hip_scope});"
            return Rewrite((), ins, body)
        if op == "red" and add and order != "acquire":
            body = f"__hip_atomic_fetch_add({target}, static_cast<{ctype}>({value}), {hip_order}, {hip_scope});"
            return Rewrite((), ins, body)
    return None


def _store(vector: str | None, kind: str, operands: str) -> Rewrite | None:
    """`st.global[.wb|.cg|.cs|.wt][.L1::no_allocate][.v2|.v4].<type> [p], {s..}` as plain stores (weak stores whose
    qualifiers are cache hints, as PTX defines them)."""
    ctype, letter = _LOAD_TYPES[kind]
    count = int(vector[1]) if vector else 1
    sources = "{" + ",".join(f"%{n + 1}" for n in range(count)) + "}" if vector else "%1"
    if operands != f"[%0],{sources}":
        return None
    assign = " ".join(f"p[{n}] = static_cast<{ctype}>(s{n + 1});" for n in range(count))
    body = f"{ctype}* p = static_cast<{ctype}*>(const_cast<void*>(s0)); {assign}"
    return Rewrite((), "l" + letter * count, body)


def _load(vector: str | None, kind: str, operands: str) -> Rewrite | None:
    """`ld.global[.nc|.ca|.cg|.cs|.lu][.L1::no_allocate][.L2::128B][.v2|.v4].<type> {d..}, [p]` as plain loads."""
    ctype, letter = _LOAD_TYPES[kind]
    count = int(vector[1]) if vector else 1
    destinations = "{" + ",".join(f"%{n}" for n in range(count)) + "}" if vector else "%0"
    if operands != f"{destinations},[%{count}]":
        return None
    assign = " ".join(f"d{n} = p[{n}];" for n in range(count))
    return Rewrite((letter,) * count, "l", f"const {ctype}* p = static_cast<const {ctype}*>(s0); {assign}")


# an instruction and its operands, which may follow without a blank: `"ldmatrix...b16" "{%0, %1}, [%2];"`
_ONE_INSTRUCTION = re.compile(r"^([a-z][a-zA-Z0-9_.:]*)(?:(?:\s+|(?=[{\[]))([%0-9{}\[\], \t]+(?:%%?laneid)?))?$")
# a generic address to a 32-bit shared one through a scratch register, as __cvta_generic_to_shared is written in
# PTX (`{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }`): the low 32 bits of the LDS address
_TO_SHARED_BLOCK = re.compile(
    r"^\s*\{\s*\.reg\s+\.u64\s+(\w+)\s*;\s*cvta\.to\.shared\.u64\s+\1\s*,\s*%1\s*;\s*"
    r"cvt\.u32\.u64\s+%0\s*,\s*\1\s*;\s*\}\s*(?:\\n|\s)*$"
)
_TO_SHARED = Rewrite(
    ("r",),
    "l",
    "d0 = static_cast<unsigned int>((unsigned long long)(__attribute__((address_space(3))) const void*)(s0));",
)


def plan(data: bytes, spans: list[Span]) -> Plan:
    out = Plan()
    for i, (_, off, length) in enumerate(spans):
        if data[off : off + length] not in _ASM:
            continue
        statement = _statement(data, spans, i)
        if statement is None:  # not read (a macro in the template): reported when it starts with PTX
            word = _PTX_WORD.match(_first_literal(data, spans, i))
            if word:
                out.left.append((off, word.group(1)))
            continue
        template, groups, close = statement
        block = _TO_SHARED if _TO_SHARED_BLOCK.match(template) else ptx_guarded.rewrite_for(template)
        edits = _edits(data, spans, off, block, groups, close) if block is not None else None
        if edits is not None:
            out.edits.extend(edits)
            out.converted.append((off, "cvta.to.shared.u64" if block is _TO_SHARED else ptx_guarded.label(template)))
            continue
        instructions = [s.strip() for s in re.split(r";|\\n|\n", template) if s.strip()]
        words = [m.group(1) for m in map(_PTX_WORD.match, instructions) if m]
        if not words:
            continue  # no PTX instruction (an empty asm, a label): nothing a HIP compiler rejects
        rewrite = _rewrite(instructions[0]) if len(instructions) == 1 else None
        edits = _edits(data, spans, off, rewrite, groups, close) if rewrite is not None else None
        if edits is None:
            out.left.append((off, words[0]))
            continue
        out.edits.extend(edits)
        out.converted.append((off, words[0]))
        if rewrite.warp:
            out.emulated.append((off, words[0]))
        out.uses_half = out.uses_half or "f16" in words[0] or words[0] == "mov.b32"
    return out


def _statement(data: bytes, spans: list[Span], i: int):
    """(template text, operand groups, index of the closing paren) of the asm statement at token i: groups are lists
    of (constraint, first token, last token) for outputs, inputs (clobbers ignored)."""
    j = next_code(spans, i)
    while j < len(spans) and text(data, spans[j]) in _QUALIFIERS:
        j = next_code(spans, j)
    if j >= len(spans) or text(data, spans[j]) != b"(":
        return None
    close = matching_close(data, spans, j)
    if close is None:
        return None
    k = next_code(spans, j)
    template = []
    while k < close and spans[k][0] == LITERAL:
        literal = text(data, spans[k])
        if not (literal.startswith(b'"') and literal.endswith(b'"')):
            return None
        template.append(literal[1:-1].decode("utf-8", "replace"))
        k = next_code(spans, k)
    if not template:
        return None  # a macro in the template (`L2_CACHEHINT(128)`): not read
    groups: list[list[tuple[str, int, int]]] = []
    while k < close:
        tok = text(data, spans[k])
        if tok == b"::":
            groups += [[], []]
        elif tok == b":":
            groups.append([])
        elif tok == b"," and groups:
            pass
        elif spans[k][0] == LITERAL and groups and len(groups) <= 2:
            paren = next_code(spans, k)
            if paren >= close or text(data, spans[paren]) != b"(":
                return None
            end = matching_close(data, spans, paren)
            if end is None:
                return None
            constraint = text(data, spans[k])[1:-1].decode("utf-8", "replace")
            groups[-1].append((constraint, next_code(spans, paren), _prev(spans, end)))
            k = end
        elif spans[k][0] != COMMENT and len(groups) <= 2:
            return None
        k = next_code(spans, k)
    return "".join(template), groups, close


def _first_literal(data: bytes, spans: list[Span], i: int) -> str:
    j = next_code(spans, i)
    while j < len(spans) and text(data, spans[j]) in _QUALIFIERS | {b"("}:
        j = next_code(spans, j)
    literal = text(data, spans[j]) if j < len(spans) and spans[j][0] == LITERAL else b'""'
    return literal[1:-1].decode("utf-8", "replace").strip()


def _prev(spans: list[Span], i: int) -> int:
    i -= 1
    while spans[i][0] == COMMENT:
        i -= 1
    return i


def _rewrite(instruction: str) -> Rewrite | None:
    match = _ONE_INSTRUCTION.match(instruction)
    if match is None:
        return None
    return rewrite_for(match.group(1), re.sub(r"\s+", "", match.group(2) or "").replace("%%laneid", "%laneid"))


def _edits(data: bytes, spans: list[Span], start: int, rewrite: Rewrite, groups, close: int) -> list[Edit] | None:
    """Edits from `asm` (at byte `start`) to its closing paren that leave the operand expressions in place."""
    groups = groups + [[] for _ in range(2 - len(groups))]  # `asm volatile("cp.async.wait_all;")` has none
    outputs, inputs = groups[0], groups[1]
    if len(outputs) != len(rewrite.outs) or len(inputs) != len(rewrite.ins):
        return None
    mode = "+" if rewrite.inout else "="
    for (constraint, _, _), letters in zip(outputs, rewrite.outs):
        if not (len(constraint) == 2 and constraint[0] == mode and constraint[1] in letters):
            return None
    if any(have != want for (have, _, _), want in zip(inputs, rewrite.ins)):
        return None
    ranges = [(spans[first][1], spans[last][1] + spans[last][2]) for _, first, last in outputs + inputs]
    if any(a >= b for a, b in ranges):
        return None
    bounds = [start] + [edge for a, b in ranges for edge in (a, b)] + [spans[close][1] + 1]
    return [(bounds[2 * n], bounds[2 * n + 1], piece.encode()) for n, piece in enumerate(rewrite.pieces())]
