"""A global load, or an asynchronous copy to shared memory, under a predicate, as CUTLASS-derived kernels write it
in one asm block (torchsparse's `global_load<N>`, lmdeploy's `CP_ASYNC<...>::apply`), written as the C++ it
computes:

    { .reg .pred p; setp.ne.b32 p, %5, 0; mov.b32 %0, %6; ... @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4]; }

each destination first takes its default (the `mov`s), then, when the guard is not zero, the loaded value: the
load's qualifiers are cache hints only (scanner.translate.ptx's `_LOAD`), so the plain load is what it does. The
block is taken only when it is exactly this: one predicate, `setp.ne.b32 p, %k, 0`, one `mov.b16`/`mov.b32` per
destination from an input of the same width, then the predicated load into every output once.

    { .reg .pred p; setp.ne.b32 p, %0, 0; @p cp.async.cg.shared.global [%1], [%2], 16; }

copies the bytes when the guard is not zero, synchronously, as the unguarded copy is written
(scanner.translate.ptx): one predicate, its `setp`, the predicated copy of 4, 8 or 16 bytes to a 32-bit shared
address from a global pointer, each input used once. The zero-filling and cache-policy forms stay as written.
"""

from __future__ import annotations

import re

from scanner.translate.ptx_rewrite import Rewrite

_PRED = re.compile(r"^\.reg\s+\.pred\s+(\w+)$")
_SETP = re.compile(r"^setp\.ne\.b32\s+(\w+)\s*,\s*%(\d+)\s*,\s*0$")
_MOV = re.compile(r"^mov\.b(16|32)\s+%(\d+)\s*,\s*%(\d+)$")
_LOAD = re.compile(
    r"^@(\w+)\s+ld\.global(?:\.(?:ca|cg|cs|lu))?(?:\.L1::no_allocate)?(?:\.L2::(?:64|128|256)B)?(?:\.(v2|v4))?"
    r"\.(u32|b32|s32|u16|b16|s16)\s+(\{[%\d,\s]+\}|%\d+)\s*,\s*\[%(\d+)\]$"
)
_TYPES = {"32": ("unsigned int", "r"), "16": ("unsigned short", "h")}


def label(template: str) -> str:
    """How a converted block is counted: the instruction it guards."""
    return "cp.async (guarded)" if "cp.async" in template else "ld.global (guarded)"


def rewrite_for(template: str) -> Rewrite | None:
    """The C++ of a guarded-load or guarded-copy block (its whole template), or None when it is not one exactly."""
    text = re.sub(r"\\[nt]", " ", template).strip()  # the literal's `\n` and `\t` escapes are blanks to PTX
    if not (text.startswith("{") and text.endswith("}")):
        return None
    parts = [p.strip() for p in re.split(r";|\n", text[1:-1]) if p.strip()]
    if len(parts) == 3:
        return _copy(parts)
    if len(parts) < 4:
        return None
    pred, setp, load = _PRED.match(parts[0]), _SETP.match(parts[1]), _LOAD.match(parts[-1])
    movs = [_MOV.match(p) for p in parts[2:-1]]
    if not (pred and setp and load) or not all(movs):
        return None
    name = pred.group(1)
    if setp.group(1) != name or load.group(1) != name:
        return None
    vector, kind, destinations, address = load.group(2), load.group(3), load.group(4), int(load.group(5))
    bits = kind[1:]
    count = int(vector[1]) if vector else 1
    wanted = "{" + ",".join(f"%{n}" for n in range(count)) + "}" if vector else "%0"
    if re.sub(r"\s+", "", destinations) != wanted:
        return None
    defaults = {int(m.group(2)): int(m.group(3)) for m in movs}
    if sorted(defaults) != list(range(count)) or len(movs) != count or any(m.group(1) != bits for m in movs):
        return None
    guard = int(setp.group(2))
    inputs = [address, guard, *defaults.values()]
    if sorted(inputs) != list(range(count, count + len(inputs))):
        return None  # every input used once, in some order
    ctype, letter = _TYPES[bits]
    letters = {address: "l", guard: "r", **{source: letter for source in defaults.values()}}
    ins = "".join(letters[n] for n in range(count, count + len(inputs)))

    def s(n: int) -> str:
        return f"s{n - count}"

    first = " ".join(f"d{n} = {s(defaults[n])};" for n in range(count))
    loads = " ".join(f"d{n} = p[{n}];" for n in range(count))
    body = f"{first} if ({s(guard)} != 0) {{ const {ctype}* p = static_cast<const {ctype}*>({s(address)}); {loads} }}"
    return Rewrite((letter,) * count, ins, body)


_COPY = re.compile(
    r"^@(\w+)\s+cp\.async\.(?:ca|cg)\.shared\.global(?:\.L2::(?:64|128|256)B)?\s+\[%(\d+)\]\s*,\s*\[%(\d+)\]\s*,"
    r"\s*(4|8|16)$"
)
# a shared-memory address as PTX takes it (32 bits) back to a pointer HIP can use (as scanner.translate.ptx writes it)
_SHARED = "(void*)(__attribute__((address_space(3))) char*)(unsigned long long)"


def _copy(parts: list[str]) -> Rewrite | None:
    pred, setp, copy = _PRED.match(parts[0]), _SETP.match(parts[1]), _COPY.match(parts[2])
    if not (pred and setp and copy) or setp.group(1) != pred.group(1) or copy.group(1) != pred.group(1):
        return None
    guard, destination, source, size = int(setp.group(2)), int(copy.group(2)), int(copy.group(3)), copy.group(4)
    if sorted((guard, destination, source)) != [0, 1, 2]:
        return None
    letters = {guard: "r", destination: "r", source: "l"}
    body = f"if (s{guard} != 0) __builtin_memcpy({_SHARED}s{destination}, s{source}, {size});"
    return Rewrite((), "".join(letters[n] for n in range(3)), body)
